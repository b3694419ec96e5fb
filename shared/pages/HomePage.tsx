import { Layout } from '../components/Layout';
import { PageHead } from '../components/PageHead';
import { hero, homeMeta } from '../content/home';

/** The home page: one long page of sections (built out in full by the home page work). */
export function HomePage() {
  return (
    <Layout onHome>
      <PageHead title={homeMeta.title} description={homeMeta.description} path="/" />
      <section id="hero" className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{hero.heading}</h1>
        <p>{hero.lead}</p>
      </section>
    </Layout>
  );
}
