import { idColumn, type Migration } from './migration';

/**
 * 2: state that several instances share: the daily salt, link-check history, and jobs run once per period.
 */
const migration: Migration = async (db, engine) => {
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
};

export default migration;
