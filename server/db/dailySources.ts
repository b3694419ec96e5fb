import type { Kysely, Transaction } from 'kysely';
import type { DailySourcesTable, Schema } from './schema';

/**
 * Adds one day's folded counts for a source to daily_sources: views fold in from the view store, clicks
 * from the click store, each adding to what the other wrote. '' is the unknown source, '*' all of a day's views.
 */
export async function addToDailySources(db: Kysely<Schema> | Transaction<Schema>, row: DailySourcesTable): Promise<void> {
  await db
    .insertInto('daily_sources')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['day', 'source']).doUpdateSet((eb) => ({
        views: eb('daily_sources.views', '+', eb.ref('excluded.views')),
        visitors: eb('daily_sources.visitors', '+', eb.ref('excluded.visitors')),
        clicks: eb('daily_sources.clicks', '+', eb.ref('excluded.clicks')),
        clickers: eb('daily_sources.clickers', '+', eb.ref('excluded.clickers')),
      })),
    )
    .execute();
}
