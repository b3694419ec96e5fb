import { howItWorks } from '../../content/home';
import { AffiliateLink } from '../AffiliateLink';
import { Section } from '../Section';

export function HowItWorks() {
  return (
    <Section id="how-it-works" heading={howItWorks.heading} intro={howItWorks.intro} tone="tinted">
      <ol className="steps">
        {howItWorks.steps.map((step, index) => (
          <li key={step.title} className="steps__item">
            <span className="steps__number" aria-hidden="true">
              {index + 1}
            </span>
            <h3>
              <span className="visually-hidden">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p>{step.description}</p>
          </li>
        ))}
      </ol>
      <div className="section__actions">
        <AffiliateLink placement="start-learning" className="button button--primary">
          {howItWorks.startLearningLabel}
        </AffiliateLink>
      </div>
    </Section>
  );
}
