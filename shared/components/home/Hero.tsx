import { useHomeCopy } from './useHomeCopy';
import { reachAttribute } from '../../leaveBeacon';
import { site } from '../../content/site';
import { Picture } from '../../images/Picture';
import { AffiliateLink } from '../AffiliateLink';

export function Hero() {
  const { hero } = useHomeCopy();
  return (
    <section id="hero" className="hero" aria-labelledby="hero-title" {...{ [reachAttribute]: 'hero' }}>
      <div className="hero__inner">
        <div className="hero__text">
          <p className="eyebrow">{hero.eyebrow}</p>
          <h1 id="hero-title">{hero.heading}</h1>
          <p className="hero__lead">{hero.lead}</p>
          <p className="hero__claim">{hero.savingsClaim}</p>
          <div className="hero__actions">
            <AffiliateLink placement="hero" className="button button--primary">
              {hero.primaryCtaLabel}
            </AffiliateLink>
            <a className="text-button" href="#bonus">
              {hero.secondaryCtaLabel}
            </a>
          </div>
          <p className="disclosure">{site.disclosureShort}</p>
          <ul className="check-list hero__points">
            {hero.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </div>
        <Picture
          image="hero"
          alt={hero.heroImageAlt}
          sizes="(min-width: 960px) 520px, calc(100vw - 32px)"
          priority
          className="hero__image"
        />
      </div>
    </section>
  );
}
