import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/**
 * Each host's Retry-After, beyond the process that read it: no request to the host before its time, from
 * this process after a restart or from any other instance on the same database. The fetcher keeps its own
 * copy too (politeFetcher.ts), so a store that fails costs only the sharing, never a request too soon from here.
 */
export interface HostHolds {
  /** The time before which the host is not asked, or undefined when none is held. */
  until(host: string): Promise<number | undefined>;
  /** Holds the host until then (the later of this and a hold already kept). */
  hold(host: string, until: number): Promise<void>;
}

/** Holds in the statistics database (fetch_holds, schema 20). Holds past their time are deleted as new ones are kept. */
export function databaseHostHolds(db: Kysely<Schema>, now: () => number = Date.now): HostHolds {
  return {
    async until(host) {
      const row = await db.selectFrom('fetch_holds').select('until_at').where('host', '=', host).executeTakeFirst();
      return row === undefined ? undefined : Number(row.until_at);
    },
    async hold(host, until) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('fetch_holds').where('until_at', '<', now()).execute();
        await trx
          .insertInto('fetch_holds')
          .values({ host, until_at: until })
          .onConflict((conflict) =>
            conflict.column('host').doUpdateSet({ until_at: sql<number>`case when excluded.until_at > fetch_holds.until_at then excluded.until_at else fetch_holds.until_at end` }),
          )
          .execute();
      });
    },
  };
}
