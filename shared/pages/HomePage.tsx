import { Layout } from '../components/Layout';
import { PageHead } from '../components/PageHead';
import { StructuredData } from '../components/StructuredData';
import { Benefits } from '../components/home/Benefits';
import { Bonus } from '../components/home/Bonus';
import { CheckAuctions } from '../components/home/CheckAuctions';
import { Faq } from '../components/home/Faq';
import { Hero } from '../components/home/Hero';
import { HowItWorks } from '../components/home/HowItWorks';
import { WhatIs } from '../components/home/WhatIs';
import { homeMeta } from '../content/home';
import { paths } from '../routes';

/** The home page: one long page of sections, in the order of the spec. */
export function HomePage() {
  return (
    <Layout onHome>
      <PageHead title={homeMeta.title} description={homeMeta.description} path={paths.home} />
      <StructuredData />
      <Hero />
      <WhatIs />
      <HowItWorks />
      <Benefits />
      <Faq />
      <CheckAuctions />
      <Bonus />
    </Layout>
  );
}
