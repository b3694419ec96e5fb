import { useHomeCopy } from './useHomeCopy';
import { CallToAction } from '../CallToAction';
import { Section } from '../Section';

export function WhatIs() {
  const { whatIs } = useHomeCopy();
  return (
    <Section id="what-is" heading={whatIs.heading} intro={whatIs.intro}>
      <ul className="card-grid card-grid--two">
        {whatIs.features.map((feature, index) => (
          <li key={feature.title} className="card">
            <span className="card__badge" aria-hidden="true">
              {index + 1}
            </span>
            <h3>{feature.title}</h3>
            <p>{feature.description}</p>
          </li>
        ))}
      </ul>
      <CallToAction placement="explainer" label={whatIs.ctaLabel} />
      <p className="note">{whatIs.note}</p>
    </Section>
  );
}
