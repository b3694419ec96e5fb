import type { ReactElement } from 'react';
import { badRequest, serverError } from '../shared/content/errors';
import { ErrorPage, NotFoundPage } from '../shared/pages/NotFoundPage';
import { pageTable } from '../shared/pages/pageTable';
import { paths, type PagePath } from '../shared/routes';
import { HomePage } from '../shared/pages/HomePage';
import { isRunning, type Experiment } from '../shared/experiments/experiment';
import { homeVariants, settledHomeCopy } from './experiments/homeVariants';
import type { PageContextValue } from '../shared/pageContext';
import { renderPage, type PageAssets } from './render';
import { createStaticEntry, type StaticEntry } from './staticEntry';

/** Browsers revalidate after a minute; a CDN in front may keep a page five minutes. */
export const pageCache = 'public, max-age=60, s-maxage=300';
/**
 * The home page while an experiment runs: each visitor is shown their own variant (server/experiments/),
 * so no shared cache may keep one visitor's page for another; the browser may, for the same minute.
 */
export const experimentPageCache = 'private, max-age=60';
/** Error pages: a short shared cache absorbs scans of made-up paths without pinning mistakes. */
const errorPageCache = 'public, max-age=60';

export interface RenderedPages {
  pages: Map<string, StaticEntry>;
  notFound: StaticEntry;
  badRequest: StaticEntry;
  serverError: StaticEntry;
  /** The home page of each combination of the running experiments' variants, by its key (formatShown); empty when none runs. */
  homeVariants: Map<string, StaticEntry>;
}

/**
 * Every page depends only on its route, the configuration and the experiments' variants, so each is
 * rendered and compressed once here and then served from memory: the home page once outside the
 * experiments (for bots, prefetches and visitors who opt out) and once per combination of variants.
 * Experiments need the visitor hash, so they run only with statistics on.
 */
export function renderAllPages(baseContext: PageContextValue, assets: PageAssets, experiments: readonly Experiment[] = []): RenderedPages {
  const running = baseContext.clickCounting !== undefined && experiments.some(isRunning);
  const context: PageContextValue = { ...baseContext, homeCopy: settledHomeCopy(experiments), experimentsRunning: running };
  const entry = (page: ReactElement, cacheControl: string, pageContext = context) =>
    createStaticEntry(Buffer.from(renderPage(page, pageContext, assets)), { contentType: 'text/html; charset=utf-8', cacheControl });
  const pages = new Map<string, StaticEntry>();
  for (const [path, page] of Object.entries(pageTable) as [PagePath, () => ReactElement][]) {
    pages.set(path, entry(page(), running && path === paths.home ? experimentPageCache : pageCache));
  }
  const variants = running ? homeVariants(experiments) : [];
  return {
    pages,
    homeVariants: new Map(variants.map(({ key, copy, shown }) => [key, entry(<HomePage />, experimentPageCache, { ...context, homeCopy: copy, shown })])),
    notFound: entry(<NotFoundPage />, errorPageCache),
    badRequest: entry(<ErrorPage copy={badRequest} />, 'no-store'),
    serverError: entry(<ErrorPage copy={serverError} />, 'no-store'),
  };
}
