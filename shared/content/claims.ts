/**
 * The claims registry: every fact the copy states about the merchant's offer, where the copy states it,
 * and the evidence on the merchant's own pages (docs/claims.md). The copy takes each figure from here
 * (claimFigure), so the words and the claim cannot drift apart, and a test refuses a claim-like figure
 * in the copy that no claim names.
 *
 * The merchant pages, patterns and examples below are written from the copy and the shape of a typical
 * sales page: before relying on them, check each against the merchant's real pages and correct it.
 */
import { paths } from '../routes';
import { defaultMaxAgeDays, type Claim, type FigureClaim, type StatementClaim } from './claimTypes';

const refundWindow = {
  id: 'refundWindow',
  says: 'A 60-day refund, return or cancellation window under the official platform’s terms',
  value: 60,
  unit: 'days',
  usedIn: [
    { page: paths.home, section: 'hero' },
    { page: paths.home, section: 'benefits' },
    { page: paths.home, section: 'faq' },
    { page: paths.about, section: 'our-approach' },
    { page: paths.terms, section: 'purchases-and-refunds' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'number',
      page: '/refund-policy',
      pattern: /(\d+)-day (?:money-back guarantee|refund)/,
      compare: '=',
      example: '<p>Every membership comes with a <strong>60-day money-back guarantee</strong>. Ask for a refund, return or cancellation by e-mail.</p>',
    },
    {
      kind: 'jsonLd',
      page: '',
      field: 'MerchantReturnPolicy.merchantReturnDays',
      compare: '=',
      example:
        '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Product","name":"Auto Auctions membership","offers":{"@type":"Offer","price":"49.00","priceCurrency":"USD","hasMerchantReturnPolicy":{"@type":"MerchantReturnPolicy","returnPolicyCategory":"https://schema.org/MerchantReturnFiniteReturnWindow","merchantReturnDays":60}}}]}</script>',
    },
  ],
} as const satisfies FigureClaim;

const lifetimeAccess = {
  id: 'lifetimeAccess',
  says: 'A one-time payment for lifetime access, with no subscription',
  usedIn: [
    { page: paths.home, section: 'hero' },
    { page: paths.home, section: 'how-it-works' },
    { page: paths.home, section: 'benefits' },
    { page: paths.home, section: 'faq' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    { kind: 'phrase', page: '', phrase: 'one-time payment', example: '<li>One-time payment. No monthly fees.</li>' },
    { kind: 'phrase', page: '', phrase: 'lifetime access', example: '<li>Lifetime access to the members’ area</li>' },
  ],
} as const satisfies StatementClaim;

const auctionsListed = {
  id: 'auctionsListed',
  says: 'Over 3,000 U.S. auctions listed',
  value: 3000,
  unit: 'auctions',
  usedIn: [
    { page: paths.home, section: 'what-is' },
    { page: paths.home, section: 'benefits' },
    { page: paths.terms, section: 'no-guarantee' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'number',
      page: '',
      pattern: /over (\d[\d,]*)\+? (?:u\.s\. |us )?(?:government |public )?auctions/,
      compare: '≥',
      example: '<p>Find cars at <b>over 3,000</b> U.S. auctions, updated every week.</p>',
    },
  ],
} as const satisfies FigureClaim;

const autoAuctionsSchool = {
  id: 'autoAuctionsSchool',
  says: 'The 5-day Auto Auctions School is part of the membership',
  value: 5,
  unit: 'days',
  usedIn: [
    { page: paths.home, section: 'what-is' },
    { page: paths.home, section: 'how-it-works' },
    { page: paths.home, section: 'faq' },
    { page: paths.about, section: 'our-approach' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'number',
      page: '',
      pattern: /(\d+)-day auto auctions school/,
      compare: '=',
      example: '<h3>The 5-Day Auto&nbsp;Auctions School</h3><p>One lesson a day.</p>',
    },
  ],
} as const satisfies FigureClaim;

const auctionsFrom = {
  id: 'auctionsFrom',
  says: 'Many auctions start at $100, per the membership',
  value: 100,
  unit: 'dollars',
  usedIn: [
    { page: paths.home, section: 'benefits' },
    { page: paths.terms, section: 'no-guarantee' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'number',
      page: '',
      pattern: /(?:start|starting) (?:at|from) (\$\d[\d,]*)/,
      compare: '=',
      example: '<li>Vehicles at auctions starting from $100</li>',
    },
  ],
} as const satisfies FigureClaim;

/**
 * The savings figures are the merchant's statement, and the copy says so ("The membership says …"): the
 * evidence can show only that the merchant still says it, never that a buyer saves as much.
 */
const savingsUpTo = {
  id: 'savingsUpTo',
  says: 'The membership says buyers can save up to 90% off retail prices',
  value: 90,
  unit: 'percent',
  usedIn: [
    { page: paths.home, section: 'hero' },
    { page: paths.terms, section: 'no-guarantee' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'number',
      page: '',
      selector: 'header',
      pattern: /save up to (\d+)%/,
      compare: '=',
      example: '<header><h1>Buy Cars for Less</h1><p>Save up to 90% off retail prices.</p></header>',
    },
  ],
} as const satisfies FigureClaim;

const savingsInBenefits = {
  id: 'savingsInBenefits',
  says: 'The membership says buyers can save up to 95% off retail prices (its list of benefits)',
  value: 95,
  unit: 'percent',
  usedIn: [
    { page: paths.home, section: 'benefits' },
    { page: paths.terms, section: 'no-guarantee' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'number',
      page: '',
      selector: '#benefits',
      pattern: /save up to (\d+)%/,
      compare: '=',
      example: '<section id="benefits"><h2>Benefits</h2><ul><li>Save up to 95% off retail</li></ul></section>',
    },
  ],
} as const satisfies FigureClaim;

const venuesInAllStates = {
  id: 'venuesInAllStates',
  says: 'Verified auction venues, with their contact details, in every state',
  usedIn: [
    { page: paths.home, section: 'what-is' },
    { page: paths.home, section: 'check-auctions' },
  ],
  maxAgeDays: defaultMaxAgeDays,
  evidence: [
    {
      kind: 'phrase',
      page: '',
      phrase: 'auction venues in all 50 states',
      example: '<li>Verified auction venues in all 50 states, with phone numbers</li>',
    },
  ],
} as const satisfies StatementClaim;

/** Every claim by its id: the copy reads `claims.refundWindow`, the watch reads `claimList`. */
export const claims = { refundWindow, lifetimeAccess, auctionsListed, autoAuctionsSchool, auctionsFrom, savingsUpTo, savingsInBenefits, venuesInAllStates };

export type ClaimId = keyof typeof claims;

export const claimList: readonly Claim[] = Object.values(claims);
