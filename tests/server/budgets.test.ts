import path from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import sharp from 'sharp';
import request from 'supertest';
import { generatedImages } from '../../shared/content/images.generated';
import { readManifest } from '../../server/manifest';
import { homeHtmlBudget } from '../../server/experiments/experimentPageBudgets';
import { distDir, publicDir } from '../../server/lib/paths';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { createTestApp } from '../support/testApp';

/**
 * Size budgets, checked by reading sizes (deterministic; timings live in `npm run bench`):
 * the home page's HTML fits the first round trip, and CSS and JavaScript stay small. The first tap on a
 * slow phone waits for what the browser does before it (`npm run bench -- interactions`): styling and
 * laying out the elements that do not wait, applying the stylesheet in the head, evaluating the entry.
 * Those are counted here: elements before the first section that waits, the head's stylesheet and the
 * entry as the browser parses them (uncompressed).
 */
const budgets = {
  homeHtml: homeHtmlBudget,
  css: 12 * 1024,
  homeScripts: 75 * 1024,
  scriptsBeforeInteraction: 6 * 1024,
  elementsBeforeWaiting: 60,
  firstScreenCss: 14 * 1024,
  entrySource: 10 * 1024,
};
const staticPages = ['/privacy-policy', '/terms-conditions', '/about-us'];

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});
const manifest = readManifest(distDir);

/**
 * The bytes sent for a URL to a client that takes brotli: the Content-Length of what goes over the
 * wire (files under 256 bytes are sent as they are, since compressing them saves nothing).
 */
async function brotliBytes(url: string): Promise<number> {
  const response = await request(app).head(url).set('Accept-Encoding', 'br');
  expect(response.status).toBe(200);
  const bytes = Number(response.headers['content-length']);
  if (response.headers['content-encoding'] !== 'br') expect(bytes).toBeLessThan(256);
  return bytes;
}

/**
 * What a script costs over the wire as Lighthouse counts it: the response's status line and headers
 * (as HTTP/1.1 writes them) and its brotli body.
 */
async function transferredBytes(url: string): Promise<number> {
  const response = await request(app).head(url).set('Accept-Encoding', 'br');
  expect(response.status).toBe(200);
  let headers = 'HTTP/1.1 200 OK\r\n'.length + '\r\n'.length;
  for (const [name, value] of Object.entries(response.headers as Record<string, string>)) headers += `${name}: ${value}\r\n`.length;
  return headers + (await brotliBytes(url));
}

const list = (value: string | undefined) => (value ?? '').split(' ').filter(Boolean);

async function page(path: string): Promise<CheerioAPI> {
  return load((await request(app).get(path).expect(200)).text);
}

/** Every script a page can load: the entry and the navigation module, the runtime and every island's chunks. */
function allScripts($: CheerioAPI): Set<string> {
  const entry = $(`script[${clientAttributes.runtime}]`);
  const scripts = new Set([entry.attr('src')!, entry.attr(clientAttributes.navigation)!, entry.attr(clientAttributes.runtime)!, ...list(entry.attr(clientAttributes.preload))]);
  $(`[${clientAttributes.island}]`).each((_index, island) => {
    [$(island).attr(clientAttributes.islandSrc)!, ...list($(island).attr(clientAttributes.islandPreload))].forEach((file) => scripts.add(file));
  });
  return scripts;
}

/**
 * The scripts a page loads while the visitor does nothing: the entry and the navigation module, and for
 * each island that does not wait for an interaction, the runtime and the island's chunks (an island
 * waiting to be visible counts too, as it may be in view from the start).
 */
function scriptsBeforeInteraction($: CheerioAPI): Set<string> {
  const entry = $(`script[${clientAttributes.runtime}]`);
  const scripts = new Set([entry.attr('src')!, entry.attr(clientAttributes.navigation)!]);
  $(`[${clientAttributes.island}]`).each((_index, island) => {
    if (list($(island).attr(clientAttributes.islandLoad)).includes('interaction')) return;
    [entry.attr(clientAttributes.runtime)!, ...list(entry.attr(clientAttributes.preload)), $(island).attr(clientAttributes.islandSrc)!, ...list($(island).attr(clientAttributes.islandPreload))].forEach((file) =>
      scripts.add(file),
    );
  });
  return scripts;
}

