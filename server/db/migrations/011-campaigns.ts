import type { Migration } from './migration';

/**
 * 11: campaigns and ads (issue 27).
 * - views gain content: utm_content (the ad or creative) of the landing address, as medium and campaign.
 * - clicks gain campaign and content: those of the visit the click came from, beside its source, so a
 *   conversion (joined to its click by click ID) is credited to the campaign and ad that brought the visitor.
 * All nullable: rows from before, and pings (which know no visit), have none.
 */
const migration: Migration = async (db) => {
  await db.schema.alterTable('views').addColumn('content', 'text').execute();
  for (const column of ['campaign', 'content']) await db.schema.alterTable('clicks').addColumn(column, 'text').execute();
};

export default migration;
