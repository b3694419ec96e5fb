import { Layout } from '../components/Layout';
import { PageHead } from '../components/PageHead';
import { Prose } from '../components/Prose';
import { site } from '../content/site';
import type { ProsePage as ProsePageContent } from '../content/types';

/** A long-form text page (privacy policy, terms, about), set for reading. */
export function ProsePage({ page }: { page: ProsePageContent }) {
  return (
    <Layout>
      <PageHead title={page.title} description={page.description} path={page.path} />
      <article className="prose-page">
        <a className="back-link" href="/">
          {site.backToHome}
        </a>
        <h1 id="page-title">{page.heading}</h1>
        {page.lastUpdated && <p className="prose-page__updated">Last updated: {page.lastUpdated}</p>}
        <Prose blocks={page.intro} />
        {page.sections.map((section) => (
          <section key={section.id} aria-labelledby={section.id}>
            <h2 id={section.id}>{section.heading}</h2>
            <Prose blocks={section.blocks} />
          </section>
        ))}
        <p>
          <a className="back-link back-link--end" href="/">
            {site.backToHome}
          </a>
        </p>
      </article>
    </Layout>
  );
}
