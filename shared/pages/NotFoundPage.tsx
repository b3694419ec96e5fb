import { Layout } from '../components/Layout';
import { PageHead } from '../components/PageHead';
import { notFound, type ErrorPageCopy } from '../content/errors';
import { paths } from '../routes';

/** The page for any path the site does not have, and for requests it cannot read. */
export function NotFoundPage() {
  return <ErrorPage copy={notFound} />;
}

export function ErrorPage({ copy }: { copy: ErrorPageCopy }) {
  return (
    <Layout>
      <PageHead title={copy.title} description={copy.text} noindex />
      <div className="error-page">
        <h1 id="page-title">{copy.heading}</h1>
        <p>{copy.text}</p>
        <p>
          <a className="button button--primary" href={paths.home}>
            {copy.homeLabel}
          </a>
        </p>
      </div>
    </Layout>
  );
}
