import { useHomeCopy } from './useHomeCopy';
import { site } from '../../content/site';
import { Picture } from '../../images/Picture';
import { CallToAction } from '../CallToAction';
import { Section } from '../Section';

export function Bonus() {
  const { bonus } = useHomeCopy();
  return (
    <Section id="bonus" heading={bonus.heading} intro={bonus.intro} tone="tinted">
      <ul className="books">
        {bonus.books.map((book) => (
          <li key={book.title} className="books__item">
            <Picture image={book.cover} alt="" sizes="150px" className="books__cover" />
            <div>
              <h3>{book.title}</h3>
              {book.pages !== undefined && <p className="books__pages">{bonus.pagesLabel.replace('{n}', String(book.pages))}</p>}
              <p>{book.description}</p>
            </div>
          </li>
        ))}
      </ul>
      <CallToAction placement="bonus" label={bonus.ctaLabel} />
      <p className="disclosure disclosure--center">{site.disclosureShort}</p>
      <p className="note">{bonus.note}</p>
    </Section>
  );
}
