import { sql, type Kysely } from 'kysely';
import { createFilteredCounter } from '../../server/beacons/filteredCounter';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createCostStore } from '../../server/costs/costStore';
import type { AppDatabase } from '../../server/db/openDatabase';
import { databaseLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { recordRelease } from '../../server/releases/recordRelease';
import { createViewStore, type View } from '../../server/views/viewStore';
import { createLeaveStore } from '../../server/leaves/leaveStore';
import { newClickId } from '../../shared/affiliate';
import { writeClaimRows } from './claimRows';
import { closeDaysAndForget } from './closeDays';

/**
 * Rows in every table the site keeps, on either engine, written as the site writes them (as
 * tests/server/dbCopy.test.ts builds its source): raw clicks and views, conversions with their history,
 * folded days and conversions, a link check, filtered counts, releases, incidents, costs, fixed costs, and
 * the shared state (salts, job claims, the outbox, an experiment's folded sale).
 */
export async function writeEveryTable(database: AppDatabase, today = new Date()): Promise<void> {
  const longAgo = new Date(today.getTime() - 400 * 86_400_000);
  const click = (overrides: Partial<Click>): Click => ({ at: today, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'a', via: 'beacon', ...overrides });
  const view = (overrides: Partial<View>): View => ({ at: today, page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: 'a', ...overrides });
  const report = (fields: ConversionFields) => {
    const parsed = parseConversion(fields);
    if (parsed.error) throw new Error(parsed.error.message);
    return parsed.report;
  };
  const { db } = database;
  const clicks = createClickStore(db);
  const views = createViewStore(db);
  const conversions = createConversionStore(db);
  const clickId = newClickId('bonus');
  await clicks.record(click({}));
  await clicks.record(click({ placement: 'bonus', page: '/about-us', visitor: 'b', device: 'tablet', clickId, source: 'newsletter', variants: 'headline:b' }));
  await clicks.record(click({ at: longAgo, placement: 'explainer', visitor: 'c', source: 'www.google.com' }));
  await views.record(view({ source: 'newsletter', medium: 'email', campaign: 'november', referrerHost: 'mail.example.com' }));
  await views.record(view({ at: longAgo, visitor: 'c', source: 'www.google.com', referrerHost: 'www.google.com' }));
  const leave = { page: '/', device: 'mobile', variants: '', sections: ['hero', 'what-is'], seen: ['hero'], clicked: ['hero'], engagedSeconds: 42 } as const;
  await createLeaveStore(db).record({ ...leave, at: today, visitor: 'a' });
  await createLeaveStore(db).record({ ...leave, at: longAgo, visitor: 'c', sections: ['hero'], engagedSeconds: 3 });
  await conversions.record(report({ txid: 'T-1', subid: clickId, payout: '40.25' }), 'postback');
  await conversions.record(report({ txid: 'T-2', subid: 'hero', payout: '12.5', currency: 'EUR' }), 'import');
  await conversions.record(report({ txid: 'T-2', subid: 'hero', status: 'refund' }), 'postback');
  await conversions.record(report({ txid: 'T-old', subid: 'explainer', payout: '9' }), 'postback', longAgo);
  const adClickId = newClickId('explainer');
  await clicks.record(click({ at: longAgo, placement: 'explainer', visitor: 'c', source: 'www.google.com', campaign: 'spring', content: 'video', clickId: adClickId }));
  await conversions.record(report({ txid: 'T-old-ad', subid: adClickId, payout: '11' }), 'postback', longAgo);
  await closeDaysAndForget(db, 30, today);
  await conversions.foldOldConversions(30, today);
  await databaseLinkCheckLog(db, async () => true).add({ checkedAt: today, url: 'https://partner.example.net/join', finalUrl: 'https://partner.example.net/join', status: 200, redirects: 0, ms: 80, verdict: 'ok' });
  const filtered = createFilteredCounter(db);
  filtered.count('view', 'bot', today);
  filtered.count('click', 'malformed', longAgo);
  await filtered.flush();
  await recordRelease(db, { stamp: 'a'.repeat(64), files: { 'art/hero.svg': '0123456789abcdef' } }, longAgo);
  await db
    .insertInto('incidents')
    .values({ rule: 'views', subject: '', opened_at: today.getTime() - 600_000, closed_at: null, summary: 'No page views recorded…', recovery: null })
    .execute();
  const costs = createCostStore(db);
  await costs.replaceCosts([{ day: '2026-11-21', source: 'google', campaign: '', content: '', amountMicros: 12_500_000, currency: 'EUR' }], today);
  await costs.setFixedCost({ source: 'newsletter', campaign: '', from: '2026-01-01', to: '2026-01-31', dailyMicros: 12_500_000, perVisitorMicros: null, currency: 'USD' }, longAgo);
  // What the site keeps besides the funnel, each as its own code writes it elsewhere; written directly here.
  await db.insertInto('visitor_salts').values({ day: '2026-11-21', salt: 'c2FsdA' }).onConflict((conflict) => conflict.doNothing()).execute();
  await db.insertInto('job_runs').values({ job: 'fold', period: '2026-11-21', claimed_at: today.getTime() }).onConflict((conflict) => conflict.doNothing()).execute();
  await db.insertInto('outbox').values({ incident_id: null, event: 'open', channel: 'webhook', payload: '{"text":"…"}', created_at: today.getTime(), next_attempt_at: today.getTime() }).execute();
  await db
    .insertInto('daily_variant_conversions')
    .values({ day: '2025-01-15', variants: 'headline:b', currency: 'USD', conversions: 1, payout_micros: 9_000_000 })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  await writeClaimRows(db, today.getTime());
}

/** The database's tables, by name. */
export async function tableNames(database: AppDatabase): Promise<string[]> {
  const db = database.db as Kysely<any>;
  const names =
    database.engine === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return names.rows.map((row) => row.name).sort();
}

/** Every table's rows, ids and all, each row as JSON of its columns in name order, sorted: two databases with the same rows compare equal. */
export async function everyTableRows(database: AppDatabase): Promise<Record<string, string[]>> {
  const db = database.db as Kysely<any>;
  const tables = await tableNames(database);
  const rows = await Promise.all(
    tables.map(async (table) => {
      const found = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
      return [table, found.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))).sort()] as const;
    }),
  );
  return Object.fromEntries(rows);
}
