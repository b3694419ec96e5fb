import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { rawColumns, Tallies, type DayCounts, type RawRow } from './rawDayCounts';

/** A raw row as read here: numbered, with its recording time (milliseconds; PostgreSQL's bigint arrives as a number). */
type NumberedRow = RawRow & { id: number; at: number };

/**
 * A raw row numbered this long ago is taken as committed: its number is kept as a row read. A row
 * committed later than this after it was numbered (no insert here takes a tenth of it) is missed by the
 * open days' counts until the next rebuild, and never by the closed day, which is counted anew.
 */
export const settleMs = 2 * 60_000;

/** The counts are built anew from every open day's rows this often, bounding what a missed row could cost. */
export const rebuildMs = 60 * 60_000;

type Table = 'views' | 'clicks';

/**
 * The days after the last closed one (today, and yesterday in the minutes before it closes), counted from
 * their raw rows and kept between reports, so that a report reads only the rows recorded since the one
 * before: what a report costs no longer follows how busy today has been.
 *
 * Rows are read in the order of their id. On SQLite ids are handed out in commit order; on PostgreSQL
 * several connections number rows and commit them in any order, so a row may appear below an id already
 * read. Hence two parts: the settled rows, tallied for good, and after them the rows of the last
 * settleMs (by their recording time), read again at every report and counted on top of the settled ones.
 */
export class OpenDayCounter {
  private start = '';
  private builtAt = 0;
  private settled = new Tallies();
  private readonly settledIds: Record<Table, number> = { views: 0, clicks: 0 };

  /** The counts of every day from `start` on (the first open day), as the rows read now say. */
  async read(db: Kysely<Schema>, start: string, now: number = Date.now()): Promise<DayCounts> {
    if (this.builtAt === 0 || now - this.builtAt > rebuildMs || start < this.start) this.reset(start, now);
    else if (start > this.start) {
      // A day was closed: the closed counts take over from here.
      this.settled.forgetDaysBefore(start);
      this.start = start;
    }
    const recent = new Tallies();
    const [views, clicks] = await Promise.all([this.readAfterSettled(db, 'views'), this.readAfterSettled(db, 'clicks')]);
    this.settle('views', views, recent, now);
    this.settle('clicks', clicks, recent, now);
    return this.settled.counts(recent);
  }

  private reset(start: string, now: number): void {
    this.start = start;
    this.builtAt = now;
    this.settled = new Tallies();
    this.settledIds.views = 0;
    this.settledIds.clicks = 0;
  }

  /** The rows after the settled ones: every open day's on a fresh start (through the day index), else those numbered since (through the id). */
  private async readAfterSettled(db: Kysely<Schema>, table: Table): Promise<NumberedRow[]> {
    const after = this.settledIds[table];
    // One condition or the other, never both, so that each engine takes the index meant.
    const where = after === 0 ? sql`day >= ${this.start}` : sql`id > ${after}`;
    const columns = sql.join(rawColumns[table].map((column) => sql.ref(column)));
    // Sorted here: asked of SQLite, "order by id" with the day condition walks the whole table in id order.
    const { rows } = await sql<NumberedRow>`select ${columns} from ${sql.table(table)} where ${where}`.execute(db);
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  /**
   * Tallies for good the rows numbered before the first one recorded within settleMs, and counts the
   * rest in `recent`, to be read again next time. Rows of closed days (a late report) are left out.
   */
  private settle(table: Table, rows: readonly NumberedRow[], recent: Tallies, now: number): void {
    const kind = table === 'views' ? 'view' : 'click';
    const firstRecent = rows.findIndex((row) => Number(row.at) > now - settleMs);
    const settledCount = firstRecent === -1 ? rows.length : firstRecent;
    for (const [index, row] of rows.entries()) {
      if (row.day < this.start) continue;
      (index < settledCount ? this.settled : recent).add(row, kind);
    }
    if (settledCount > 0) this.settledIds[table] = Number(rows[settledCount - 1]!.id);
  }
}
