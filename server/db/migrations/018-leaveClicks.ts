import type { Migration } from './migration';

/**
 * 18: a leave report's followed links (issue 29). The placements whose link the visitor followed on that
 * view, space-separated as `seen` is: a placement's click-through among those who saw it is read from the
 * leave reports alone (server/dayCounts/leaveDimensions.ts), so the visitors who clicked and those who saw
 * are the same reports' visitors. Reports written under 17 hold none. The closed days gain the reach
 * dimensions from this schema on; days closed under 17 have none (their reports are kept, raw, as views are).
 */
const migration: Migration = async (db) => {
  await db.schema.alterTable('leaves').addColumn('clicked', 'text', (column) => column.notNull().defaultTo('')).execute();
};

export default migration;
