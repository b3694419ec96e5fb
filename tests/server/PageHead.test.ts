import request from 'supertest';
import { pagePaths } from '../../shared/routes';
import { assertSelector, parseHtml } from '../support/html';
import { createTestApp, testSiteUrl } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});

/** Reads <head> as a link-preview bot does: meta tags by property or name, from the HTML as served. */
function metaTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const meta of parseHtml(html).all('head meta[property], head meta[name]')) tags.set((meta.attr('property') ?? meta.attr('name'))!, meta.attr('content') ?? '');
  return tags;
}

describe('link-preview tags', () => {
  const heads = async () => Promise.all(pagePaths.map(async (path) => ({ path, tags: metaTags((await request(app).get(path)).text) })));

  it('give every route a unique title and description', async () => {
    const all = await heads();
    expect(new Set(all.map(({ tags }) => tags.get('og:title'))).size).toBe(pagePaths.length);
    expect(new Set(all.map(({ tags }) => tags.get('description'))).size).toBe(pagePaths.length);
  });

  it.each(pagePaths)('describe %s fully, with absolute URLs from SITE_URL', async (path) => {
    const tags = metaTags((await request(app).get(path)).text);
    expect(tags.get('og:url')).toBe(`${testSiteUrl}${path}`);
    expect(tags.get('og:type')).toBe('website');
    expect(tags.get('og:image')).toBe(`${testSiteUrl}/images/og-image.png`);
    expect(tags.get('og:image:width')).toBe('1200');
    expect(tags.get('og:image:height')).toBe('630');
    expect(tags.get('og:image:alt')).toBeTruthy();
    expect(tags.get('twitter:card')).toBe('summary_large_image');
    expect(tags.get('twitter:image')).toBe(`${testSiteUrl}/images/og-image.png`);
    for (const key of ['og:title', 'og:description', 'twitter:title', 'twitter:description']) expect(tags.get(key)).toBeTruthy();
  });

  it('point at a 1200x630 image the site serves', async () => {
    await request(app).get('/images/og-image.png').expect(200).expect('Content-Type', 'image/png');
  });
});

describe('icons', () => {
  it('link an SVG favicon with a PNG fallback, an apple-touch-icon and a theme colour', async () => {
    const page = parseHtml((await request(app).get('/about-us').expect(200)).text);
    expect(page.attr('head link[rel="icon"][href="/favicon.svg"]', 'type')).toBe('image/svg+xml');
    const png = page.one('head link[rel="icon"][href="/favicon-32.png"]');
    expect([png.attr('type'), png.attr('sizes')]).toEqual(['image/png', '32x32']);
    assertSelector(page, 'head link[rel="apple-touch-icon"][href="/apple-touch-icon.png"]', 1);
    expect(page.attr('head meta[name="theme-color"]', 'content')).toBe('#0b2545');
    for (const file of ['/favicon.svg', '/favicon-32.png', '/apple-touch-icon.png', '/favicon.ico']) await request(app).get(file).expect(200);
  });
});
