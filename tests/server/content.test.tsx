import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { load } from 'cheerio';
import { renderToStaticMarkup } from 'react-dom/server';
import request from 'supertest';
import { loadConfig } from '../../server/config';
import { projectRoot } from '../../server/lib/paths';
import { fillPlaceholders, UnfilledPlaceholderError } from '../../shared/components/Prose';
import { about } from '../../shared/content/about';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { site } from '../../shared/content/site';
import { terms } from '../../shared/content/terms';
import type { ProsePage } from '../../shared/content/types';
import { pagePaths, paths } from '../../shared/routes';
import { createTestApp, testContactEmail } from '../support/testApp';

/** Every .ts/.tsx file below a folder of the project. */
function sourceFiles(folder: string): string[] {
  const dir = path.join(projectRoot, folder);
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(path.join(folder, name));
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

const pageText = (html: string) => load(html)('main').text().replace(/\s+/g, ' ');

describe('internal paths', () => {
  it('are written only in shared/routes.ts: no component, page, island or content file spells one', () => {
    const literal = new RegExp(`(["'\`])(${pagePaths.map((page) => page.replace('/', '\\/')).join('|')})([#?][^"'\`]*)?\\1`);
    const offenders = ['shared', 'client']
      .flatMap(sourceFiles)
      .filter((file) => !file.endsWith(path.join('shared', 'routes.ts')))
      .filter((file) => literal.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(projectRoot, file));
    expect(offenders).toEqual([]);
  });

  it('name every page of the route table', () => {
    expect(Object.values(paths).sort()).toEqual([...pagePaths].sort());
  });
});

describe('words', () => {
  it('live in shared/content: components and pages hold no text of their own, nor a literal label or alt text', () => {
    // JSX text between tags (code between a generic's ">" and the next "<" has punctuation that text lacks), or a quoted attribute.
    const words = /(>[^<>{}();=]*[A-Za-z]{2,}[^<>{}();=]*[<{])|\b(aria-label|alt|title|placeholder)="[^"]*[A-Za-z][^"]*"/;
    const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '');
    const offenders = ['shared/components', 'shared/pages']
      .flatMap(sourceFiles)
      .filter((file) => file.endsWith('.tsx') && words.test(withoutComments(readFileSync(file, 'utf8'))))
      .map((file) => path.relative(projectRoot, file));
    expect(offenders).toEqual([]);
  });
});

describe('placeholders in long-form copy', () => {
  const prosePages: ProsePage[] = [privacyPolicy, terms, about];
  const known = ['clickRetentionDays', 'contactEmail'];

  it.each(prosePages.map((page) => [page.path, page] as const))('%s names only settings the page fills', (_path, page) => {
    const texts = [...page.intro, ...page.sections.flatMap((section) => section.blocks)].flatMap((block) =>
      block.kind === 'paragraph' ? [block.text] : block.items,
    );
    const named = texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
    expect(named.filter((name) => !known.includes(name))).toEqual([]);
  });

  it('stop a page from rendering when nothing fills them, instead of showing', () => {
    expect(() => fillPlaceholders('Write to {contactAddress} today', { contactEmail: 'x' })).toThrow(UnfilledPlaceholderError);
    expect(() => fillPlaceholders('Write to {contactAddress} today', { contactEmail: 'x' })).toThrow(/\{contactAddress\}/);
  });

  it('are filled, so none shows on any page', async () => {
    const app = await createTestApp();
    for (const page of pagePaths) {
      const { text } = await request(app).get(page).expect(200);
      expect(pageText(text)).not.toMatch(/\{\w+\}/);
    }
  });

  it('keep an element a setting stands for, such as the contact link', () => {
    const html = renderToStaticMarkup(<p>{fillPlaceholders('Mail {contactEmail}.', { contactEmail: <a href="mailto:a@b.example">a@b.example</a> })}</p>);
    expect(html).toBe('<p>Mail <a href="mailto:a@b.example">a@b.example</a>.</p>');
  });
});

describe('with CLICK_STATS=off', () => {
  it('no page says a word about click records', async () => {
    const app = await createTestApp({ CLICK_STATS: 'off' });
    for (const page of pagePaths) {
      const { text } = await request(app).get(page).expect(200);
      expect(pageText(text)).not.toMatch(/click records?|visitor code|counting clicks|count(ing)? (the )?clicks/i);
    }
  });

  it('no page says a word about page views, click IDs or the sales a network reports', async () => {
    const app = await createTestApp({ CLICK_STATS: 'off' });
    for (const page of pagePaths) {
      const { text } = await request(app).get(page).expect(200);
      expect(pageText(text)).not.toMatch(/page[- ]views?|click IDs?|utm_|campaign tags?|sub-ID|transaction ID|sales? records?|records of|reports? the sale|chargeback/i);
    }
  });

  it('still says in the policy that the access log is all there is to share', async () => {
    const app = await createTestApp({ CLICK_STATS: 'off' });
    const { text } = await request(app).get(paths.privacyPolicy).expect(200);
    expect(pageText(text)).toContain('We would only share our access logs if the law required us to');
  });
});

describe('the contact address (CONTACT_EMAIL)', () => {
  it.each([paths.privacyPolicy, paths.terms, paths.about])('is a mailto link on %s', async (page) => {
    const { text } = await request(await createTestApp()).get(page).expect(200);
    const links = load(text)(`main a[href="mailto:${testContactEmail}"]`);
    expect(links.length).toBeGreaterThan(0);
    expect(links.first().text()).toBe(testContactEmail);
  });

  it('is said to be missing, plainly, on a local preview without one', async () => {
    const { text } = await request(await createTestApp({ SITE_URL: 'http://localhost:3000', CONTACT_EMAIL: '' })).get(paths.privacyPolicy).expect(200);
    expect(pageText(text)).toContain(site.contactNotSet);
    expect(text).not.toContain('mailto:');
  });

  it('must be set before the site is served under https', () => {
    expect(() => loadConfig({ SITE_URL: 'https://auctions.example.com' })).toThrow(/^CONTACT_EMAIL must be set when SITE_URL is https/);
    expect(loadConfig({ SITE_URL: 'http://localhost:3000' }).contactEmail).toBeUndefined();
  });

  it.each(['not-an-address', 'two@example.com,three@example.com', 'a b@example.com', '<x@example.com>', 'x@localhost'])('refuses CONTACT_EMAIL=%j', (value) => {
    expect(() => loadConfig({ CONTACT_EMAIL: value })).toThrow(/^CONTACT_EMAIL must be one email address/);
  });
});
