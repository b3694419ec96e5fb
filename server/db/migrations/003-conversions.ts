import { idColumn, type Migration } from './migration';

/**
 * 3: conversions the affiliate networks report (postbacks and CSV imports). One row per network
 * transaction ID holds its current state; the unique txid makes a retried sale a no-op on either
 * engine (INSERT ... ON CONFLICT DO NOTHING). Every accepted report is also kept as an event, so a
 * reversal changes the state and the history stays. Payouts are whole millionths of the currency
 * unit: exact, and summed without floating point. click_id is indexed for the join to clicks.
 */
const migration: Migration = async (db, engine) => {
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
};

export default migration;
