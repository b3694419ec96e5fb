import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { utcDay } from '../lib/utcDay';
import type { FilteredBeacon, FilterReason } from '../dayCounts/filterReasons';

/**
 * The beacons' reports that were not counted, counted in memory per process and added to
 * filtered_counts every few seconds (and at shutdown), so counting one never waits on the database nor
 * fails a request. These counts are not acknowledged reports: a crash loses the ones not yet flushed,
 * at most flushIntervalMs of them.
 */
export interface FilteredCounter {
  /** Counts one report not counted. Never throws and never waits. */
  count(beacon: FilteredBeacon, reason: FilterReason, at: Date): void;
  /**
   * Adds everything counted before the call to the database (joining a flush under way, then writing
   * what is left), and forgets it once committed. A failed write keeps the counts for the next flush.
   * Never rejects: true when everything was written, false when the database did not take it.
   */
  flush(): Promise<boolean>;
  /** Keys (day, beacon, reason) held in memory: at most maxFilteredKeys. */
  readonly held: number;
  /** Reports given up since start because the map was full (flushes failing for weeks) or their time was not a date. */
  readonly lost: number;
}

/** How often server/main.ts flushes: what a crash may lose. */
export const flushIntervalMs = 10_000;

/**
 * The bound of the in-memory map. Its keys are the server's own (the day of the server's clock, three
 * beacons, eight reasons: 24 a day), so no request can add keys of its choosing; only a database that
 * refuses every flush for days makes it grow, and this holds 100 days of every key. Past it, the oldest
 * day's counts are given up first.
 */
export const maxFilteredKeys = 2_400;

type Key = `${string} ${FilteredBeacon} ${FilterReason}`;

export function createFilteredCounter(db: Kysely<Schema>, { maxKeys = maxFilteredKeys } = {}): FilteredCounter {
  let counts = new Map<Key, number>();
  let lost = 0;
  let running: Promise<boolean> | undefined;

  const add = (key: Key, by: number) => {
    const held = counts.get(key);
    if (held !== undefined) {
      counts.set(key, held + by);
      return;
    }
    if (counts.size >= maxKeys) {
      // Keys start with the day, so the smallest is the oldest day's: a flood is told by the newest days.
      let oldest: Key | undefined;
      for (const candidate of counts.keys()) if (oldest === undefined || candidate < oldest) oldest = candidate;
      if (oldest !== undefined && oldest > key) {
        lost += by;
        return;
      }
      lost += counts.get(oldest!) ?? 0;
      counts.delete(oldest!);
    }
    counts.set(key, by);
  };

  const write = async (): Promise<boolean> => {
    if (counts.size === 0) return true;
    const taken = counts;
    counts = new Map();
    const rows = [...taken].map(([key, count]) => {
      const [day, beacon, reason] = key.split(' ') as [string, FilteredBeacon, FilterReason];
      return { day, beacon, reason, count };
    });
    try {
      // One statement, so it is all added or none is; the addition happens in the database, so any
      // number of instances flushing the same keys add up.
      await db
        .insertInto('filtered_counts')
        .values(rows)
        .onConflict((conflict) => conflict.columns(['day', 'beacon', 'reason']).doUpdateSet((eb) => ({ count: eb('filtered_counts.count', '+', eb.ref('excluded.count')) })))
        .execute();
      return true;
    } catch {
      // The database is down (its outage is logged once by the availability tracker): keep them for the next flush.
      for (const [key, count] of taken) add(key, count);
      return false;
    }
  };

  return {
    count(beacon, reason, at) {
      const time = at.getTime();
      if (Number.isNaN(time)) {
        lost += 1;
        return;
      }
      add(`${utcDay(at)} ${beacon} ${reason}`, 1);
    },
    async flush() {
      if (running) await running;
      // Another caller waiting on the same flush may have started the next one first: it writes these counts too.
      running ??= write().finally(() => {
        running = undefined;
      });
      return running;
    },
    get held() {
      return counts.size;
    },
    get lost() {
      return lost;
    },
  };
}
