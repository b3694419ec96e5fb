import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { addDays, utcDay } from '../lib/utcDay';
import type { Schema } from '../db/schema';

export type VisitorHasher = (ip: string, userAgent: string) => Promise<string>;

/**
 * The day's salt for visitor hashes, shared by every instance through the database: made at random by
 * the first instance that needs it on a UTC day, and deleted once it is two days old (at most 48 hours
 * after its day began, plus the maintenance interval), so no hash can ever be recomputed later.
 */
export async function saltFor(db: Kysely<Schema>, day: string): Promise<Buffer> {
  await db
    .insertInto('visitor_salts')
    .values({ day, salt: randomBytes(32).toString('hex') })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .execute();
  const row = await db.selectFrom('visitor_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
  return Buffer.from(row.salt, 'hex');
}

/** Deletes every salt older than yesterday's: yesterday's is kept only so a day's last minutes are never cut short. */
export async function forgetOldSalts(db: Kysely<Schema>, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('visitor_salts').where('day', '<', addDays(utcDay(now), -1)).execute();
}

/**
 * Makes the visitor hash used for unique counts: an HMAC of IP address and user agent under the day's
 * shared salt. The same visitor hashes the same within a day on every instance and across restarts;
 * across days, and from the database alone once the salt is gone, hashes cannot be linked to a person
 * or to each other. The salt is read once a day per instance and kept in memory.
 */
export function createVisitorHasher(db: Kysely<Schema>, now: () => Date = () => new Date()): VisitorHasher {
  let cached: { day: string; salt: Promise<Buffer> } | undefined;
  return async (ip, userAgent) => {
    const day = utcDay(now());
    if (cached?.day !== day) {
      const salt = saltFor(db, day);
      cached = { day, salt };
      // A failed read (the database is down) is not kept: the next request asks again.
      salt.catch(() => {
        if (cached?.salt === salt) cached = undefined;
      });
    }
    const salt = await cached.salt;
    // 128 bits: collisions between a day's visitors are out of the question, and nothing longer is needed.
    // The first 22 characters are read from the 17 bytes they encode, not from the whole digest's text,
    // which a slice of it would keep alive behind every limiter key (43 characters where 23 will do).
    return createHmac('sha256', salt).update(ip).update('\n').update(userAgent).digest().subarray(0, 17).toString('base64url').slice(0, 22);
  };
}
