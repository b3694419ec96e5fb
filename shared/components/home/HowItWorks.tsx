import { useHomeCopy } from './useHomeCopy';
import { CallToAction } from '../CallToAction';
import { Section } from '../Section';

export function HowItWorks() {
  const { howItWorks } = useHomeCopy();
  return (
    <Section id="how-it-works" heading={howItWorks.heading} intro={howItWorks.intro} tone="tinted">
      <ol className="steps">
        {howItWorks.steps.map((step, index) => (
          <li key={step.title} className="steps__item">
            <span className="steps__number" aria-hidden="true">
              {index + 1}
            </span>
            <h3>
              <span className="visually-hidden">{howItWorks.stepLabel.replace('{n}', String(index + 1))}</span>
              {step.title}
            </h3>
            <p>{step.description}</p>
          </li>
        ))}
      </ol>
      <CallToAction placement="start-learning" label={howItWorks.startLearningLabel} />
    </Section>
  );
}
