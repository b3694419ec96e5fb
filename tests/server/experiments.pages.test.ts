import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { experimentPageProblems } from '../../server/experiments/experimentPageBudgets';
import { loadInlineStyles } from '../../server/inlineStyles';
import { distAssetsDir, distDir } from '../../server/lib/paths';
import { readManifest } from '../../server/manifest';
import type { Express } from 'express';
import { homeCopy } from '../../shared/content/homeCopy';
import { variantSubId, type Experiment } from '../../shared/experiments/experiment';
import { browserUserAgent } from '../support/beaconReports';
import { createTestApp, openTestStores, testConfig } from '../support/testApp';
import { visitorAddresses } from '../support/visitorAddresses';

/**
 * Who sees which home page while an experiment runs (server/experiments/variantAssignment.ts, server/pages.tsx):
 * every variant's page is rendered at start-up, and a request gets its visitor's, with no cookie.
 */
const experiment: Experiment = { id: 'hero-words', variants: [{ id: 'a' }, { id: 'b', words: { 'home.hero.primaryCtaLabel': 'Start now' } }] };
const original = homeCopy.hero.primaryCtaLabel;
const env = { TRUST_PROXY: '1', AFFILIATE_SUBID_PARAM: 'subid' };

/** What a home page says: its variants (the body attribute), the hero button's label and its link. */
function homeOf(html: string) {
  const variants = /<body[^>]*\sdata-variants="([^"]*)"/.exec(html)?.[1];
  const hero = /<a [^>]*data-placement="hero"[^>]*>([^<]*)</.exec(html);
  return { variants, label: hero?.[1], link: hero?.[0] ?? '' };
}

const person = (address: string, headers: Record<string, string> = {}) => ({ 'User-Agent': browserUserAgent, 'X-Forwarded-For': address, ...headers });

