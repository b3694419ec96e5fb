import type { Migration } from './migration';

/**
 * 6: a click ID is counted once, whichever instance a replayed report reaches: clicks.click_id becomes
 * unique, and the click store inserts with ON CONFLICT DO NOTHING. NULL (a click without an ID) stays
 * allowed any number of times on both engines. Replays stored before this step are removed first,
 * keeping the earliest row of each click ID (the lowest id among equal times).
 */
const migration: Migration = async (db) => {
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
};

export default migration;
