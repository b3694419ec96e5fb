import request from 'supertest';
import { minimumConversionDays } from '../../server/conversions/conversionStore';
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

  it('describes page views: what is recorded, no cookie, not with GPC or Do Not Track, kept for CLICKS_RETENTION_DAYS then folded', async () => {
    const { text } = await request(await createTestApp({ CLICKS_RETENTION_DAYS: '90' })).get('/privacy-policy').expect(200);
    const document = parseHtml(text);
    expect(document.text('h2#page-views')).toBe('Counting Page Views');
    const words = document.text('main');
    expect(words).toContain('The campaign tags utm_source, utm_medium, utm_campaign and utm_content, if the address you arrived at carried them');
    expect(words).toContain('We do not set a cookie or store anything in your browser to do this.');
    expect(words).toContain('we do not record your page views or clicks at all, and our links carry no click ID');
    expect(words).toContain('We keep each page-view record for 90 days. After that we keep only the daily number of page views');
  });

  it('describes the click ID and the source a click carries', async () => {
    const words = parseHtml((await request(await createTestApp()).get('/privacy-policy').expect(200)).text).text('main');
    expect(words).toContain('A click ID, when our link carries one: a random code, made new for each click');
    expect(words).toContain('It identifies the click, not you.');
    expect(words).toContain('Your browser keeps it only in the page’s memory while you move between our pages, never in a cookie or storage');
  });

  it(`describes the sales a network reports, kept for ${minimumConversionDays} days or CLICKS_RETENTION_DAYS, whichever is longer`, async () => {
    const { text } = await request(await createTestApp({ CLICKS_RETENTION_DAYS: '400' })).get('/privacy-policy').expect(200);
    const document = parseHtml(text);
    expect(document.text('h2#reported-sales')).toBe('Sales the Affiliate Network Reports to Us');
    const words = document.text('main');
    expect(words).toContain('When the operator records the network’s reports, we keep what the network sends');
    expect(words).toContain('No name, email address or payment details reach this site');
    expect(words).toContain(`We keep each sale record for ${minimumConversionDays} days or 400 days, whichever is longer`);
  });

  it('says what the tally of reports not counted holds: a day, the kind, a reason and a number, nothing about the visitor; not with counting off', async () => {
    const tally = 'we keep only a daily tally: the date, whether it was a page-view or a click report, which of those reasons applied, and how many there were';
    const words = parseHtml((await request(await createTestApp()).get('/privacy-policy').expect(200)).text).text('main');
    expect(words).toContain(tally);
    expect(words).toContain('Nothing about who sent them is kept: no IP address, no user agent, no visitor code.');
    expect(words).toContain('Last updated: October 2025');
    const off = await request(await createTestApp({ CLICK_STATS: 'off' })).get('/privacy-policy').expect(200);
    expect(parseHtml(off.text).text('main')).not.toContain('daily tally');
  });

  it('leaves the section out when click counting is off', async () => {
    const { text } = await request(await createTestApp({ CLICK_STATS: 'off' })).get('/privacy-policy').expect(200);
    // The whole response on purpose: the words may appear nowhere, not even in an id or a heading's label.
    expect(text).not.toContain('Counting Clicks');
    const document = parseHtml(text);
    assertNoSelector(document, '#click-counting');
    assertNoSelector(document, '#page-views');
    assertNoSelector(document, '#reported-sales');
    expect(document.text('main')).toContain('We do not log your IP address');
  });
});
