import { readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../server/lib/paths';
import { paths } from '../../../shared/routes';
import { claimList } from '../../../shared/content/claims';
import { isFigureClaim, type ClaimUnit } from '../../../shared/content/claimTypes';

/**
 * The copy may state a claim-like figure (a percentage, a dollar amount, a number of days, a count over
 * 100) only as the value of a claim in shared/content/claims.ts, in a section that claim lists, or as one
 * of the few non-claims below. So a figure about the offer cannot enter the copy unchecked, and a claim
 * cannot leave a place it lists. Every module of shared/content is read, so a new one is too.
 */

type FigureKind = 'percent' | 'dollars' | 'days' | 'count';
interface Figure {
  kind: FigureKind;
  value: number;
}

const kindOfUnit: Record<ClaimUnit, FigureKind> = { days: 'days', dollars: 'dollars', percent: 'percent', auctions: 'count' };

/** "$1,000", "90%", "60-day", "14 days", "3,000"; a bare number counts only over 100. */
function figuresIn(text: string): Figure[] {
  const token = /(?<![\w.,])(\$\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?%|[-\s]days?\b)?/gi;
  return [...text.matchAll(token)].flatMap((match): Figure[] => {
    const value = Number(`${match[2]!.replaceAll(',', '')}${match[3] ?? ''}`);
    const kind: FigureKind = match[1] ? 'dollars' : match[4]?.includes('%') ? 'percent' : match[4] ? 'days' : 'count';
    return kind === 'count' && value <= 100 ? [] : [{ kind, value }];
  });
}

const shown = ({ kind, value }: Figure) => (kind === 'dollars' ? `$${value}` : kind === 'percent' ? `${value}%` : kind === 'days' ? `${value} days` : `${value}`);

/**
 * Figures that are not claims about the offer, each where it may stand (a prefix of its place in the copy).
 * `figure` '*' allows any figure there.
 */
const notClaims: { at: string; figure: string; why: string }[] = [
  { at: 'site.site.footer.copyright', figure: '2025', why: 'the footer year the spec fixes' },
  { at: 'policiesLastUpdated.', figure: '2025', why: '"October 2025", the policies’ date the spec fixes' },
  { at: 'privacyPolicy.privacyPolicy.lastUpdated', figure: '2025', why: 'the same date, on the page' },
  { at: 'terms.terms.lastUpdated', figure: '2025', why: 'the same date, on the page' },
  { at: 'privacyPolicy.privacyPolicy.sections.2.', figure: '200', why: 'an HTTP status code, as an example of what the access log holds' },
  { at: 'privacyPolicy.privacyPolicy.sections.2.', figure: '404', why: 'the same' },
  { at: 'privacyPolicy.privacyPolicy.sections.2.', figure: '14 days', why: 'how long the web server keeps its own access logs' },
  { at: 'privacyPolicy.privacyPolicy.sections.6.', figure: '180 days', why: 'how long this site keeps a sale record (server/config.ts folds conversions past it)' },
  { at: 'sampleReviews.', figure: '*', why: 'the sample review cards’ model years and prices, each card marked as a sample, not a customer' },
  { at: 'home.reviews.slides.', figure: '*', why: 'the same sample cards’ words, in their alt text' },
  { at: 'homeCopy.homeCopy.reviews.slides.', figure: '*', why: 'the same' },
];

/** Not copy: the registry itself (its examples quote the merchant), its types, and the image pipeline’s sizes and file names. */
const notCopyModules = new Set(['claims', 'claimTypes', 'images.generated', 'types']);

interface Place {
  /** module.export.key.key…, e.g. homeCopy.hero.points.2 */
  at: string;
  text: string;
}

function stringsIn(value: unknown, at: string, found: Place[]): void {
  if (typeof value === 'string') found.push({ at, text: value });
  else if (Array.isArray(value)) value.forEach((item, index) => stringsIn(item, `${at}.${index}`, found));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) stringsIn(item, `${at}.${key}`, found);
}

const contentFolder = path.join(projectRoot, 'shared/content');
const modules = readdirSync(contentFolder)
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => file.replace(/\.tsx?$/, ''))
  .filter((name) => !notCopyModules.has(name));
const places: Place[] = [];
for (const name of modules) {
  for (const [exported, value] of Object.entries(require(path.join(contentFolder, name)) as Record<string, unknown>)) stringsIn(value, `${name}.${exported}`, places);
}

