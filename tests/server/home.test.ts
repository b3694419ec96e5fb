import request from 'supertest';
import { affiliateHref, affiliatePlacements } from '../../shared/affiliate';
import { bonus, faq, howItWorks, benefits, reviews } from '../../shared/content/home';
import { site } from '../../shared/content/site';
import { createTestApp, testAffiliateUrl } from '../support/testApp';

let html: string;
beforeAll(async () => {
  html = (await request(await createTestApp()).get('/').expect(200)).text;
});

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const textOf = (fragment: string) => fragment.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'").replace(/&amp;/g, '&').replace(/&quot;/g, '"');
const anchors = (source: string) => [...source.matchAll(/<a\s[^>]*>/g)].map((match) => match[0]);
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

describe('the home page sections', () => {
  it('come in the order of the spec, each with its anchor id', () => {
    const ids = [...html.matchAll(/\sid="(hero|what-is|how-it-works|benefits|reviews|faq|check-auctions|bonus)"/g)].map((match) => match[1]);
    expect(ids).toEqual(['hero', 'what-is', 'how-it-works', 'benefits', 'reviews', 'faq', 'check-auctions', 'bonus']);
  });

  it('place the reviews inside the benefits section', () => {
    const benefitsSection = html.slice(html.indexOf('id="benefits"'), html.indexOf('id="faq"'));
    expect(benefitsSection).toContain('id="reviews"');
  });

  it('have one h1 and a heading for every section', () => {
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    for (const id of ['what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus']) {
      expect(html).toMatch(new RegExp(`<h2 id="${id}-title">`));
    }
  });
});

