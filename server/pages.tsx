import type { ReactElement } from 'react';
import { badRequest, serverError } from '../shared/content/errors';
import { ErrorPage, NotFoundPage } from '../shared/pages/NotFoundPage';
import { pageTable } from '../shared/pages/pageTable';
import type { PagePath } from '../shared/routes';
import type { PageContextValue } from '../shared/pageContext';
import { renderPage, type PageAssets } from './render';
import { createStaticEntry, type StaticEntry } from './staticEntry';

/** Browsers revalidate after a minute; a CDN in front may keep a page five minutes. */
export const pageCache = 'public, max-age=60, s-maxage=300';
/** Error pages: a short shared cache absorbs scans of made-up paths without pinning mistakes. */
const errorPageCache = 'public, max-age=60';

export interface RenderedPages {
  pages: Map<string, StaticEntry>;
  notFound: StaticEntry;
  badRequest: StaticEntry;
  serverError: StaticEntry;
}

/**
 * Every page depends only on its route and the configuration, so each is rendered and compressed
 * once here and then served from memory.
 */
export function renderAllPages(context: PageContextValue, assets: PageAssets): RenderedPages {
  const entry = (page: ReactElement, cacheControl: string) =>
    createStaticEntry(Buffer.from(renderPage(page, context, assets)), { contentType: 'text/html; charset=utf-8', cacheControl });
  const pages = new Map<string, StaticEntry>();
  for (const [path, page] of Object.entries(pageTable) as [PagePath, () => ReactElement][]) {
    pages.set(path, entry(page(), pageCache));
  }
  return {
    pages,
    notFound: entry(<NotFoundPage />, errorPageCache),
    badRequest: entry(<ErrorPage copy={badRequest} />, 'no-store'),
    serverError: entry(<ErrorPage copy={serverError} />, 'no-store'),
  };
}