const homeSections: Record<string, string> = {
  meta: 'meta', homeMeta: 'meta', hero: 'hero', whatIs: 'what-is', howItWorks: 'how-it-works', benefits: 'benefits',
  reviews: 'reviews', faq: 'faq', checkAuctions: 'check-auctions', bonus: 'bonus',
};
const prosePages: Record<string, { path: string; sections: { id: string }[] }> = {};
for (const name of ['about', 'terms', 'privacyPolicy']) {
  prosePages[name] = (require(path.join(contentFolder, name)) as Record<string, { path: string; sections: { id: string }[] }>)[name]!;
}

/** The page and section a place in the copy is shown in, in the terms of a claim's usedIn; undefined when it is no page's. */
function pageSection(at: string): string | undefined {
  const keys = at.split('.');
  if (keys[0] === 'home') return homeSections[keys[1]!] && `${paths.home} ${homeSections[keys[1]!]}`;
  if (keys[0] === 'homeCopy') return homeSections[keys[2]!] && `${paths.home} ${homeSections[keys[2]!]}`;
  // A split test's words: experiments.experiments.0.variants.1.words.home.hero.primaryCtaLabel
  const words = keys.indexOf('words');
  if (keys[0] === 'experiments' && words >= 0) return homeSections[keys[words + 2]!] && `${paths.home} ${homeSections[keys[words + 2]!]}`;
  const prose = prosePages[keys[0]!];
  if (!prose) return undefined;
  if (keys[2] === 'sections') return `${prose.path} ${prose.sections[Number(keys[3])]!.id}`;
  return `${prose.path} ${keys[2] === 'intro' || keys[2] === 'heading' ? 'intro' : 'meta'}`;
}

const figureClaims = claimList.filter(isFigureClaim);
const claimsOf = (figure: Figure) => figureClaims.filter((claim) => kindOfUnit[claim.unit] === figure.kind && claim.value === figure.value);
const uses = (claim: (typeof figureClaims)[number]) => claim.usedIn.map((use) => `${use.page} ${use.section}`);

const found = places.flatMap((place) => figuresIn(place.text).map((figure) => ({ ...place, figure })));

describe('the figures in the copy', () => {
  it.each([
    ['a 30-day refund', [{ kind: 'days', value: 30 }]],
    ['refunds within 14 days', [{ kind: 'days', value: 14 }]],
    ['save 50% or 12.5 %', [{ kind: 'percent', value: 50 }, { kind: 'percent', value: 12.5 }]],
    ['from $49 or $ 1,250.50', [{ kind: 'dollars', value: 49 }, { kind: 'dollars', value: 1250.5 }]],
    ['over 2,500 auctions', [{ kind: 'count', value: 2500 }]],
    ['© 2025', [{ kind: 'count', value: 2025 }]],
    ['6 eBooks, 52 pages, step 4, 100 cars', []],
    ['v1.250 or step200', []],
  ] as const)('finds in %j: %j', (text, figures) => {
    expect(figuresIn(text)).toEqual(figures);
  });

  it('reads every module of shared/content that holds copy', () => {
    expect(modules.sort()).toEqual(expect.arrayContaining(['about', 'errors', 'experiments', 'home', 'homeCopy', 'privacyPolicy', 'site', 'terms']));
    expect(found.length).toBeGreaterThan(20);
  });

  it('are each the value of a claim that lists the section, or a listed non-claim', () => {
    const unnamed = found.flatMap(({ at, text, figure }) => {
      const section = pageSection(at);
      if (claimsOf(figure).some((claim) => section !== undefined && uses(claim).includes(section))) return [];
      if (notClaims.some((entry) => at.startsWith(entry.at) && (entry.figure === '*' || entry.figure === shown(figure)))) return [];
      const named = claimsOf(figure).map((claim) => claim.id);
      const why = named.length > 0 ? `claim ${named.join(', ')} does not list ${section ?? 'a place outside the pages'}` : 'no claim names it';
      return [`${shown(figure)} at ${at} (${why}): “${text}”`];
    });
    expect(unnamed).toEqual([]);
  });

  it('appear in every section each claim lists', () => {
    const sectionsWith = (claim: (typeof figureClaims)[number]) =>
      new Set(found.filter(({ figure }) => claimsOf(figure).includes(claim)).map(({ at }) => pageSection(at)));
    const unused = figureClaims.flatMap((claim) => uses(claim).filter((use) => !sectionsWith(claim).has(use)).map((use) => `${claim.id}: ${use}`));
    expect(unused).toEqual([]);
  });

  it('leave no non-claim entry unused', () => {
    const unused = notClaims.filter((entry) => !found.some(({ at, figure }) => at.startsWith(entry.at) && (entry.figure === '*' || entry.figure === shown(figure))));
    expect(unused.map((entry) => `${entry.at} ${entry.figure}`)).toEqual([]);
  });
});