describe('the home page copy', () => {
  const text = () => textOf(html);

  it('states every figure of the spec', () => {
    expect(text()).toMatch(/up to 90%/);
    expect(text()).toMatch(/up to 95%/);
    expect(text()).toMatch(/5-day Auto Auctions School/);
    expect(text()).toMatch(/over 3,000 U\.S\. auctions/i);
    expect(text()).toMatch(/one-time payment/i);
    expect(text()).toMatch(/lifetime/i);
    expect(text()).toMatch(/60 days|60-day/);
    expect(text()).toMatch(/\$100/);
    expect(text()).toMatch(/all states|every state/);
  });

  it('orders the savings claims as the spec does: 90% in the hero, 95% in the benefits', () => {
    const hero = textOf(html.slice(html.indexOf('id="hero"'), html.indexOf('id="what-is"')));
    const benefitsText = textOf(html.slice(html.indexOf('id="benefits"'), html.indexOf('id="faq"')));
    expect(hero).toMatch(/up to 90%/);
    expect(benefitsText).toMatch(/up to 95%/);
  });

  it('says the site is not an auction, a dealer or a payment handler', () => {
    expect(text()).toMatch(/not an auction, a dealer or a payment handler/);
  });

  it('shows the four steps by their spec titles', () => {
    expect(howItWorks.steps.map((step) => step.title)).toEqual(['Registration', 'Training', 'Choose Auction', 'Buy Car']);
    for (const step of howItWorks.steps) expect(text()).toContain(step.description);
  });

  it('shows seven benefits', () => {
    expect(benefits.items).toHaveLength(7);
    expect(html.match(/class="card card--benefit"/g)).toHaveLength(7);
  });

  it('shows five FAQ items, all closed, in one exclusive group', () => {
    expect(faq.items).toHaveLength(5);
    const details = [...html.matchAll(/<details[^>]*>/g)].map((match) => match[0]);
    expect(details).toHaveLength(5);
    for (const tag of details) {
      expect(tag).toContain('name="faq"');
      expect(tag).not.toMatch(/\sopen/);
    }
    for (const item of faq.items) expect(html).toContain(escapeHtml(item.answer).replace(/'/g, '&#x27;'));
  });

  it('lists six bonus eBooks with the spec’s page counts, and none for the sixth', () => {
    expect(bonus.books.map((book) => book.pages)).toEqual([52, 18, 32, 46, 84, undefined]);
    const counts = [...html.matchAll(/<p class="books__pages">(\d+) pages<\/p>/g)].map((match) => Number(match[1]));
    expect(counts).toEqual([52, 18, 32, 46, 84]);
    expect(html.match(/class="books__item"/g)).toHaveLength(6);
  });

  it('puts the affiliate disclosure next to the hero button and next to the bonus button', () => {
    const hero = html.slice(html.indexOf('id="hero"'), html.indexOf('id="what-is"'));
    const bonusSection = html.slice(html.indexOf('id="bonus"'), html.indexOf('<footer'));
    const disclosure = escapeHtml(site.disclosureShort);
    expect(hero).toContain(disclosure);
    expect(bonusSection).toContain(disclosure);
  });

  it('marks the six review images as samples in their alt text and says so in the intro', () => {
    expect(reviews.slides).toHaveLength(6);
    expect(reviews.intro).toMatch(/sample/i);
    const alts = [...html.matchAll(/<img[^>]*alt="(Sample review \d of 6[^"]*)"/g)];
    expect(alts).toHaveLength(6);
  });

  it('has the footer’s disclaimers, policy links and © 2025', () => {
    const footer = html.slice(html.indexOf('<footer'));
    expect(footer).toContain('href="/privacy-policy"');
    expect(footer).toContain('href="/terms-conditions"');
    expect(textOf(footer)).toContain(site.footer.nonAffiliation);
    expect(textOf(footer)).toContain(site.footer.commission);
    expect(textOf(footer)).toContain(site.footer.disclaimer);
    expect(textOf(footer)).toContain('© 2025');
  });
});

describe('the affiliate links', () => {
  const outward = () => anchors(html).filter((tag) => /href="https?:/.test(tag));

  it('are exactly the six placements of the spec, in page order', () => {
    expect(outward().map((tag) => attribute(tag, 'data-placement'))).toEqual([...affiliatePlacements]);
  });

  it('all point at the configured address, open in a new tab and are marked sponsored', () => {
    for (const tag of outward()) {
      expect(attribute(tag, 'href')).toBe(escapeHtml(testAffiliateUrl));
      expect(attribute(tag, 'target')).toBe('_blank');
      expect(attribute(tag, 'rel')).toBe('sponsored noopener');
    }
  });

  it('wrap the check-auctions image in its own link', () => {
    const imageLink = html.slice(html.indexOf('data-placement="check-auctions-image"'));
    expect(imageLink.slice(0, imageLink.indexOf('</a>'))).toMatch(/<img /);
  });

  it('add PARAM=placement when AFFILIATE_SUBID_PARAM is set, keeping the configured query', async () => {
    const page = (await request(await createTestApp({ AFFILIATE_SUBID_PARAM: 'subid' })).get('/').expect(200)).text;
    const hrefs = anchors(page)
      .filter((tag) => /href="https?:/.test(tag))
      .map((tag) => new URL(attribute(tag, 'href')!.replace(/&amp;/g, '&')));
    expect(hrefs.map((url) => url.searchParams.get('subid'))).toEqual([...affiliatePlacements]);
    for (const url of hrefs) {
      expect(url.searchParams.get('aff')).toBe('guide');
      expect(url.searchParams.get('campaign')).toBe('spring');
    }
  });

  it('load nothing from another origin: no outside script, style, image or font', () => {
    const resources = [...html.matchAll(/\s(?:src|srcSet|srcset)="([^"]+)"/g)].flatMap((match) => match[1]!.split(',').map((part) => part.trim().split(' ')[0]!));
    const stylesheets = [...html.matchAll(/<link[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
    for (const url of [...resources, ...stylesheets.filter((href) => !href.startsWith('http://127') && !href.includes('auctions.example.org'))]) {
      expect(url.startsWith('/')).toBe(true);
    }
  });
});

describe('affiliateHref', () => {
  it('returns the configured address untouched when no sub-id parameter is set', () => {
    expect(affiliateHref('https://p.example.net/j?a=1', 'hero')).toBe('https://p.example.net/j?a=1');
  });

  it('replaces an existing value of the sub-id parameter', () => {
    expect(affiliateHref('https://p.example.net/j?sid=old&a=1', 'bonus', 'sid')).toBe('https://p.example.net/j?sid=bonus&a=1');
  });
});

describe('the home page images', () => {
  it('give every image width, height and alt, and lazy-load all but the hero', () => {
    const images = [...html.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(images.length).toBeGreaterThanOrEqual(14);
    for (const tag of images) {
      expect(attribute(tag, 'width')).toMatch(/^\d+$/);
      expect(attribute(tag, 'height')).toMatch(/^\d+$/);
      expect(tag).toMatch(/\salt="/);
    }
    const [hero, ...rest] = images;
    expect(hero).toContain('fetchPriority="high"');
    expect(hero).not.toContain('loading="lazy"');
    for (const tag of rest) expect(tag).toContain('loading="lazy"');
  });

  it('offer AVIF and WebP sources before the JPEG fallback', () => {
    const pictures = [...html.matchAll(/<picture[^>]*>([\s\S]*?)<\/picture>/g)].map((match) => match[1]!);
    expect(pictures.length).toBeGreaterThanOrEqual(14);
    for (const picture of pictures) {
      expect(picture).toMatch(/^<source type="image\/avif" srcSet="[^"]+"[^>]*\/><source type="image\/webp"/);
    }
  });

  it('serve every referenced image file', async () => {
    const app = await createTestApp();
    const urls = new Set([...html.matchAll(/\s(?:src|srcSet)="([^"]+)"/g)].flatMap((match) => match[1]!.split(',').map((part) => part.trim().split(' ')[0]!)));
    for (const url of urls) {
      if (url.startsWith('/assets/')) continue;
      await request(app).get(url).expect(200);
    }
  });
});
