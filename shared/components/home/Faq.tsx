import { useHomeCopy } from './useHomeCopy';
import { Section } from '../Section';

/**
 * Native exclusive accordion: <details> elements sharing a name open one at a time, start closed, and
 * work without JavaScript (Chrome 120, Safari 17.2, Firefox 130). Older browsers let several open at
 * once, and every answer stays reachable.
 */
export function Faq() {
  const { faq } = useHomeCopy();
  return (
    <Section id="faq" heading={faq.heading} tone="tinted">
      <div className="faq">
        {faq.items.map((item) => (
          <details key={item.question} name="faq" className="faq__item">
            <summary className="faq__question">{item.question}</summary>
            <div className="faq__answer">
              <p>{item.answer}</p>
            </div>
          </details>
        ))}
      </div>
    </Section>
  );
}
