import { useHomeCopy } from './useHomeCopy';
import { generatedImages } from '../../content/images.generated';
import { Island } from '../../islands/Island';
import { Section } from '../Section';

export function Benefits() {
  const { benefits, reviews } = useHomeCopy();
  // The carousel's own six images travel in its props, so its chunk needs no image table.
  const carouselReviews = { ...reviews, slides: reviews.slides.map(({ image, alt }) => ({ image: generatedImages[image], alt })) };
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
      <Island name="ReviewCarousel" props={{ reviews: carouselReviews }} />
    </Section>
  );
}
