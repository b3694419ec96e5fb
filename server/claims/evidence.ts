import type { Evidence, JsonLdEvidence, NumberEvidence, PhraseEvidence } from '../../shared/content/claimTypes';
import { holds, readClaimNumber } from './claimNumber';
import { findJsonLdField } from './jsonLd';
import { parseMerchantPage, type MerchantPage } from './merchantPage';
import { excerptAround, numberPattern, phrasePattern } from './normalText';

/**
 * What one evidence item finds on one merchant page, as a pure function of the page's HTML:
 * - `verified`: the evidence is there and agrees (with the words around it);
 * - `contradicted`: it is there with another figure (the figure, and the words around it);
 * - `missing`: the page was read and the evidence is not on it;
 * - `shapeChanged`: the item's selector matches nothing, so the page no longer has the part the
 *   evidence lives in; not a changed claim, and never read as one.
 * Whether the page could be fetched at all, and what a claim's items add up to, are the watch's to say.
 */
export type EvidenceOutcome =
  | { verdict: 'verified'; excerpt: string }
  | { verdict: 'contradicted'; excerpt: string; found: number }
  | { verdict: 'missing' }
  | { verdict: 'shapeChanged'; selector: string };

/** Matches on a page at most: a figure repeated 10,000 times is no more evidence than 1,000 times. */
const maximumMatches = 1000;

/** Checks `evidence` against a page; `claimed` is the claim's figure, which number and JSON-LD items need. */
export function checkEvidence(page: MerchantPage | string, evidence: Evidence, claimed?: number): EvidenceOutcome {
  const parsed = typeof page === 'string' ? parseMerchantPage(page) : page;
  if (evidence.kind === 'phrase') return checkPhrase(parsed, evidence);
  if (claimed === undefined) throw new Error(`A ${evidence.kind} evidence item needs the claim's figure to compare with`);
  return evidence.kind === 'number' ? checkNumber(parsed, evidence, claimed) : checkJsonLd(parsed, evidence, claimed);
}

/** The words the item is matched against, or the outcome when its selector finds nothing. */
function wordsFor(page: MerchantPage, selector: string | undefined): string | EvidenceOutcome {
  if (selector === undefined) return page.text();
  return page.textIn(selector) ?? { verdict: 'shapeChanged', selector };
}

function checkPhrase(page: MerchantPage, evidence: PhraseEvidence): EvidenceOutcome {
  const words = wordsFor(page, evidence.selector);
  if (typeof words !== 'string') return words;
  const match = phrasePattern(evidence.phrase).exec(words);
  if (!match) return { verdict: 'missing' };
  return { verdict: 'verified', excerpt: excerptAround(words, match.index, match.index + match[0].length) };
}

/** Every match must hold: the first that does not is the contradiction shown. Matches whose group is not a number are passed over. */
function checkNumber(page: MerchantPage, evidence: NumberEvidence, claimed: number): EvidenceOutcome {
  const words = wordsFor(page, evidence.selector);
  if (typeof words !== 'string') return words;
  let agreeing: EvidenceOutcome | undefined;
  let seen = 0;
  for (const match of words.matchAll(numberPattern(evidence.pattern))) {
    if (++seen > maximumMatches) break;
    const found = readClaimNumber(match[1]);
    if (found === undefined) continue;
    const excerpt = excerptAround(words, match.index, match.index + match[0].length);
    if (!holds(found, evidence.compare, claimed)) return { verdict: 'contradicted', excerpt, found };
    agreeing ??= { verdict: 'verified', excerpt };
  }
  return agreeing ?? { verdict: 'missing' };
}

/** The same rule as a number in the text: every value the field has on the page must hold. */
function checkJsonLd(page: MerchantPage, evidence: JsonLdEvidence, claimed: number): EvidenceOutcome {
  let agreeing: EvidenceOutcome | undefined;
  for (const { value, node } of findJsonLdField(page.jsonLdScripts(), evidence.field)) {
    const found = readClaimNumber(value);
    if (found === undefined) continue;
    const excerpt = jsonLdExcerpt(evidence.field, value, node);
    if (!holds(found, evidence.compare, claimed)) return { verdict: 'contradicted', excerpt, found };
    agreeing ??= { verdict: 'verified', excerpt };
  }
  return agreeing ?? { verdict: 'missing' };
}

const excerptLength = 240;

/** "MerchantReturnPolicy.merchantReturnDays = 60 in {…the node…}", the node cut to a readable length. */
function jsonLdExcerpt(field: string, value: unknown, node: Record<string, unknown>): string {
  const json = JSON.stringify(node);
  return `${field} = ${JSON.stringify(value)} in ${json.length > excerptLength ? `${json.slice(0, excerptLength)}…` : json}`;
}
