import { Layout } from '../components/Layout';
import { PageHead } from '../components/PageHead';
import { Prose, type ProseSettings } from '../components/Prose';
import { site } from '../content/site';
import type { ContentCondition, ProsePage as ProsePageContent } from '../content/types';
import { reachAttribute } from '../leaveBeacon';
import { usePageContext } from '../pageContext';

/** A long-form text page (privacy policy, terms, about), set for reading. */
export function ProsePage({ page }: { page: ProsePageContent }) {
  const { clickCounting, contactEmail, experimentsRunning } = usePageContext();
  const conditions: Record<ContentCondition, boolean> = { clickCounting: Boolean(clickCounting), noClickCounting: !clickCounting, experiments: Boolean(experimentsRunning) };
  const shown = ({ when }: { when?: ContentCondition }) => when === undefined || conditions[when];
  // Copy names the operator's settings, so the text always matches the server.
  const settings: ProseSettings = {
    clickRetentionDays: String(clickCounting?.retentionDays ?? ''),
    contactEmail: contactEmail ? <a href={`mailto:${contactEmail}`}>{contactEmail}</a> : site.contactNotSet,
  };
  const backToHome = (className: string) => (
    <a className={className} href={site.backToHome.href}>
      {site.backToHome.label}
    </a>
  );
  return (
    <Layout>
      <PageHead title={page.title} description={page.description} path={page.path} />
      <article className="prose-page">
        {backToHome('back-link')}
        <h1 id="page-title">{page.heading}</h1>
        {page.lastUpdated && <p className="prose-page__updated">{site.lastUpdatedLabel.replace('{date}', page.lastUpdated)}</p>}
        <Prose blocks={page.intro.filter(shown)} settings={settings} />
        {page.sections.filter(shown).map((section) => (
          <section key={section.id} aria-labelledby={section.id} {...{ [reachAttribute]: section.id }}>
            <h2 id={section.id}>{section.heading}</h2>
            <Prose blocks={section.blocks.filter(shown)} settings={settings} />
          </section>
        ))}
        <p>{backToHome('back-link back-link--end')}</p>
      </article>
    </Layout>
  );
}
