import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { HelmetProvider } from 'react-helmet-async';
import { bodyAttribute, formatShown } from '../shared/experiments/experiment';
import { clientAttributes } from '../shared/islands/clientAttributes';
import { IslandCollector, IslandContext, islandSlotPattern, type IslandRecord } from '../shared/islands/Island';
import { PageContext, type PageContextValue } from '../shared/pageContext';
import type { InlineStyle } from './inlineStyles';
import type { AssetManifest } from './manifest';

/** The theme colour of the browser UI on phones: the top bar's navy. */
const themeColor = '#0b2545';

/** What a page render needs from the build. */
export interface PageAssets {
  manifest: AssetManifest;
  styles: InlineStyle[];
}

interface DocumentProps {
  manifest: AssetManifest;
  styles: InlineStyle[];
  /** Whether the page holds islands: a page without any, and without click counting, ships no script. */
  hasIslands: boolean;
  clickCounting: PageContextValue['clickCounting'];
  /** The experiments' variants the page shows, formatted (shared/experiments/experiment.ts); '' for none. */
  variants: string;
  children: ReactElement;
}

function Document({ manifest, styles, hasIslands, clickCounting, variants, children }: DocumentProps) {
  const script = hasIslands || clickCounting !== undefined;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={themeColor} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        {styles.map(({ href, css }) => (
          <style key={href} data-href={href} dangerouslySetInnerHTML={{ __html: css }} />
        ))}
        {script && (
          <script
            type="module"
            src={manifest.entry.file}
            {...{
              [clientAttributes.runtime]: manifest.runtime.file,
              [clientAttributes.preload]: manifest.runtime.imports.join(' '),
              [clientAttributes.navigation]: manifest.runtimeModules.navigation,
              [clientAttributes.clickEndpoint]: clickCounting?.endpoint,
              [clientAttributes.viewEndpoint]: clickCounting?.viewEndpoint,
              [clientAttributes.leaveEndpoint]: clickCounting?.leaveEndpoint,
              [clientAttributes.subIdParam]: clickCounting?.subIdParam,
            }}
          />
        )}
      </head>
      <body {...{ [bodyAttribute]: variants || undefined }}>{children}</body>
    </html>
  );
}

function renderTree(page: ReactElement, context: PageContextValue, { manifest, styles }: PageAssets, hasIslands: boolean) {
  const collector = new IslandCollector(manifest.islands);
  const html = renderToString(
    <HelmetProvider>
      <PageContext value={context}>
        <IslandContext value={collector}>
          <Document manifest={manifest} styles={styles} hasIslands={hasIslands} clickCounting={context.clickCounting} variants={formatShown(context.shown ?? [])}>
            {page}
          </Document>
        </IslandContext>
      </PageContext>
    </HelmetProvider>,
  );
  return { html, islands: collector.islands };
}

/** Each island as its own root, with the identifierPrefix the client will hydrate it with. */
function fillIslandSlots(html: string, islands: readonly IslandRecord[]): string {
  return html.replace(islandSlotPattern, (_slot, index: string) => {
    const island = islands[Number(index)];
    if (!island) throw new Error(`Island slot ${index} has no island`);
    return renderToString(island.element, { identifierPrefix: island.identifierPrefix });
  });
}

/**
 * Renders a page to a complete HTML document. The head comes before the islands in the render, so a
 * first pass learns whether the page holds any (and so needs the entry script even without click
 * counting); pages are rendered once at start-up, so the extra pass costs nothing per request.
 */
export function renderPage(page: ReactElement, context: PageContextValue, assets: PageAssets): string {
  const first = renderTree(page, context, assets, false);
  const { html, islands } = first.islands.length > 0 ? renderTree(page, context, assets, true) : first;
  return `<!DOCTYPE html>${fillIslandSlots(html, islands)}`;
}
