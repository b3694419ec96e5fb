import request from 'supertest';
import { about } from '../../shared/content/about';
import { homeMeta } from '../../shared/content/home';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { terms } from '../../shared/content/terms';
import { notFound } from '../../shared/content/errors';
import { createTestApp, testSiteUrl } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});

/** The text between the first <tag …> and its closing tag, or the attribute value of a matching tag. */
function headTag(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

function decodeEntities(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const routes = [
  { path: '/', title: homeMeta.title, description: homeMeta.description, heading: /<h1[^>]*>/ },
  { path: '/privacy-policy', title: privacyPolicy.title, description: privacyPolicy.description, heading: /<h1[^>]*>/ },
  { path: '/terms-conditions', title: terms.title, description: terms.description, heading: /<h1[^>]*>/ },
  { path: '/about-us', title: about.title, description: about.description, heading: /<h1[^>]*>/ },
];

describe.each(routes)('GET $path', ({ path, title, description }) => {
  let html: string;
  beforeAll(async () => {
    const response = await request(app).get(path).expect(200).expect('Content-Type', 'text/html; charset=utf-8');
    html = response.text;
  });

  it('responds 200 with a complete server-rendered document in English', () => {
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
    expect(html).toContain('</footer></body></html>');
  });

  it('has its own title and meta description in <head>', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(decodeEntities(headTag(head, /<title>([^<]*)<\/title>/) ?? '')).toBe(title);
    expect(decodeEntities(headTag(head, /<meta name="description" content="([^"]*)"/) ?? '')).toBe(description);
  });

  it('names its canonical URL on the public origin', () => {
    expect(html).toContain(`<link rel="canonical" href="${testSiteUrl}${path}"/>`);
  });

  it('carries Open Graph and Twitter tags for link previews', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(decodeEntities(headTag(head, /<meta property="og:title" content="([^"]*)"/) ?? '')).toBe(title);
    expect(decodeEntities(headTag(head, /<meta property="og:description" content="([^"]*)"/) ?? '')).toBe(description);
    expect(headTag(head, /<meta property="og:url" content="([^"]*)"/)).toBe(`${testSiteUrl}${path}`);
    expect(headTag(head, /<meta property="og:type" content="([^"]*)"/)).toBe('website');
    expect(headTag(head, /<meta name="twitter:card" content="([^"]*)"/)).toBe('summary_large_image');
    expect(decodeEntities(headTag(head, /<meta name="twitter:title" content="([^"]*)"/) ?? '')).toBe(title);
  });

  it('inlines the hashed stylesheet and loads the client entry as a module script, with no inline script', () => {
    expect(html).toMatch(/<style data-href="\/assets\/main-[A-Z0-9]+\.css">[^<]+<\/style>/);
    expect(html).toMatch(/<script type="module" src="\/assets\/main-[A-Z0-9]+\.js" data-preload="[^"]+" data-runtime="\/assets\/islandHydrator-[A-Z0-9]+\.js \/assets\/navigation-[A-Z0-9]+\.js" data-click-endpoint="\/api\/clicks"><\/script>/);
    const executable = [...html.matchAll(/<script[^>]*>/g)].map((match) => match[0]).filter((tag) => !tag.includes('type="application/ld+json"'));
    expect(executable).toHaveLength(1);
  });

  it('renders the top bar as a TopBar island and the rest as static HTML', () => {
    const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((match) => match[1]);
    expect(islands).toContain('TopBar');
    expect(html).toMatch(/<div data-island="TopBar" data-island-id="i0-" data-island-props="[^"]*"><header class="top-bar">/);
  });
});

describe('GET /', () => {
  it('marks the top bar items as same-page links', async () => {
    const { text } = await request(app).get('/').expect(200);
    expect(text).toContain('href="#faq"');
    expect(text).not.toContain('href="/#faq"');
  });
});

describe('GET /about-us', () => {
  it('points the top bar items at the home page sections', async () => {
    const { text } = await request(app).get('/about-us').expect(200);
    expect(text).toContain('href="/#faq"');
  });
});

describe('GET an unknown path', () => {
  it('responds 404 with the not-found page inside the same chrome and a link home', async () => {
    const { text } = await request(app).get('/no-such-page').expect(404).expect('Content-Type', 'text/html; charset=utf-8');
    expect(text).toContain(`<h1 id="page-title">${notFound.heading}</h1>`);
    expect(text).toContain('<header class="top-bar">');
    expect(text).toContain('<footer class="site-footer">');
    expect(text).toContain('href="/"');
    expect(text).toContain('<meta name="robots" content="noindex"/>');
  });

  it('does not treat paths below a page as that page', async () => {
    await request(app).get('/about-us/team').expect(404);
    await request(app).get('/assets/').expect(404);
  });
});

describe('GET /healthz', () => {
  it('answers 200 for load balancers without caching', async () => {
    const response = await request(app).get('/healthz').expect(200).expect('Cache-Control', 'no-store');
    expect(response.text).toBe('ok\n');
  });
});
