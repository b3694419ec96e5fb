import { benefits } from '../../content/home';
import { ReviewCarouselIsland } from '../../islands';
import { Section } from '../Section';

export function Benefits() {
  return (
    <Section id="benefits" heading={benefits.heading} intro={benefits.intro}>
      <ul className="card-grid card-grid--three">
        {benefits.items.map((item) => (
          <li key={item.title} className="card card--benefit">
            <h3>{item.title}</h3>
            <p>{item.description}</p>
          </li>
        ))}
      </ul>
      <ReviewCarouselIsland />
    </Section>
  );
}
