import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { generatedImages } from '../../shared/content/images.generated';
import { readManifest } from '../../server/manifest';
import { distDir, publicDir } from '../../server/paths';
import { createTestApp } from '../support/testApp';

/**
 * Size budgets, checked by reading sizes (deterministic; timings live in `npm run bench`):
 * the home page's HTML fits the first round trip, and CSS and JavaScript stay small.
 */
const budgets = { homeHtml: 14 * 1024, css: 12 * 1024, homeScripts: 75 * 1024 };

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
    const { text } = await request(app).get('/').expect(200);
    const [, entry, preload] = /<script type="module" src="([^"]+)" data-preload="([^"]*)"[^>]*>/.exec(text)!;
    const scripts = new Set([entry!, ...preload!.split(' ')]);
    // The entry's own static imports load too.
    manifest.entry.imports.forEach((file) => scripts.add(file));
    let total = 0;
    for (const file of scripts) total += await brotliBytes(file);
    expect(scripts.size).toBeGreaterThanOrEqual(3);
    expect(total).toBeLessThanOrEqual(budgets.homeScripts);
  });

  it('loads no render-blocking script: the only script is a deferred module', async () => {
    const { text } = await request(app).get('/').expect(200);
    const executable = [...text.matchAll(/<script[^>]*>/g)].map((match) => match[0]).filter((tag) => !tag.includes('application/ld+json'));
    expect(executable).toEqual([
      expect.stringMatching(/^<script type="module" src="\/assets\/main-[A-Z0-9]+\.js" data-preload="[^"]*" data-runtime="[^"]+" data-click-endpoint="\/api\/clicks">$/),
    ]);
  });

  it('ships the entry as one file with no static import, so nothing more is fetched before the page settles', async () => {
    expect(manifest.entry.imports).toEqual([]);
    const source = (await request(app).get(manifest.entry.file).set('Accept-Encoding', 'identity').expect(200)).text;
    expect(source).not.toMatch(/(^|[;}])\s*import\s*[{*\w]/);
    expect(source).not.toMatch(/\bfrom\s*["']/);
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
