import { useHomeCopy } from './useHomeCopy';
import { Picture } from '../../images/Picture';
import { AffiliateLink } from '../AffiliateLink';
import { CallToAction } from '../CallToAction';
import { Section } from '../Section';

export function CheckAuctions() {
  const { checkAuctions } = useHomeCopy();
  return (
    <Section id="check-auctions" heading={checkAuctions.heading} layout="split">
      <AffiliateLink placement="check-auctions-image" className="check-auctions__image">
        <Picture image="check-auctions" alt={checkAuctions.imageAlt} sizes="(min-width: 960px) 520px, calc(100vw - 32px)" />
      </AffiliateLink>
      <div className="check-auctions__text">
        <p>{checkAuctions.text}</p>
        <CallToAction placement="check-auctions-button" label={checkAuctions.ctaLabel} align="start" />
      </div>
    </Section>
  );
}
