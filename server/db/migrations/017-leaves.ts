import { idColumn, type Migration } from './migration';

/**
 * 17: leave reports (issue 29). One row per page view's leave report (server/leaves/): the sections the
 * visitor reached, the placements they saw, the seconds they read. Kept as raw rows are, for as long.
 * - views_by_day becomes (day, visitor, page) instead of (day, source): a leave report is taken only for
 *   a view of its page by its visitor that day, and never more than that page's views, so both are one
 *   index look-up on a year of views. Every other read of views by day (closing, the open days, retention)
 *   leads with the day as before, and nothing looked views up by source; a second index would have cost
 *   every view's insert (POST /api/views p99 up by about 3 ms in npm run bench), this one costs none.
 * - leaves_by_visitor: the same for the leaves already counted, and by day for retention; unique with each
 *   leave's ordinal among that visitor's leaves of the page that day, so a view's one leave is kept by the
 *   index itself when two arrive at once (server/leaves/leaveStore.ts).
 */
const migration: Migration = async (db, engine) => {
  await db.schema
    .createTable('leaves')
    .addColumn('id', ...idColumn(engine))
    .addColumn('at', 'bigint', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('page', 'text', (column) => column.notNull())
    .addColumn('device', 'text', (column) => column.notNull())
    .addColumn('visitor', 'text', (column) => column.notNull())
    .addColumn('variants', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('sections', 'text', (column) => column.notNull())
    .addColumn('seen', 'text', (column) => column.notNull())
    .addColumn('engaged_seconds', 'integer', (column) => column.notNull())
    .addColumn('ordinal', 'integer', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('leaves_by_visitor').unique().on('leaves').columns(['day', 'visitor', 'page', 'ordinal']).execute();
  await db.schema.dropIndex('views_by_day').execute();
  await db.schema.createIndex('views_by_day').on('views').columns(['day', 'visitor', 'page']).execute();
};

export default migration;
