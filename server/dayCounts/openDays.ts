import { sql, type Kysely } from 'kysely';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import type { LeaveRow } from './leaveDimensions';
import { rawIdSpan, rawTables, readRawPages, tallyRow, Tallies, type DayCountsByDimension, type RawRow, type RawTable } from './rawDayCounts';

/** A raw row as read here, with its number (PostgreSQL's bigint arrives as a number). */
type NumberedRow = (RawRow | LeaveRow) & { id: number };

type Ids = Record<RawTable, number>;

const noIds = (): Ids => ({ views: 0, clicks: 0, leaves: 0 });

/**
 * On PostgreSQL a read's rows settle once every transaction that could hold a lower number has ended
 * (see PostgresMark), at the first read at least this long after it. What no snapshot shows is an insert
 * between taking its number and its transaction taking an id: a few microseconds of CPU (defaults and
 * checks, no lock is waited for there); a row is missed only if that stalls longer than this.
 */
export const settleMs = 250;

/** The counts are built anew from every open day's rows this often, bounding what a row missed against all odds could cost. */
export const rebuildMs = 60 * 60_000;

/**
 * What a PostgreSQL read saw: the highest numbers it read, and the first transaction id not yet handed
 * out just after it (pg_snapshot_xmax). Numbers come from a sequence, in the order they are taken, but
 * rows commit in any order: a number below one read may belong to a transaction still running. Every
 * such transaction has an id below xmax; once a later snapshot's oldest running transaction
 * (pg_snapshot_xmin) is at or past xmax, all of them have ended, and a read after that sees every row
 * numbered up to maxIds that will ever be.
 */
interface PostgresMark {
  maxIds: Ids;
  xmax: bigint;
  at: number;
}

/** The oldest running transaction and the next transaction id, as a snapshot taken now says. */
export async function snapshot(db: Kysely<Schema>): Promise<{ xmin: bigint; xmax: bigint }> {
  const { rows } = await sql<{ xmin: string; xmax: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_snapshot_xmax(pg_current_snapshot())::text as xmax`.execute(db);
  return { xmin: BigInt(rows[0]!.xmin), xmax: BigInt(rows[0]!.xmax) };
}


/**
 * The days after the last closed one (today, and yesterday in the minutes before it closes), counted from
 * their raw rows and kept between reports, so that a report reads only the rows recorded since the one
 * before: what a report costs no longer follows how busy today has been.
 *
 * Rows are read by number. The settled ones are tallied for good; the rows read after them are counted
 * on top of the settled ones and read again next time. On SQLite every row read settles at once: one
 * connection writes at a time, so no row can commit below a number already read. On PostgreSQL rows
 * settle as PostgresMark says.
 */
export class OpenDayCounter {
  private start = '';
  private builtAt = 0;
  private settled = new Tallies();
  private settledIds: Ids = noIds();
  private marks: PostgresMark[] = [];
  /** The read in progress: reads take turns, since each one moves the state the next one starts from. */
  private turn: Promise<unknown> = Promise.resolve();

  /**
   * The counts of every day from `start` on (the first open day), as the rows read now say. The worker
   * answers reports concurrently (the warm-up and an /admin, two ranges, the digest's two weeks): two reads
   * interleaved at their awaits would tally the same rows twice or settle past rows the other has not
   * counted, so each waits for the one before.
   */
  read(db: Kysely<Schema>, start: string, now: number = Date.now()): Promise<DayCountsByDimension> {
    const result = this.turn.then(() => this.readNow(db, start, now));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async readNow(db: Kysely<Schema>, start: string, now: number): Promise<DayCountsByDimension> {
    if (this.builtAt === 0 || now - this.builtAt > rebuildMs || start < this.start) this.reset(start, now);
    else if (start > this.start) {
      // A day was closed: the closed counts take over from here.
      this.settled.forgetDaysBefore(start);
      this.start = start;
    }
    const postgres = engineOf(db) === 'postgres';
    const before = postgres ? await snapshot(db) : undefined;
    // What settles is known before the read: on SQLite every row read (one connection writes at a time);
    // on PostgreSQL the rows up to the marks of earlier reads whose transactions have all ended.
    let settleTo: Ids = { views: Infinity, clicks: Infinity, leaves: Infinity };
    if (before) {
      settleTo = { ...this.settledIds };
      for (const mark of this.marks.filter((mark) => mark.xmax <= before.xmin && now - mark.at >= settleMs)) {
        for (const table of rawTables) settleTo[table] = Math.max(settleTo[table], mark.maxIds[table]);
      }
    }
    // Rows read that do not settle yet are counted in `recent`, on top of the settled ones, and read again next time.
    const recent = new Tallies();
    const read = noIds();
    for (const table of rawTables) {
      read[table] = await this.readAfterSettled(db, table, (rows) => this.tally(rows, table, settleTo[table], recent));
    }
    if (before) {
      const settled = settleTo;
      this.marks = this.marks.filter((mark) => rawTables.some((table) => mark.maxIds[table] > settled[table]));
      this.marks.push({ maxIds: read, xmax: (await snapshot(db)).xmax, at: now });
      this.settledIds = settled;
    } else {
      this.settledIds = read;
    }
    return this.settled.counts(recent);
  }

  private reset(start: string, now: number): void {
    this.start = start;
    this.builtAt = now;
    this.settled = new Tallies();
    this.settledIds = noIds();
    this.marks = [];
  }

  /**
   * Reads the rows after the settled ones a page at a time, handing each to `page`: every open day's on a
   * fresh start (from the first of them, found through the day index), else those numbered since. Resolves
   * to the highest number read.
   */
  private async readAfterSettled(db: Kysely<Schema>, table: RawTable, page: (rows: readonly NumberedRow[]) => void): Promise<number> {
    let after = this.settledIds[table];
    if (after === 0) {
      const span = await rawIdSpan(db, table, this.start);
      if (!span) return 0;
      after = span.first - 1;
    }
    return readRawPages<RawRow | LeaveRow>(db, table, after, undefined, page);
  }

  /** Tallies for good the rows numbered up to settleTo, and the rest in `recent`. Rows of closed days (a late report) are left out. */
  private tally(rows: readonly NumberedRow[], table: RawTable, settleTo: number, recent: Tallies): void {
    for (const row of rows) if (row.day >= this.start) tallyRow(Number(row.id) <= settleTo ? this.settled : recent, table, row);
  }
}
