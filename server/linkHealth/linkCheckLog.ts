import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { LinkCheckResult, LinkVerdict } from './checkLink';

/**
 * Where link checks are kept. With a database, every instance writes to and reads from the same
 * history, so all show the same banner and only one makes each due check; with click counting off there
 * is no database, and the one process keeps its own history in memory.
 */
export interface LinkCheckLog {
  /** True for the first caller of a due check (linkCheckClaim in linkMonitor.ts names it), false for every later one. */
  claim(key: string): Promise<boolean>;
  add(result: LinkCheckResult): Promise<void>;
  /** The latest checks, newest first. */
  recent(limit: number): Promise<LinkCheckResult[]>;
}

export function databaseLinkCheckLog(db: Kysely<Schema>, claimRun: (job: string, period: string) => Promise<boolean>): LinkCheckLog {
  return {
    claim: (key) => claimRun('link-check', key),
    async add(result) {
      await db
        .insertInto('link_checks')
        .values({
          checked_at: result.checkedAt.getTime(),
          url: result.url,
          final_url: result.finalUrl,
          status: result.status ?? null,
          redirects: result.redirects,
          ms: result.ms,
          error: result.error ?? null,
          verdict: result.verdict,
        })
        .execute();
    },
    async recent(limit) {
      const rows = await db.selectFrom('link_checks').selectAll().orderBy('checked_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => ({
        checkedAt: new Date(Number(row.checked_at)),
        url: row.url,
        finalUrl: row.final_url,
        ...(row.status === null ? {} : { status: row.status }),
        redirects: row.redirects,
        ms: row.ms,
        ...(row.error === null ? {} : { error: row.error }),
        verdict: row.verdict as LinkVerdict,
      }));
    },
  };
}

/** The history of one process, for when there is no database; bounded, since only the latest checks matter. */
export function memoryLinkCheckLog(keep = 100): LinkCheckLog {
  const results: LinkCheckResult[] = [];
  const claimed = new Set<string>();
  return {
    async claim(key) {
      if (claimed.has(key)) return false;
      claimed.clear();
      claimed.add(key);
      return true;
    },
    async add(result) {
      results.unshift(result);
      results.length = Math.min(results.length, keep);
    },
    async recent(limit) {
      return results.slice(0, limit);
    },
  };
}
