import { whatIs } from '../../content/home';
import { AffiliateLink } from '../AffiliateLink';
import { Section } from '../Section';

export function WhatIs() {
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
      <div className="section__actions">
        <AffiliateLink placement="explainer" className="button button--primary">
          {whatIs.ctaLabel}
        </AffiliateLink>
      </div>
      <p className="note">{whatIs.note}</p>
    </Section>
  );
}
