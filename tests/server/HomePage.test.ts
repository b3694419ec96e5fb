import request from 'supertest';
import { affiliatePlacements } from '../../shared/affiliate';
import { bonus, faq, howItWorks, benefits, reviews } from '../../shared/content/home';
import { site } from '../../shared/content/site';
import { assertSelector, parseHtml, type HtmlNode } from '../support/html';
import { createTestApp, testAffiliateUrl } from '../support/testApp';

let page: HtmlNode;
beforeAll(async () => {
  page = parseHtml((await request(await createTestApp()).get('/').expect(200)).text);
});

const sectionIds = ['hero', 'what-is', 'how-it-works', 'benefits', 'reviews', 'faq', 'check-auctions', 'bonus'];
const outward = (document: HtmlNode) => document.all('a').filter((link) => /^https?:/.test(link.attr('href') ?? ''));
/** Every address a src or srcset names, without the width descriptors. */
const resourceUrls = (document: HtmlNode) =>
  document.all('[src], [srcset]').flatMap((element) => {
    const src = element.attr('src');
    const srcset = element.attr('srcset');
    return [...(src === undefined ? [] : [src]), ...(srcset === undefined ? [] : srcset.split(',').map((part) => part.trim().split(' ')[0]!))];
  });

describe('the home page sections', () => {
  it('come in the order of the spec, each with its anchor id', () => {
    const ids = page.all('[id]').map((element) => element.attr('id')).filter((id) => sectionIds.includes(id!));
    expect(ids).toEqual(sectionIds);
  });

  it('place the reviews inside the benefits section', () => {
    assertSelector(page.one('#benefits'), '#reviews', 1);
  });

  it('have one h1 and a heading for every section', () => {
    assertSelector(page, 'h1', 1);
    for (const id of ['what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus']) assertSelector(page, `h2#${id}-title`, 1);
  });
});

describe('the home page copy', () => {
  it('states every figure of the spec', () => {
    const text = page.text();
    expect(text).toMatch(/up to 90%/);
    expect(text).toMatch(/up to 95%/);
    expect(text).toMatch(/5-day Auto Auctions School/);
    expect(text).toMatch(/over 3,000 U\.S\. auctions/i);
    expect(text).toMatch(/one-time payment/i);
    expect(text).toMatch(/lifetime/i);
    expect(text).toMatch(/60 days|60-day/);
    expect(text).toMatch(/\$100/);
    expect(text).toMatch(/all states|every state/);
  });

  it('orders the savings claims as the spec does: 90% in the hero, 95% in the benefits', () => {
    expect(page.text('#hero')).toMatch(/up to 90%/);
    expect(page.text('#benefits')).toMatch(/up to 95%/);
  });

  it('says the site is not an auction, a dealer or a payment handler', () => {
    expect(page.text()).toMatch(/not an auction, a dealer or a payment handler/);
  });

  it('shows the four steps by their spec titles', () => {
    expect(howItWorks.steps.map((step) => step.title)).toEqual(['Registration', 'Training', 'Choose Auction', 'Buy Car']);
    for (const step of howItWorks.steps) expect(page.text()).toContain(step.description);
  });

  it('shows seven benefits', () => {
    expect(benefits.items).toHaveLength(7);
    assertSelector(page, '.card.card--benefit', 7);
  });

  it('shows five FAQ items, all closed, in one exclusive group', () => {
    expect(faq.items).toHaveLength(5);
    const details = assertSelector(page, 'details', 5);
    for (const item of details) {
      expect(item.attr('name')).toBe('faq');
      expect(item.attr('open')).toBeUndefined();
    }
    expect(details.map((item) => item.text('.faq__answer'))).toEqual(faq.items.map((item) => item.answer));
  });

  it('lists six bonus eBooks with the spec’s page counts, and none for the sixth', () => {
    expect(bonus.books.map((book) => book.pages)).toEqual([52, 18, 32, 46, 84, undefined]);
    expect(page.all('p.books__pages').map((count) => count.text())).toEqual(['52 pages', '18 pages', '32 pages', '46 pages', '84 pages']);
    assertSelector(page, '.books__item', 6);
  });

  it('puts the affiliate disclosure next to the hero button and next to the bonus button', () => {
    expect(page.one('#hero').all('.disclosure').map((note) => note.text())).toContain(site.disclosureShort);
    expect(page.one('#bonus').all('.disclosure').map((note) => note.text())).toContain(site.disclosureShort);
  });

  it('marks the six review images as samples in their alt text and says so in the intro', () => {
    expect(reviews.slides).toHaveLength(6);
    expect(reviews.intro).toMatch(/sample/i);
    const alts = page.all('img').filter((image) => /^Sample review \d of 6/.test(image.attr('alt') ?? ''));
    expect(alts).toHaveLength(6);
  });

  it('has the footer’s disclaimers, policy links and © 2025', () => {
    const footer = page.one('footer');
    assertSelector(footer, 'a[href="/privacy-policy"]', 1);
    assertSelector(footer, 'a[href="/terms-conditions"]', 1);
    expect(footer.text()).toContain(site.footer.nonAffiliation);
    expect(footer.text()).toContain(site.footer.commission);
    expect(footer.text()).toContain(site.footer.disclaimer);
    expect(footer.text()).toContain('© 2025');
  });
});

