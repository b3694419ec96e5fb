import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Engine } from './databaseSettings';

type Migration = (db: Kysely<any>, engine: Engine) => Promise<void>;

/** An auto-numbered primary key: SQLite's rowid alias, or a PostgreSQL identity column. */
function idColumn(engine: Engine) {
  return [engine === 'postgres' ? 'bigint' : 'integer', (column: ColumnDefinitionBuilder) =>
    engine === 'postgres' ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey()] as const;
}

/**
 * The schema's history, one step per version, for both engines. A released step is never edited: a
 * change is a new step. The steps applied are listed in schema_migrations.
 */
export const migrations: readonly Migration[] = [
  // 1: raw clicks, and the daily totals they are folded into once older than the retention period.
  // "if not exists": SQLite files from before schema_migrations existed already hold these tables.
  async (db, engine) => {
    await db.schema
      .createTable('clicks')
      .ifNotExists()
      .addColumn('id', ...idColumn(engine))
      .addColumn('at', 'bigint', (column) => column.notNull())
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('placement', 'text', (column) => column.notNull())
      .addColumn('page', 'text', (column) => column.notNull())
      .addColumn('referrer_host', 'text')
      .addColumn('device', 'text', (column) => column.notNull())
      .addColumn('visitor', 'text', (column) => column.notNull())
      .addColumn('via', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('clicks_by_day').ifNotExists().on('clicks').columns(['day', 'placement']).execute();
    await db.schema
      .createTable('daily_totals')
      .ifNotExists()
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('placement', 'text', (column) => column.notNull())
      .addColumn('clicks', 'integer', (column) => column.notNull())
      .addColumn('visitors', 'integer', (column) => column.notNull())
      .addPrimaryKeyConstraint('daily_totals_pk', ['day', 'placement'])
      .execute();
  },
  // 2: state that several instances share: the daily salt, link-check history, and jobs run once per period.
  async (db, engine) => {
    await db.schema
      .createTable('visitor_salts')
      .addColumn('day', 'text', (column) => column.primaryKey())
      .addColumn('salt', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('link_checks')
      .addColumn('id', ...idColumn(engine))
      .addColumn('checked_at', 'bigint', (column) => column.notNull())
      .addColumn('url', 'text', (column) => column.notNull())
      .addColumn('final_url', 'text', (column) => column.notNull())
      .addColumn('status', 'integer')
      .addColumn('redirects', 'integer', (column) => column.notNull())
      .addColumn('ms', 'integer', (column) => column.notNull())
      .addColumn('error', 'text')
      .addColumn('verdict', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('link_checks_by_time').on('link_checks').column('checked_at').execute();
    await db.schema
      .createTable('job_runs')
      .addColumn('job', 'text', (column) => column.notNull())
      .addColumn('period', 'text', (column) => column.notNull())
      .addColumn('claimed_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('job_runs_pk', ['job', 'period'])
      .execute();
  },
  // 3: conversions the affiliate networks report (postbacks and CSV imports). One row per network
  // transaction ID holds its current state; the unique txid makes a retried sale a no-op on either
  // engine (INSERT ... ON CONFLICT DO NOTHING). Every accepted report is also kept as an event, so a
  // reversal changes the state and the history stays. Payouts are whole millionths of the currency
  // unit: exact, and summed without floating point. click_id is indexed for the join to clicks.
  async (db, engine) => {
    await db.schema
      .createTable('conversions')
      .addColumn('id', ...idColumn(engine))
      .addColumn('txid', 'text', (column) => column.notNull())
      .addColumn('subid', 'text')
      .addColumn('click_id', 'text')
      .addColumn('placement', 'text')
      .addColumn('payout_micros', 'bigint')
      .addColumn('currency', 'char(3)', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('received_at', 'bigint', (column) => column.notNull())
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('reversed_at', 'bigint')
      .addUniqueConstraint('conversions_txid_unique', ['txid'])
      .execute();
    await db.schema.createIndex('conversions_by_day').on('conversions').columns(['day', 'placement']).execute();
    await db.schema.createIndex('conversions_by_click').on('conversions').column('click_id').execute();
    await db.schema
      .createTable('conversion_events')
      .addColumn('id', ...idColumn(engine))
      .addColumn('txid', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('outcome', 'text', (column) => column.notNull())
      .addColumn('subid', 'text')
      .addColumn('payout_micros', 'bigint')
      .addColumn('currency', 'char(3)', (column) => column.notNull())
      .addColumn('via', 'text', (column) => column.notNull())
      .addColumn('received_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('conversion_events_by_txid').on('conversion_events').columns(['txid', 'received_at']).execute();
  },
  // 4: the funnel. Clicks keep the click ID their sub-ID carried and the source that brought the visitor;
  // page views arrive as their own reports; a conversion keeps what its click said (the join by click ID
  // is made once, when the conversion arrives, so it survives the click's folding). Views and
  // conversions past retention fold into daily totals as clicks do. SQLite adds one column a statement.
  async (db, engine) => {
    for (const column of ['click_id', 'source']) await db.schema.alterTable('clicks').addColumn(column, 'text').execute();
    await db.schema.createIndex('clicks_by_click_id').on('clicks').column('click_id').execute();
    for (const column of ['click_day', 'page', 'source', 'device']) await db.schema.alterTable('conversions').addColumn(column, 'text').execute();
    await db.schema
      .createTable('views')
      .addColumn('id', ...idColumn(engine))
      .addColumn('at', 'bigint', (column) => column.notNull())
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('page', 'text', (column) => column.notNull())
      .addColumn('referrer_host', 'text')
      .addColumn('source', 'text')
      .addColumn('medium', 'text')
      .addColumn('campaign', 'text')
      .addColumn('device', 'text', (column) => column.notNull())
      .addColumn('visitor', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('views_by_day').on('views').columns(['day', 'source']).execute();
    await db.schema
      .createTable('daily_sources')
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('views', 'integer', (column) => column.notNull())
      .addColumn('visitors', 'integer', (column) => column.notNull())
      .addColumn('clicks', 'integer', (column) => column.notNull())
      .addColumn('clickers', 'integer', (column) => column.notNull())
      .addPrimaryKeyConstraint('daily_sources_pk', ['day', 'source'])
      .execute();
    await db.schema
      .createTable('daily_conversions')
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('placement', 'text', (column) => column.notNull())
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('currency', 'char(3)', (column) => column.notNull())
      .addColumn('conversions', 'integer', (column) => column.notNull())
      .addColumn('payout_micros', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('daily_conversions_pk', ['day', 'placement', 'source', 'currency'])
      .execute();
  },
  // 5: closed days. Each finished UTC day is closed once into daily_counts, one row per dimension and
  // value (see server/jobs/closeDays.ts), so reports read totals whose size does not grow with traffic;
  // raw rows stay until the retention period. The folded tables of step 1 and 4 become closed days too.
  async (db) => {
    await db.schema
      .createTable('daily_counts')
      .addColumn('dimension', 'text', (column) => column.notNull())
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('value', 'text', (column) => column.notNull())
      .addColumn('views', 'integer', (column) => column.notNull())
      .addColumn('visitors', 'integer', (column) => column.notNull())
      .addColumn('clicks', 'integer', (column) => column.notNull())
      .addColumn('clickers', 'integer', (column) => column.notNull())
      .addColumn('distinct_values', 'integer', (column) => column.notNull())
      .addPrimaryKeyConstraint('daily_counts_pk', ['dimension', 'day', 'value'])
      .execute();
    await db.schema
      .createTable('closed_days')
      .addColumn('day', 'text', (column) => column.primaryKey())
      .addColumn('closed_at', 'bigint', (column) => column.notNull())
      .execute();
    // insert ... select: the select lists its columns in this order.
    const counts = ['dimension', 'day', 'value', 'views', 'visitors', 'clicks', 'clickers', 'distinct_values'] as const;
    await db
      .insertInto('daily_counts')
      .columns(counts)
      .expression((eb) =>
        eb
          .selectFrom('daily_totals')
          .where('placement', '<>', '*')
          .select([sql.lit('placement').as('dimension'), 'day', 'placement as value', sql.lit(0).as('views'), sql.lit(0).as('visitors'), 'clicks', 'visitors as clickers', sql.lit(1).as('distinct_values')]),
      )
      .execute();
    await db
      .insertInto('daily_counts')
      .columns(counts)
      .expression((eb) =>
        eb
          .selectFrom('daily_sources')
          .where('source', '<>', '*')
          .select([sql.lit('source').as('dimension'), 'day', 'source as value', 'views', 'visitors', 'clicks', 'clickers', sql.lit(1).as('distinct_values')]),
      )
      .execute();
    // A folded day's totals: clicks from daily_totals' '*' row, views from daily_sources' '*' row.
    const folded = await db
      .selectFrom('daily_totals')
      .where('placement', '=', '*')
      .select(['day', 'clicks', 'visitors'])
      .execute();
    const foldedViews = new Map((await db.selectFrom('daily_sources').where('source', '=', '*').select(['day', 'views', 'visitors']).execute()).map((row) => [row.day, row]));
    const allDays = new Map<string, { views: number; visitors: number; clicks: number; clickers: number }>();
    for (const row of folded) allDays.set(row.day, { views: 0, visitors: 0, clicks: Number(row.clicks), clickers: Number(row.visitors) });
    for (const [day, row] of foldedViews) allDays.set(day, { ...(allDays.get(day) ?? { clicks: 0, clickers: 0 }), views: Number(row.views), visitors: Number(row.visitors) });
    for (const [day, row] of allDays) {
      await db.insertInto('daily_counts').values({ dimension: 'all', day, value: '', ...row, distinct_values: 1 }).execute();
      await db.insertInto('closed_days').values({ day, closed_at: Date.now() }).execute();
    }
    await db.schema.dropTable('daily_totals').execute();
    await db.schema.dropTable('daily_sources').execute();
  },
  // 6: a click ID is counted once, whichever instance a replayed report reaches: clicks.click_id becomes
  // unique, and the click store inserts with ON CONFLICT DO NOTHING. NULL (a click without an ID) stays
  // allowed any number of times on both engines. Replays stored before this step are removed first,
  // keeping the earliest row of each click ID (the lowest id among equal times).
  async (db) => {
    await db
      .deleteFrom('clicks')
      .where('click_id', 'is not', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('clicks as earlier')
            .select('earlier.id')
            .whereRef('earlier.click_id', '=', 'clicks.click_id')
            .where((eb) => eb.or([eb('earlier.at', '<', eb.ref('clicks.at')), eb.and([eb('earlier.at', '=', eb.ref('clicks.at')), eb('earlier.id', '<', eb.ref('clicks.id'))])])),
        ),
      )
      .execute();
    await db.schema.dropIndex('clicks_by_click_id').execute();
    await db.schema.createIndex('clicks_click_id_unique').on('clicks').column('click_id').unique().execute();
  },
  // 7: a report counts conversions under the day of their click, grouped by placement, source and
  // currency: an index on exactly those expressions, of the counted (not reversed) rows only, so a year's
  // report reads the index in day order and never the table (a third of the time on SQLite).
  async (db) => {
    await sql`create index conversions_counted on conversions (coalesce(click_day, day), coalesce(placement, ''), coalesce(source, ''), currency, payout_micros) where reversed_at is null`.execute(db);
  },
];

/** A database written by a newer version of the site: this one must not touch it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
  constructor(readonly found: number) {
    super(`schema ${found}, this version of the site knows ${migrations.length}`);
  }
}

/** Any number that fits: the key PostgreSQL's advisory lock takes, so instances starting together migrate one at a time. */
const migrationLockKey = 7_305_141_922;

async function appliedVersion(db: Kysely<any>): Promise<number> {
  const row = await db.selectFrom('schema_migrations').select((eb) => eb.fn.max<number | null>('version').as('version')).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Brings the schema up to date in one transaction. On PostgreSQL the transaction first takes an advisory
 * lock, so when several instances start together one migrates and the others then find nothing to do.
 */
export async function migrate(db: Kysely<any>, engine: Engine, now: () => number = Date.now): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(migrationLockKey)})`.execute(trx);
    await trx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (column) => column.primaryKey())
      .addColumn('applied_at', 'bigint', (column) => column.notNull())
      .execute();
    const version = await appliedVersion(trx);
    if (version > migrations.length) throw new SchemaTooNewError(version);
    for (let next = version + 1; next <= migrations.length; next += 1) {
      await migrations[next - 1]!(trx, engine);
      await trx.insertInto('schema_migrations').values({ version: next, applied_at: now() }).execute();
    }
    return migrations.length;
  });
}

/** For readers that must not write (npm run stats): the version the database is at, checked against this code. */
export async function checkSchemaVersion(db: Kysely<any>): Promise<number> {
  const version = await appliedVersion(db);
  if (version > migrations.length) throw new SchemaTooNewError(version);
  return version;
}
