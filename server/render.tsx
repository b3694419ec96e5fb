import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { HelmetProvider } from 'react-helmet-async';
import { clickEndpointAttribute } from '../shared/clickBeacon';
import { islandAttributes } from '../shared/islands/attributes';
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
  /** Island names on this page: their chunks are preloaded, and a page with none ships no script. */
  islandNames: readonly string[];
  clickEndpoint: string | undefined;
  children: ReactElement;
}

function Document({ manifest, styles, islandNames, clickEndpoint, children }: DocumentProps) {
  const scripts = islandNames.length > 0;
  const preloads = scripts ? modulePreloads(manifest, islandNames) : [];
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
        {scripts && (
          <script
            type="module"
            src={manifest.entry.file}
            {...{
              [islandAttributes.preload]: preloads.join(' '),
              [islandAttributes.runtime]: `${manifest.runtimeModules.hydrator} ${manifest.runtimeModules.navigation}`,
              [clickEndpointAttribute]: clickEndpoint,
            }}
          />
        )}
      </head>
      <body>{children}</body>
    </html>
  );
}

/**
 * Every chunk the page will import once hydration starts: the runtime's and its islands'. The entry
 * preloads them together after the first paint (not in <head>, where they would compete with it).
 */
function modulePreloads(manifest: AssetManifest, islandNames: readonly string[]): string[] {
  const files = new Set([...manifest.entry.imports, ...manifest.runtime.imports, manifest.runtime.file]);
  for (const name of new Set(islandNames)) {
    const island = manifest.islands[name];
    if (!island) throw new Error(`The build has no chunk for the ${name} island: run "npm run build"`);
    files.add(island.file);
    island.imports.forEach((file) => files.add(file));
  }
  return [...files];
}

function renderTree(page: ReactElement, context: PageContextValue, { manifest, styles }: PageAssets, islandNames: readonly string[]) {
  const collector = new IslandCollector();
  const html = renderToString(
    <HelmetProvider>
      <PageContext value={context}>
        <IslandContext value={collector}>
          <Document manifest={manifest} styles={styles} islandNames={islandNames} clickEndpoint={context.clickCounting?.endpoint}>
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
 * Renders a page to a complete HTML document. The first pass learns which islands the page holds,
 * so the second can list their chunks for preloading; pages are rendered once at start-up, so the
 * extra pass costs nothing per request.
 */
export function renderPage(page: ReactElement, context: PageContextValue, assets: PageAssets): string {
  const { islands: found } = renderTree(page, context, assets, []);
  const { html, islands } = renderTree(page, context, assets, found.map((island) => island.name));
  return `<!DOCTYPE html>${fillIslandSlots(html, islands)}`;
}