describe('the affiliate links', () => {
  it('are exactly the six placements of the spec, in page order', () => {
    expect(outward(page).map((link) => link.attr('data-placement'))).toEqual([...affiliatePlacements]);
  });

  it('all point at the configured address, open in a new tab and are marked sponsored', () => {
    for (const link of outward(page)) {
      expect(link.attr('href')).toBe(testAffiliateUrl);
      expect(link.attr('target')).toBe('_blank');
      expect(link.attr('rel')).toBe('sponsored noopener');
    }
  });

  it('wrap the check-auctions image in its own link', () => {
    assertSelector(page.one('a[data-placement="check-auctions-image"]'), 'img');
  });

  it('add PARAM=placement when AFFILIATE_SUBID_PARAM is set, keeping the configured query', async () => {
    const withSubId = parseHtml((await request(await createTestApp({ AFFILIATE_SUBID_PARAM: 'subid' })).get('/').expect(200)).text);
    const hrefs = outward(withSubId).map((link) => new URL(link.attr('href')!));
    expect(hrefs.map((url) => url.searchParams.get('subid'))).toEqual([...affiliatePlacements]);
    for (const url of hrefs) {
      expect(url.searchParams.get('aff')).toBe('guide');
      expect(url.searchParams.get('campaign')).toBe('spring');
    }
  });

  it('load nothing from another origin: no outside script, style, image or font', () => {
    const stylesheets = page.all('link[href]').map((link) => link.attr('href')!);
    for (const url of [...resourceUrls(page), ...stylesheets.filter((href) => !href.startsWith('http://127') && !href.includes('auctions.example.org'))]) {
      expect(url.startsWith('/')).toBe(true);
    }
  });
});

describe('the home page images', () => {
  it('give every image width, height and alt, and lazy-load all but the hero', () => {
    const images = page.all('img');
    expect(images.length).toBeGreaterThanOrEqual(14);
    for (const image of images) {
      expect(image.attr('width')).toMatch(/^\d+$/);
      expect(image.attr('height')).toMatch(/^\d+$/);
      expect(image.attr('alt')).toBeDefined();
    }
    const [hero, ...rest] = images;
    expect(hero!.attr('fetchpriority')).toBe('high');
    expect(hero!.attr('loading')).not.toBe('lazy');
    for (const image of rest) expect(image.attr('loading')).toBe('lazy');
  });

  it('offer AVIF and WebP sources before the JPEG fallback', () => {
    const pictures = page.all('picture');
    expect(pictures.length).toBeGreaterThanOrEqual(14);
    for (const picture of pictures) {
      const [avif, webp, ...rest] = picture.children();
      expect([avif?.tag, avif?.attr('type'), webp?.tag, webp?.attr('type')]).toEqual(['source', 'image/avif', 'source', 'image/webp']);
      expect(avif!.attr('srcset')).toBeTruthy();
      expect(rest.map((child) => child.tag)).toContain('img');
    }
  });

  it('serve every referenced image file', async () => {
    const app = await createTestApp();
    for (const url of new Set(resourceUrls(page))) {
      if (url.startsWith('/assets/')) continue;
      await request(app).get(url).expect(200);
    }
  });
});

describe('structured data', () => {
  it('describes the Organization and the WebSite only: no FAQPage, Review or rating markup', async () => {
    const { text } = await request(await createTestApp()).get('/').expect(200);
    const blocks = parseHtml(text)
      .all('script[type="application/ld+json"]')
      .map((script) => JSON.parse(script.textContent()));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]['@graph'].map((node: { '@type': string }) => node['@type'])).toEqual(['Organization', 'WebSite']);
    // The whole response on purpose: no such type anywhere, whether as JSON-LD, microdata or RDFa.
    expect(text).not.toMatch(/FAQPage|"Review"|AggregateRating/);
  });
});
