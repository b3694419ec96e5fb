/**
 * npm run claims -- [--check] [--json] [--db FILE]
 *
 * Each claim of the registry (shared/content/claims.ts), its verdict against the merchant's pages, when it
 * was last verified, and what the page says: as the server's claims watch last recorded them, or, with
 * --check, checked now (MERCHANT_URL's pages fetched under the watch's rules, the verdicts saved) and then
 * shown. --json gives each claim with its evidence items, their examples and outcomes.
 * Exit codes: 0 all verified, 1 any contradicted or missing, 2 none contradicted but some unknown or stale, 64 bad arguments.
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { claimList } from '../shared/content/claims';
import { isFigureClaim, type Claim, type Evidence } from '../shared/content/claimTypes';
import { checkClaims } from '../server/claims/checkClaims';
import { databaseClaimStore, type ClaimState } from '../server/claims/claimStore';
import { claimsCheckOff } from '../server/claims/claimsWatch';
import { decidingItem, evidenceUrl, itemKey, withStaleness, type ClaimVerdict } from '../server/claims/claimVerdict';
import { ConfigError, loadConfig } from '../server/config';
import { databaseHostHolds } from '../server/fetching/hostHolds';
import { createSiteFetcher } from '../server/fetching/siteFetcher';
import { formatMoment } from '../server/lib/utcDay';
import { table } from '../server/lib/textTable';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';
import { runCommand, type CommandMain } from './runCommand';

const usage = 'usage: npm run claims -- [--check] [--json] [--db FILE]';

/** A claim as shown: its verdict now (stale reckoned at the moment shown) and its last state, if any. */
interface ShownClaim {
  claim: Claim;
  verdict: ClaimVerdict;
  state: ClaimState | undefined;
}

export const main: CommandMain = async (argv, env, out, err) => {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { check: { type: 'boolean' }, json: { type: 'boolean' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    err(`claims: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  if (values.help) {
    out(`${usage}\n  --check   check the merchant's pages now and wait for the verdicts\n  --json    each claim with its evidence, examples and outcomes\n  --db FILE a SQLite file instead of DATABASE_URL or CLICKS_DB\nExit codes: 0 all verified, 1 any contradicted or missing, 2 none contradicted but some unknown or stale, 64 bad arguments.\n`);
    return 0;
  }
  let config;
  try {
    config = loadConfig({ AFFILIATE_URL: env.AFFILIATE_URL, MERCHANT_URL: env.MERCHANT_URL, SITE_URL: env.SITE_URL, HOST: env.HOST, PORT: env.PORT });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`claims: ${error.message}\n`);
    return 1;
  }
  const settings = commandDatabaseSettings('claims', values.db, env, err);
  if (!settings) return 1;
  const database = await openCommandDatabase('claims', settings, err, { readOnly: !values.check });
  if (!database) return 1;
  try {
    const store = databaseClaimStore(database.db);
    if (values.check) {
      const off = claimsCheckOff(config.merchantUrl, 1, true);
      if (off) err(`claims: not checked: ${off}; showing the verdicts last recorded\n`);
      else await checkClaims({ claims: claimList, merchantUrl: config.merchantUrl, fetcher: createSiteFetcher(config.siteUrl, { holds: databaseHostHolds(database.db) }), store, now: Date.now });
    }
    const states = await store.states();
    const now = Date.now();
    const shown = claimList.map((claim): ShownClaim => {
      const state = states.get(claim.id);
      const verdict = state
        ? withStaleness(state.verdict, { lastVerifiedAt: state.verifiedAt, firstCheckedAt: state.firstCheckedAt, now, maxAgeDays: claim.maxAgeDays })
        : 'unknown';
      return { claim, verdict, state };
    });
    out(values.json ? `${JSON.stringify(shown.map((each) => asJson(each, config.merchantUrl)), null, 2)}\n` : asText(shown));
    if (shown.some(({ verdict }) => verdict === 'contradicted' || verdict === 'missing')) return 1;
    return shown.some(({ verdict }) => verdict !== 'verified') ? 2 : 0;
  } finally {
    await database.close();
  }
};

function asText(shown: readonly ShownClaim[]): string {
  const rows = shown.map(({ claim, verdict, state }) => {
    const deciding = state && decidingItem(state.items);
    return [
      claim.id,
      verdict,
      state?.verifiedAt === undefined ? (state ? 'never' : 'never checked') : formatMoment(state.verifiedAt),
      deciding?.url ?? '',
      (deciding?.excerpt ?? deciding?.reason ?? '').slice(0, 100),
    ];
  });
  return `${table([['claim', 'verdict', 'last verified', 'page', 'what the page says'], ...rows], 5)}\n`;
}

function asJson({ claim, verdict, state }: ShownClaim, merchantUrl: string) {
  return {
    id: claim.id,
    says: claim.says,
    ...(isFigureClaim(claim) ? { value: claim.value, unit: claim.unit } : {}),
    usedIn: claim.usedIn,
    maxAgeDays: claim.maxAgeDays,
    verdict,
    since: state ? new Date(state.since).toISOString() : null,
    checkedAt: state ? new Date(state.checkedAt).toISOString() : null,
    verifiedAt: state?.verifiedAt === undefined ? null : new Date(state.verifiedAt).toISOString(),
    evidence: claim.evidence.map((evidence: Evidence, index) => ({
      url: evidenceUrl(evidence, merchantUrl),
      ...evidenceShape(evidence),
      example: evidence.example,
      outcome: state?.items.find((item) => item.key === itemKey(evidence, index)) ?? null,
    })),
  };
}

function evidenceShape(evidence: Evidence) {
  if (evidence.kind === 'phrase') return { kind: evidence.kind, phrase: evidence.phrase, ...(evidence.selector ? { selector: evidence.selector } : {}) };
  if (evidence.kind === 'number') return { kind: evidence.kind, pattern: evidence.pattern.source, compare: evidence.compare, ...(evidence.selector ? { selector: evidence.selector } : {}) };
  return { kind: evidence.kind, field: evidence.field, compare: evidence.compare };
}

if (require.main === module) runCommand(main);
