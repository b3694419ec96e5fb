import { claimList, claims } from '../../../shared/content/claims';
import { claimFigure, isFigureClaim, type Claim, type Comparison, type Evidence } from '../../../shared/content/claimTypes';
import { checkEvidence } from '../../../server/claims/evidence';
import { captureGroups } from '../../../server/claims/normalText';

/** Each evidence item with its claim, named for the test's title. */
const items = claimList.flatMap((claim) => claim.evidence.map((evidence, at) => ({ name: `${claim.id} #${at + 1} (${evidence.kind})`, claim, evidence })));
const figureItems = items.filter((item) => item.evidence.kind !== 'phrase');

/** A figure that breaks the comparison: half of a quoted one, one under an "at least", one over an "at most". */
function contradicting(value: number, compare: Comparison): number {
  if (compare === '≥') return value - 1;
  if (compare === '≤') return value + 1;
  return Math.round(value / 2);
}

const grouped = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The example with every whole occurrence of the claim's figure (3,000 or 3000) written as another. */
function withFigure(example: string, value: number, other: number): string {
  const written = new RegExp(`(?<![\\d,.])(?:${grouped(value)}|${value})(?![\\d]|[,.]\\d)`, 'g');
  if (!written.test(example)) throw new Error(`The example does not write the claim's figure ${value}: ${example}`);
  return example.replace(written, grouped(other));
}

const claimed = (claim: Claim) => (isFigureClaim(claim) ? claim.value : undefined);

describe('the claims registry', () => {
  it('names each claim by its key, once', () => {
    expect(Object.entries(claims).filter(([key, claim]) => key !== claim.id)).toEqual([]);
    expect(new Set(claimList.map((claim) => claim.id)).size).toBe(claimList.length);
  });

  it('gives each claim what it says, where, a whole number of days to stand and at least one evidence item', () => {
    for (const claim of claimList) {
      expect([claim.id, claim.says.length > 0, claim.usedIn.length > 0, Number.isInteger(claim.maxAgeDays) && claim.maxAgeDays >= 1, claim.evidence.length > 0]).toEqual([claim.id, true, true, true, true]);
    }
  });

  it('says each figure as the copy writes it', () => {
    const unsaid = claimList.filter(isFigureClaim).filter((claim) => !claim.says.includes(claimFigure(claim)) || !Number.isInteger(claim.value) || claim.value <= 0);
    expect(unsaid.map((claim) => claim.id)).toEqual([]);
  });

  it.each([
    ['refundWindow', '60'],
    ['auctionsListed', '3,000'],
    ['autoAuctionsSchool', '5'],
    ['auctionsFrom', '$100'],
    ['savingsUpTo', '90%'],
    ['savingsInBenefits', '95%'],
  ] as const)('writes %s as %s', (id, figure) => {
    expect(claimFigure(claims[id])).toBe(figure);
  });

  it('names merchant pages as a path or an absolute https address', () => {
    for (const { evidence } of items) expect(new URL(evidence.page, 'https://merchant.example.com').protocol).toBe('https:');
  });

  it('gives every number pattern exactly one capturing group', () => {
    const numbers = items.flatMap(({ name, evidence }) => (evidence.kind === 'number' ? [[name, captureGroups(evidence.pattern)]] : []));
    expect(numbers.filter(([, groups]) => groups !== 1)).toEqual([]);
  });

  it.each(items.map((item) => [item.name, item] as const))('verifies %s on its own example', (_, { claim, evidence }) => {
    expect(checkEvidence(evidence.example, evidence, claimed(claim))).toEqual({ verdict: 'verified', excerpt: expect.any(String) });
  });

  it.each(figureItems.map((item) => [item.name, item] as const))('contradicts %s when the example says another figure', (_, { claim, evidence }) => {
    const value = claimed(claim)!;
    const other = contradicting(value, (evidence as Exclude<Evidence, { kind: 'phrase' }>).compare);
    expect(checkEvidence(withFigure(evidence.example, value, other), evidence, value)).toEqual({ verdict: 'contradicted', found: other, excerpt: expect.any(String) });
  });

  it.each(items.filter((item) => 'selector' in item.evidence).map((item) => [item.name, item] as const))('says %s changed shape when its selector is gone', (_, { claim, evidence }) => {
    const selector = (evidence as { selector: string }).selector;
    expect(checkEvidence('<main><p>Nothing here</p></main>', evidence, claimed(claim))).toEqual({ verdict: 'shapeChanged', selector });
  });
});
