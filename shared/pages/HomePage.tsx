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
import { useHomeCopy } from '../components/home/useHomeCopy';
import { paths } from '../routes';

/** The home page: one long page of sections, in the order of the spec. */
export function HomePage() {
  const { meta } = useHomeCopy();
  return (
    <Layout onHome>
      <PageHead title={meta.title} description={meta.description} path={paths.home} />
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
