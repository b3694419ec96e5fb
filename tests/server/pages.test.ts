import request from 'supertest';
import { about } from '../../shared/content/about';
import { homeMeta } from '../../shared/content/home';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { terms } from '../../shared/content/terms';
import { notFound } from '../../shared/content/errors';
import { assertNoSelector, assertSelector, parseHtml, type HtmlNode } from '../support/html';
import { createTestApp, testSiteUrl } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});

const routes = [
  { path: '/', title: homeMeta.title, description: homeMeta.description },
  { path: '/privacy-policy', title: privacyPolicy.title, description: privacyPolicy.description },
  { path: '/terms-conditions', title: terms.title, description: terms.description },
  { path: '/about-us', title: about.title, description: about.description },
];

const get = async (path: string) => parseHtml((await request(app).get(path).expect(200)).text);

describe.each(routes)('GET $path', ({ path, title, description }) => {
  let html: string;
  let page: HtmlNode;
  beforeAll(async () => {
    const response = await request(app).get(path).expect(200).expect('Content-Type', 'text/html; charset=utf-8');
    html = response.text;
    page = parseHtml(html);
  });

  it('responds 200 with a complete server-rendered document in English', () => {
    // The raw bytes on purpose: a parser supplies a missing doctype and closing tags itself, so only they show a cut document.
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(html).toContain('</footer></body></html>');
    expect(page.text('h1')).not.toBe('');
    assertSelector(page, 'body > footer:last-child', 1);
  });

  it('has its own title and meta description in <head>', () => {
    expect(page.text('head > title')).toBe(title);
    expect(page.attr('head > meta[name="description"]', 'content')).toBe(description);
  });

  it('names its canonical URL on the public origin', () => {
    expect(page.attr('head > link[rel="canonical"]', 'href')).toBe(`${testSiteUrl}${path}`);
  });

  it('carries Open Graph and Twitter tags for link previews', () => {
    const meta = (selector: string) => page.attr(`head > meta${selector}`, 'content');
    expect(meta('[property="og:title"]')).toBe(title);
    expect(meta('[property="og:description"]')).toBe(description);
    expect(meta('[property="og:url"]')).toBe(`${testSiteUrl}${path}`);
    expect(meta('[property="og:type"]')).toBe('website');
    expect(meta('[name="twitter:card"]')).toBe('summary_large_image');
    expect(meta('[name="twitter:title"]')).toBe(title);
  });

  it('inlines the hashed stylesheet and loads the client entry as a module script, with no inline script', () => {
    const style = page.one('style');
    expect(style.attr('data-href')).toMatch(/^\/assets\/main-[A-Z0-9]+\.css$/);
    expect(style.textContent()).not.toBe('');
    const executable = page.all('script').filter((script) => script.attr('type') !== 'application/ld+json');
    expect(executable).toHaveLength(1);
    const [entry] = executable;
    expect(entry!.attr('type')).toBe('module');
    expect(entry!.attr('src')).toMatch(/^\/assets\/main-[A-Z0-9]+\.js$/);
    expect(entry!.attr('data-preload')).toBeTruthy();
    expect(entry!.attr('data-runtime')).toMatch(/^\/assets\/hydrateIsland-[A-Z0-9]+\.js$/);
    expect(entry!.attr('data-navigation')).toMatch(/^\/assets\/navigation-[A-Z0-9]+\.js$/);
    expect(entry!.attr('data-click-endpoint')).toBe('/api/clicks');
    expect(entry!.textContent()).toBe('');
  });

  it('renders the top bar as a TopBar island and the rest as static HTML', () => {
    expect(page.all('[data-island]').map((island) => island.attr('data-island'))).toContain('TopBar');
    const topBar = page.one('div[data-island="TopBar"]');
    expect(topBar.attr('data-island-id')).toBe('i0-');
    expect(topBar.attr('data-island-props')).toBeDefined();
    assertSelector(topBar, ':scope > header.top-bar:first-child', 1);
  });
});

describe('GET /', () => {
  it('marks the top bar items as same-page links', async () => {
    const page = await get('/');
    assertSelector(page, '[href="#faq"]');
    assertNoSelector(page, '[href="/#faq"]');
  });
});

describe('GET /about-us', () => {
  it('points the top bar items at the home page sections', async () => {
    assertSelector(await get('/about-us'), '[href="/#faq"]');
  });
});

describe('GET an unknown path', () => {
  it('responds 404 with the not-found page inside the same chrome and a link home', async () => {
    const { text } = await request(app).get('/no-such-page').expect(404).expect('Content-Type', 'text/html; charset=utf-8');
    const page = parseHtml(text);
    expect(page.text('h1#page-title')).toBe(notFound.heading);
    assertSelector(page, 'header.top-bar', 1);
    assertSelector(page, 'footer.site-footer', 1);
    assertSelector(page, '[href="/"]');
    expect(page.attr('head > meta[name="robots"]', 'content')).toBe('noindex');
  });

  it('does not treat paths below a page as that page', async () => {
    await request(app).get('/about-us/team').expect(404);
    await request(app).get('/assets/').expect(404);
  });
});
