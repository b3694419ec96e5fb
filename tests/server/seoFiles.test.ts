import request from 'supertest';
import { pagePaths } from '../../shared/routes';
import { parseXml } from '../support/html';
import { createTestApp, testSiteUrl } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});

describe('GET /robots.txt', () => {
  it('allows crawling and names the sitemap by its absolute URL', async () => {
    const { text } = await request(app).get('/robots.txt').expect(200).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(text).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${testSiteUrl}/sitemap.xml\n`);
  });
});

describe('GET /sitemap.xml', () => {
  it('lists the four routes, and only them, as absolute URLs', async () => {
    const { text } = await request(app).get('/sitemap.xml').expect(200).expect('Content-Type', 'application/xml; charset=utf-8');
    const locations = parseXml(text)
      .all('urlset > url > loc')
      .map((location) => location.text());
    expect(locations).toEqual(pagePaths.map((path) => `${testSiteUrl}${path}`));
  });
});
