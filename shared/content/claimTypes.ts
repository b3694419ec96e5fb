/**
 * The shapes of the claims registry (shared/content/claims.ts): each fact the copy states about the
 * merchant's offer, where the copy states it, and what on the merchant's own pages shows it. Plain data:
 * the matcher that reads a page against an evidence item is server/claims/evidence.ts.
 */
import type { PagePath } from '../routes';

/** What a figure counts. A claim's figure is compared with the merchant's in its own unit only. */
export type ClaimUnit = 'days' | 'dollars' | 'percent' | 'auctions';

/** How the merchant's figure must stand to the site's: "over 3,000" is proved by 3,500 (≥); a quoted 60-day window only by 60 (=). */
export type Comparison = '=' | '≥' | '≤';

/** A place the copy makes the claim: a page and the id of its section ('intro' or 'meta' for a page's head). */
export interface ClaimUse {
  page: PagePath;
  section: string;
}

/**
 * Where the evidence is: a path on MERCHANT_URL ('/refund-policy'), '' for its home page (a lone slash is
 * the site's own home page, spelled only in shared/routes.ts), or an absolute https address of its own.
 */
type MerchantPage = '' | `/${string}` | `https://${string}`;

interface EvidenceBase {
  page: MerchantPage;
  /**
   * A snippet of the merchant's page (HTML, or a JSON-LD script) that satisfies this item. A unit test
   * holds every example to its item, and the same example with its figure changed to a contradiction.
   */
  example: string;
}

/**
 * The words on the page, after Unicode NFKC, case folding and collapsed whitespace on both sides (and
 * typographic quotes and dashes read as plain ones). With `selector`, only the text inside the elements
 * it matches counts; a selector that matches nothing means the page changed shape.
 */
export interface PhraseEvidence extends EvidenceBase {
  kind: 'phrase';
  phrase: string;
  selector?: string;
}

/**
 * A figure in the page's text: `pattern` has exactly one capturing group around the number ("$1,000+",
 * "3,500" and "49.00" are read as numbers) and is matched, case-insensitively, against the normalised
 * text. Every match must stand to the claim's value as `compare` says: one that does not is a
 * contradiction, so a page that states two refund windows is one to look at.
 */
export interface NumberEvidence extends EvidenceBase {
  kind: 'number';
  pattern: RegExp;
  compare: Comparison;
  selector?: string;
}

/**
 * A field of the page's JSON-LD, named by its type and property path ('Offer.price',
 * 'MerchantReturnPolicy.merchantReturnDays'), followed through `@graph`, nested objects and arrays;
 * numbers are compared as numbers ("49.0" is 49).
 */
export interface JsonLdEvidence extends EvidenceBase {
  kind: 'jsonLd';
  field: string;
  compare: Comparison;
}

export type Evidence = PhraseEvidence | NumberEvidence | JsonLdEvidence;

interface ClaimBase {
  id: string;
  /** What the site says, in one line, as an alert or /admin would name the claim. */
  says: string;
  usedIn: readonly ClaimUse[];
  /** How long a verification stands before the claim counts as unchecked (7 days unless set). */
  maxAgeDays: number;
}

/** A claim with a figure the copy takes from here (60 days, 3,000 auctions, $100, 90%). Every evidence item must hold. */
export interface FigureClaim extends ClaimBase {
  value: number;
  unit: ClaimUnit;
  evidence: readonly [Evidence, ...Evidence[]];
}

/** A claim without a figure ("a one-time payment for lifetime access"): shown by phrases only. Every item must hold. */
export interface StatementClaim extends ClaimBase {
  evidence: readonly [PhraseEvidence, ...PhraseEvidence[]];
}

export type Claim = FigureClaim | StatementClaim;

export function isFigureClaim(claim: Claim): claim is FigureClaim {
  return 'value' in claim;
}

export const defaultMaxAgeDays = 7;

/** A claim's figure as the copy writes it: '60' (before "-day" or " days"), '3,000', '$100', '90%'. */
export function claimFigure(claim: FigureClaim): string {
  const grouped = String(claim.value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (claim.unit === 'dollars') return `$${grouped}`;
  if (claim.unit === 'percent') return `${grouped}%`;
  return grouped;
}