describe('the home page while an experiment runs', () => {
  let app: Express;
  beforeAll(async () => {
    app = await createTestApp(env, { experiments: [experiment] });
  });

  it("shows each visitor their variant's words, and says which in the page, its links and its pings", async () => {
    const next = visitorAddresses();
    const seen = new Map<string, number>();
    for (let index = 0; index < 40; index++) {
      const response = await request(app).get('/').set(person(next())).expect(200);
      const home = homeOf(response.text);
      seen.set(home.variants!, (seen.get(home.variants!) ?? 0) + 1);
      const variant = home.variants === 'hero-words:b' ? 'b' : 'a';
      expect(home.variants).toBe(`hero-words:${variant}`);
      expect(home.label).toBe(variant === 'b' ? 'Start now' : original);
      expect(home.link).toContain(`subid=${variantSubId('he', [{ experiment: 'hero-words', variant }])}`);
      expect(home.link).toContain(`&amp;variants=hero-words%3A${variant}`);
      expect(response.headers['cache-control']).toBe('private, max-age=60');
    }
    // 40 visitors, half each: both variants seen (all in one is a chance of 2 in a trillion).
    expect([...seen.keys()].sort()).toEqual(['hero-words:a', 'hero-words:b']);
  });

  it('gives one visitor the same page on every request, HEAD and 304 included', async () => {
    const headers = person('198.51.100.7');
    const first = await request(app).get('/').set(headers).expect(200);
    for (let index = 0; index < 5; index++) {
      const again = await request(app).get('/?utm_source=newsletter').set(headers).expect(200);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(homeOf(again.text).variants).toBe(homeOf(first.text).variants);
    }
    await request(app).get('/').set({ ...headers, 'If-None-Match': first.headers.etag! }).expect(304);
    const head = await request(app).head('/').set({ ...headers, 'Accept-Encoding': String(first.headers['content-encoding'] ?? '') }).expect(200);
    expect(head.headers.etag).toBe(first.headers.etag);
  });

  it.each([
    ['a bot', { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['no user agent', { 'User-Agent': '' }],
    ['a prefetch', { 'Sec-Purpose': 'prefetch' }],
    ['Global Privacy Control', { 'Sec-GPC': '1' }],
    ['Do Not Track', { DNT: '1' }],
  ])('shows %s the words as they are, in no experiment', async (_name, headers) => {
    const response = await request(app).get('/').set(person('198.51.100.8', headers)).expect(200);
    expect(homeOf(response.text)).toMatchObject({ variants: undefined, label: original });
    expect(homeOf(response.text).link).toContain('subid=hero"');
    expect(response.headers['cache-control']).toBe('private, max-age=60');
  });

  it('shows the words as they are when the visitor hash cannot be made (the database is down)', async () => {
    const config = testConfig(env);
    const stores = (await openTestStores(config))!;
    const down = await createTestApp(env, { experiments: [experiment], stores: { ...stores, hashVisitor: () => Promise.reject(new Error('connection refused')) } });
    const response = await request(down).get('/').set(person('198.51.100.9')).expect(200);
    expect(homeOf(response.text)).toMatchObject({ variants: undefined, label: original });
  });

  it('leaves the other pages shared and public, and the privacy policy says wording is tested', async () => {
    const about = await request(app).get('/about-us').set(person('198.51.100.10')).expect(200);
    expect(about.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
    expect(homeOf(about.text).variants).toBeUndefined();
    const policy = await request(app).get('/privacy-policy').expect(200);
    expect(policy.text).toContain('Testing Different Wording');
    expect(policy.text).toContain('Nothing is stored in your browser to do this');
  });
});

describe('the home page with no experiment running', () => {
  it.each([
    ['none listed', [] as Experiment[], original],
    ['one ended: its winner for everyone', [{ ...experiment, winner: 'b' as const }], 'Start now'],
    ['one ended with a', [{ ...experiment, winner: 'a' as const }], original],
  ])('%s', async (_name, experiments, label) => {
    const app = await createTestApp(env, { experiments });
    for (const headers of [person('198.51.100.11'), person('198.51.100.12'), { 'User-Agent': 'Googlebot/2.1' }]) {
      const response = await request(app).get('/').set(headers).expect(200);
      expect(homeOf(response.text)).toMatchObject({ variants: undefined, label });
      expect(response.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
    }
    const policy = await request(app).get('/privacy-policy').expect(200);
    expect(policy.text).not.toContain('Testing Different Wording');
  });

  it('runs none with statistics off: there is no visitor hash to split by', async () => {
    const app = await createTestApp({ ...env, CLICK_STATS: 'off' }, { experiments: [experiment] });
    const response = await request(app).get('/').set(person('198.51.100.13')).expect(200);
    expect(homeOf(response.text)).toMatchObject({ variants: undefined, label: original });
    expect(response.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
  });

  it('refuses experiments that break the rules, as the build does', async () => {
    const clash = { ...experiment, id: 'other' };
    await expect(createTestApp(env, { experiments: [experiment, clash] })).rejects.toThrow(
      'experiment "other": changes home.hero.primaryCtaLabel, which running experiment "hero-words" changes too',
    );
  });
});

describe('the page budget of a variant', () => {
  it("refuses, in one line naming the experiment, words that push the home page over its budget", () => {
    const manifest = readManifest(distDir);
    const assets = { manifest, styles: loadInlineStyles(manifest, distAssetsDir) };
    expect(experimentPageProblems([experiment], assets)).toEqual([]);
    // Words no compressor can shrink: random letters, 20,000 of them.
    const noise = randomBytes(15_000).toString('base64').replace(/[^a-z]/gi, 'e');
    const long: Experiment = { id: 'long-answer', variants: [{ id: 'a' }, { id: 'b', words: { 'home.faq.items.0.answer': noise } }] };
    const problems = experimentPageProblems([long], assets);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^experiment "long-answer" \(variant b\): the home page with its words is \d+\.\d KB compressed, over its 14 KB budget$/);
  });
});
