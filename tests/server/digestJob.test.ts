import type { Engine } from '../../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { createDigestJob, type DigestJob } from '../../server/digest/digestJob';
import type { EmailPayload } from '../../server/delivery/outbox';
import { silentLogger, type Logger } from '../../server/lib/logger';
import { inProcessReportReader, type ReportReader } from '../../server/reports/reportReader';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

const mondayAtEight = { day: 1, hour: 8 };
const siteUrl = 'https://auctions.example.com';

/**
 * Two instances' connections to one database of the engine: two pools on one PostgreSQL database, or on
 * SQLite one connection for both, as the closing of days is tested (two connections in one thread would
 * wait on each other's write lock synchronously; two processes, as real instances are, wait in turn).
 */
function useTwoInstances(engine: Engine) {
  let opened: TestEngineDatabase;
  let databases: AppDatabase[] = [];
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    databases = [opened.database, engine === 'postgres' ? await openDatabase({ engine, url: opened.url! }, { logger: silentLogger }) : opened.database];
  });
  afterEach(async () => {
    if (engine === 'postgres') await databases[1]!.close();
    await opened.close();
  });
  return { databases: () => databases };
}

describe.each(engines)('the weekly digest job on %s', (engine) => {
  const instances = useTwoInstances(engine);
  let clock: number;
  const setNow = (text: string) => {
    clock = Date.parse(text);
  };
  const jobOn = (database: AppDatabase, overrides: { reports?: Pick<ReportReader, 'readDigest'>; logger?: Logger; enqueued?: () => void } = {}): DigestJob =>
    createDigestJob({ db: database.db, reports: inProcessReportReader(database.db), schedule: mondayAtEight, siteUrl, logger: silentLogger, now: () => clock, ...overrides });
  const digests = async () => {
    const rows = await instances.databases()[0]!.db.selectFrom('outbox').select(['event', 'channel', 'incident_id', 'payload', 'next_attempt_at']).where('event', '=', 'digest').orderBy('id').execute();
    return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) as EmailPayload }));
  };
  const subjects = async () => (await digests()).map((row) => row.payload.subject.replace(/:.*/, ''));

  it('is claimed once across two instances, at the configured hour and not before', async () => {
    const [one, two] = instances.databases().map((database) => jobOn(database));
    // A week after the last digest went (its claim is there), the next waits for Monday 08:00.
    setNow('2026-01-12T08:01:00Z');
    expect(await one!.check()).toEqual({ outcome: 'sent', period: '2026-W03' });
    expect(await two!.check()).toEqual({ outcome: 'done', period: '2026-W03' });
    for (const moment of ['2026-01-15T12:00:00Z', '2026-01-19T07:59:59Z']) {
      setNow(moment);
      expect(await Promise.all([one!.check(), two!.check()])).toEqual([
        { outcome: 'done', period: '2026-W03' },
        { outcome: 'done', period: '2026-W03' },
      ]);
    }
    setNow('2026-01-19T08:00:00Z');
    const both = await Promise.all([one!.check(), two!.check()]);
    expect(both.map((check) => check.outcome).sort()).toEqual(['done', 'sent']);
    setNow('2026-01-25T23:59:00Z');
    expect((await Promise.all([one!.check(), two!.check()])).map((check) => check.outcome)).toEqual(['done', 'done']);
    expect(await subjects()).toEqual(['Weekly digest for auctions.example.com, 2026-01-05 to 2026-01-11', 'Weekly digest for auctions.example.com, 2026-01-12 to 2026-01-18']);
  });

  it('enqueues it for e-mail only, due at once, with its HTML and text parts, and wakes the sender', async () => {
    let woken = 0;
    setNow('2026-01-19T08:00:00Z');
    expect(await jobOn(instances.databases()[0]!, { enqueued: () => woken++ }).check()).toMatchObject({ outcome: 'sent' });
    const [row, ...others] = await digests();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ event: 'digest', channel: 'email', incident_id: null, next_attempt_at: clock });
    expect(row!.payload.html).toMatch(/^<!DOCTYPE html>/);
    expect(row!.payload.text).toContain('Weekly digest: https://auctions.example.com, 2026-01-12 to 2026-01-18 (UTC)');
    expect(woken).toBe(1);
  });

  it('sent by neither instance at the hour (both down), goes at the next check in the week, with the same days, once', async () => {
    const [one, two] = instances.databases().map((database) => jobOn(database));
    setNow('2026-01-21T15:07:00Z');
    expect(await one!.check()).toEqual({ outcome: 'sent', period: '2026-W04' });
    setNow('2026-01-21T15:12:00Z');
    expect(await two!.check()).toEqual({ outcome: 'done', period: '2026-W04' });
    expect(await subjects()).toEqual(['Weekly digest for auctions.example.com, 2026-01-12 to 2026-01-18']);
  });

  it('claims nothing when the digest cannot be read, says so once a check, and sends at the next check that can', async () => {
    const errors: string[] = [];
    const logger: Logger = { info: () => {}, warning: (message) => errors.push(message), error: (message) => errors.push(message) };
    setNow('2026-01-19T08:00:00Z');
    const failing = jobOn(instances.databases()[0]!, { logger, reports: { readDigest: () => Promise.reject(new Error('the report was stopped after 20 s')) } });
    expect(await failing.check()).toEqual({ outcome: 'failed', period: '2026-W04' });
    expect(errors).toEqual(['weekly digest not sent: the report was stopped after 20 s; the next check tries again']);
    expect(await digests()).toEqual([]);
    setNow('2026-01-19T08:05:00Z');
    expect(await jobOn(instances.databases()[1]!).check()).toEqual({ outcome: 'sent', period: '2026-W04' });
  });

  it('a second check while one runs gets the same answer, not a second digest', async () => {
    setNow('2026-01-19T08:00:00Z');
    const job = jobOn(instances.databases()[0]!);
    const [first, second] = await Promise.all([job.check(), job.check()]);
    expect(first).toEqual({ outcome: 'sent', period: '2026-W04' });
    expect(second).toBe(first);
    expect(await digests()).toHaveLength(1);
  });
});
