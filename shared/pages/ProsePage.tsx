import { Layout } from '../components/Layout';
import { PageHead } from '../components/PageHead';
import { Prose } from '../components/Prose';
import { site } from '../content/site';
import type { ProsePage as ProsePageContent, TextBlock } from '../content/types';
import { usePageContext } from '../pageContext';

/** Copy may name the operator's settings, written {clickRetentionDays}, so the text always matches the server. */
function fillSettings(blocks: TextBlock[], settings: Record<string, string>): TextBlock[] {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (token, name: string) => settings[name] ?? token);
  return blocks.map((block) => (block.kind === 'paragraph' ? { ...block, text: fill(block.text) } : { ...block, items: block.items.map(fill) }));
}

/** A long-form text page (privacy policy, terms, about), set for reading. */
export function ProsePage({ page }: { page: ProsePageContent }) {
  const { clickCounting } = usePageContext();
  const settings = { clickRetentionDays: String(clickCounting?.retentionDays ?? '') };
  const sections = page.sections.filter((section) => !section.onlyWithClickCounting || clickCounting);
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
        {sections.map((section) => (
          <section key={section.id} aria-labelledby={section.id}>
            <h2 id={section.id}>{section.heading}</h2>
            <Prose blocks={fillSettings(section.blocks, settings)} />
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
