import request from 'supertest';
import { assertNoSelector, assertSelector, parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});

async function page(path: string) {
  const document = parseHtml((await request(app).get(path).expect(200)).text);
  return { document, text: document.text('main') };
}

describe.each(['/privacy-policy', '/terms-conditions', '/about-us'])('GET %s', (path) => {
  it('has a Back to Home link to /, the shared top bar and footer', async () => {
    const { document } = await page(path);
    const backLink = document.all('a.back-link')[0];
    expect(backLink?.attr('href')).toBe('/');
    expect(backLink?.text()).toBe('Back to Home');
    assertSelector(document, 'header.top-bar', 1);
    assertSelector(document, 'footer.site-footer', 1);
  });

  it('has one h1 and section headings a reader can scan', async () => {
    const { document } = await page(path);
    assertSelector(document, 'h1', 1);
    expect(document.all('h2').length).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /privacy-policy', () => {
  it('is marked last updated October 2025', async () => {
    expect((await page('/privacy-policy')).text).toContain('Last updated: October 2025');
  });

  it('says truthfully what the site does and does not collect', async () => {
    const { text } = await page('/privacy-policy');
    expect(text).toMatch(/no cookies/i);
    expect(text).toMatch(/no (user )?accounts/i);
    expect(text).toMatch(/no forms/i);
    expect(text).toMatch(/third-party scripts/i);
    expect(text).toMatch(/14 days/);
    expect(text).toMatch(/IP address/);
    expect(text).toMatch(/own privacy policy/i);
  });
});

describe('GET /terms-conditions', () => {
  it('is marked last updated October 2025', async () => {
    expect((await page('/terms-conditions')).text).toContain('Last updated: October 2025');
  });

  it('covers independence, no warranty, the commission, what the site is not, and the 60-day window', async () => {
    const { text } = await page('/terms-conditions');
    expect(text).toMatch(/independent/i);
    expect(text).toMatch(/warrant/i);
    expect(text).toMatch(/commission/i);
    expect(text).toMatch(/not an auction, a dealer or a payment handler|not an auction, dealer or payment handler/i);
    expect(text).toMatch(/60 days|60-day/);
    expect(text).toMatch(/official platform/i);
  });
});

describe('GET /about-us', () => {
  it('has the sections Who We Are and Our Approach and says it is an independent affiliate guide', async () => {
    const { document, text } = await page('/about-us');
    expect(document.text('h2#who-we-are')).toBe('Who We Are');
    expect(document.text('h2#our-approach')).toBe('Our Approach');
    expect(text).toMatch(/independent/i);
    expect(text).toMatch(/commission/i);
  });
});

describe('the privacy policy on click counting', () => {
  it('says what is recorded, for how long (from CLICKS_RETENTION_DAYS) and how to turn it off', async () => {
    const { text } = await request(await createTestApp({ CLICKS_RETENTION_DAYS: '90' })).get('/privacy-policy').expect(200);
    const words = parseHtml(text).text();
    expect(words).toContain('Counting Clicks on Our Registration Buttons');
    expect(words).toContain('We keep each click record for 90 days.');
    expect(words).toContain('We do not store your IP address or your user agent, and we do not set a cookie.');
    expect(words).toContain('How to turn it off: if your browser sends the Global Privacy Control signal');
    expect(words).not.toMatch(/\{\w+\}/);
  });

  it('leaves the section out when click counting is off', async () => {
    const { text } = await request(await createTestApp({ CLICK_STATS: 'off' })).get('/privacy-policy').expect(200);
    // The whole response on purpose: the words may appear nowhere, not even in an id or a heading's label.
    expect(text).not.toContain('Counting Clicks');
    const document = parseHtml(text);
    assertNoSelector(document, '#click-counting');
    expect(document.text('main')).toContain('We do not log your IP address');
  });
});
