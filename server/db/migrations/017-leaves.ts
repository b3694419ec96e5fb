import { idColumn, type Migration } from './migration';

/**
 * 17: leave reports (issue 29). One row per page view's leave report (server/leaves/): the sections the
 * visitor reached, the placements they saw, the seconds they read. Kept as raw rows are, for as long.
 * - views_by_visitor: a leave report is taken only for a view of its page by its visitor that day, and
 *   never more than that page's views; both questions are one index look-up on a year of views.
 * - leaves_by_visitor: the same for the leaves already counted; leaves_by_day for retention and the reports.
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
    .execute();
  await db.schema.createIndex('leaves_by_visitor').on('leaves').columns(['day', 'visitor', 'page']).execute();
  await db.schema.createIndex('views_by_visitor').on('views').columns(['day', 'visitor', 'page']).execute();
};

export default migration;