describe('performance budgets', () => {
  it(`keeps the home page HTML within ${budgets.homeHtml / 1024} KB compressed`, async () => {
    expect(await brotliBytes('/')).toBeLessThanOrEqual(budgets.homeHtml);
  });

  it(`keeps the CSS within ${budgets.css / 1024} KB compressed`, async () => {
    let total = 0;
    for (const file of manifest.styles) total += await brotliBytes(file);
    expect(total).toBeLessThanOrEqual(budgets.css);
  });

  it(`keeps every script the home page loads within ${budgets.homeScripts / 1024} KB compressed together`, async () => {
    const scripts = allScripts(await page('/'));
    // The entry's own static imports load too.
    manifest.entry.imports.forEach((file) => scripts.add(file));
    let total = 0;
    for (const file of scripts) total += await brotliBytes(file);
    expect(scripts.size).toBeGreaterThanOrEqual(5);
    expect(total).toBeLessThanOrEqual(budgets.homeScripts);
  });

  it.each(staticPages)(`loads at most ${budgets.scriptsBeforeInteraction / 1024} KB of script on %s before the visitor interacts (transferred: headers and brotli bodies), and no React`, async (path) => {
    const scripts = scriptsBeforeInteraction(await page(path));
    expect([...scripts]).toEqual([manifest.entry.file, manifest.runtimeModules.navigation]);
    let total = 0;
    for (const file of scripts) total += await transferredBytes(file);
    expect(total).toBeLessThanOrEqual(budgets.scriptsBeforeInteraction);
  });

  it('loads no render-blocking script: the only script is a deferred module', async () => {
    const $ = await page('/');
    const executable = $('script').filter((_index, script) => $(script).attr('type') !== 'application/ld+json');
    expect(executable).toHaveLength(1);
    expect(executable.attr('type')).toBe('module');
    expect(executable.attr('src')).toMatch(/^\/assets\/main-[A-Z0-9]+\.js$/);
    expect(executable.attr(clientAttributes.clickEndpoint)).toBe('/api/clicks');
  });

  it.each([
    ['the entry', () => manifest.entry],
    ['the navigation module', () => ({ file: manifest.runtimeModules.navigation, imports: [] })],
  ])('ships %s as one file with no static import, so nothing more is fetched before the page settles', async (_name, asset) => {
    const { file, imports } = asset();
    expect(imports).toEqual([]);
    const source = (await request(app).get(file).set('Accept-Encoding', 'identity').expect(200)).text;
    expect(source).not.toMatch(/(^|[;}])\s*import\s*[{*\w]/);
    expect(source).not.toMatch(/\bfrom\s*["']/);
  });
});

describe('what stands before a first tap on a slow phone', () => {
  /** The body's elements in document order up to the first element that waits to be laid out. */
  function elementsBeforeWaiting($: CheerioAPI): number {
    let count = 0;
    for (const element of $('body *').toArray()) {
      if ($(element).is(`[${clientAttributes.layoutWaits}]`)) return count;
      count++;
    }
    throw new Error('no element of the page waits to be laid out');
  }

  it(`lays out at most ${budgets.elementsBeforeWaiting} of the home page's elements before its first section that waits, and every section below the hero waits`, async () => {
    const $ = await page('/');
    const before = elementsBeforeWaiting($);
    expect(before).toBeGreaterThan(10);
    expect(before).toBeLessThanOrEqual(budgets.elementsBeforeWaiting);
    expect($('.section').toArray().map((section) => [section.attribs.id, section.attribs[clientAttributes.layoutWaits]])).toEqual(
      ['what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus'].map((id) => [id, '']),
    );
    expect($(`.hero[${clientAttributes.layoutWaits}], .top-bar[${clientAttributes.layoutWaits}]`)).toHaveLength(0);
  });

  it(`keeps the stylesheet in the head, which styles the first screen, within ${budgets.firstScreenCss / 1024} KB as parsed`, async () => {
    const $ = await page('/');
    const sheets = $('head style').toArray().map((style) => Buffer.byteLength($(style).text()));
    expect(sheets.length).toBeGreaterThanOrEqual(1);
    expect(sheets.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(budgets.firstScreenCss);
  });

  it(`keeps the entry, the only script evaluated before a first tap at first paint, within ${budgets.entrySource / 1024} KB as parsed`, async () => {
    const $ = await page('/');
    const entry = $(`script[${clientAttributes.runtime}]`).attr('src')!;
    expect(entry).toBe(manifest.entry.file);
    const source = (await request(app).get(entry).set('Accept-Encoding', 'identity').expect(200)).text;
    expect(Buffer.byteLength(source)).toBeLessThanOrEqual(budgets.entrySource);
  });
});

describe('image sizes', () => {
  const displayWidths: Record<string, number> = { hero: 560, 'check-auctions': 520, ebook: 150, review: 560 };

  it.each(Object.entries(generatedImages))('%s has files of exactly the declared widths, none wider than twice its display width', async (name, image) => {
    const display = displayWidths[name.replace(/-\d$/, '')]!;
    for (const variant of [...image.avif, ...image.webp, ...image.jpeg]) {
      const metadata = await sharp(path.join(publicDir, variant.src)).metadata();
      expect(metadata.width).toBe(variant.width);
      expect(metadata.height).toBe(Math.round((variant.width * image.height) / image.width));
      expect(variant.width).toBeLessThanOrEqual(display * 2);
    }
  });
});
