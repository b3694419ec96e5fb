import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Engine } from '../../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { distDir } from '../../server/lib/paths';
import { silentLogger, type Logger } from '../../server/lib/logger';
import { createReleaseRecorder, recordRelease } from '../../server/releases/recordRelease';
import { readReleaseFile } from '../../server/releases/releaseFile';
import { engines, openTestDatabase, useTestDatabase } from '../support/engines';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { useTempDir } from '../support/tempDir';
import { waitUntil } from '../support/waitUntil';

const temp = useTempDir();

const stamp = (digit: string) => digit.repeat(64);
const files = { 'art/hero.svg': '1111111111111111', 'shared/content/home.ts': '2222222222222222', 'shared/content/terms.ts': '3333333333333333' };
const at = (time: string) => new Date(`2026-11-20T${time}Z`);

/** A logger that keeps its lines. */
function keptLines(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (line) => lines.push(line), warning: (line) => lines.push(line), error: (message, error) => lines.push(error === undefined ? message : `${message} ${String(error)}`) };
}

describe.each(engines)('recording releases on %s', (engine) => {
  const test = useTestDatabase(engine);
  const rows = () => test.db().selectFrom('releases').selectAll().orderBy('first_served_at').execute();

  it('records the first release as the first, with its files', async () => {
    expect(await recordRelease(test.db(), { stamp: stamp('a'), files }, at('10:00:00'))).toEqual({ recorded: true, firstServedAt: at('10:00:00'), note: 'first release recorded' });
    expect(await rows()).toEqual([{ stamp: stamp('a'), first_served_at: at('10:00:00').getTime(), files: JSON.stringify(files), note: 'first release recorded' }]);
  });

  it('keeps the first time a release was served when it starts again', async () => {
    await recordRelease(test.db(), { stamp: stamp('a'), files }, at('10:00:00'));
    expect(await recordRelease(test.db(), { stamp: stamp('a'), files }, at('11:00:00'))).toEqual({ recorded: false, firstServedAt: at('10:00:00'), note: 'first release recorded' });
    expect((await rows()).map((row) => Number(row.first_served_at))).toEqual([at('10:00:00').getTime()]);
  });

  it('notes the files changed, added and removed since the newest release before it', async () => {
    await recordRelease(test.db(), { stamp: stamp('a'), files: { ...files, 'art/hero.svg': '0000000000000000' } }, at('09:00:00'));
    await recordRelease(test.db(), { stamp: stamp('b'), files }, at('10:00:00'));
    const next = { 'art/hero.svg': '9999999999999999', 'art/review-1.png': '4444444444444444', 'shared/content/home.ts': files['shared/content/home.ts'] };
    const recorded = await recordRelease(test.db(), { stamp: stamp('c'), files: next }, at('11:00:00'));
    expect(recorded.note).toBe('changed art/hero.svg; added art/review-1.png; removed shared/content/terms.ts');
  });

  it('says when no content or artwork changed', async () => {
    await recordRelease(test.db(), { stamp: stamp('a'), files }, at('10:00:00'));
    expect((await recordRelease(test.db(), { stamp: stamp('b'), files: { ...files } }, at('11:00:00'))).note).toBe('no content or artwork changed');
  });

  it('logs a failure in one line, never throws, and records the release on a later round with the time it started', async () => {
    await sql`drop table releases`.execute(test.db());
    const logger = keptLines();
    const recorder = createReleaseRecorder({ db: test.db(), release: { stamp: stamp('a'), files }, startedAt: at('10:00:00'), logger });
    await expect(recorder.record()).resolves.toBeUndefined();
    await recorder.record();
    expect(logger.lines).toEqual([expect.stringMatching(/^release aaaaaaaaaaaa not recorded yet \(.+\); retried at the next maintenance round$/)]);
    await sql`create table releases (stamp text primary key, first_served_at bigint not null, files text not null, note text not null)`.execute(test.db());
    await recorder.record();
    expect(logger.lines[1]).toBe('Release aaaaaaaaaaaa recorded, first served 2026-11-20T10:00:00.000Z: first release recorded');
    expect((await rows()).map((row) => Number(row.first_served_at))).toEqual([at('10:00:00').getTime()]);
    await recorder.record();
    expect(logger.lines).toHaveLength(2);
  });
});

/** Two connections to one fresh database, as two instances hold: a SQLite file both open, or a PostgreSQL database. */
async function twoInstances(engine: Engine): Promise<{ databases: AppDatabase[]; close(): Promise<void> }> {
  if (engine === 'postgres') {
    const opened = await openTestDatabase(engine);
    const second = await openDatabase({ engine, url: opened.url! }, { logger: silentLogger });
    return { databases: [opened.database, second], close: async () => (await second.close(), await opened.close()) };
  }
  const file = path.join(temp.dir(), 'two.sqlite');
  const databases = [await openDatabase({ engine, file }, { logger: silentLogger }), await openDatabase({ engine, file }, { logger: silentLogger })];
  return { databases, close: async () => void (await Promise.all(databases.map((database) => database.close()))) };
}

describe.each(engines)('two instances starting on one release on %s', (engine) => {
  it('record it once, and both report the row that stands', async () => {
    const pair = await twoInstances(engine);
    try {
      const [one, two] = pair.databases.map((database) => database.db) as [AppDatabase['db'], AppDatabase['db']];
      await recordRelease(one, { stamp: stamp('a'), files }, at('09:00:00'));
      const outcomes = await Promise.all([
        recordRelease(one, { stamp: stamp('b'), files: {} }, at('10:00:00')),
        recordRelease(two, { stamp: stamp('b'), files: {} }, at('10:00:01')),
      ]);
      expect(outcomes.filter((outcome) => outcome.recorded)).toHaveLength(1);
      const stored = await one.selectFrom('releases').selectAll().where('stamp', '=', stamp('b')).execute();
      expect(stored).toHaveLength(1);
      expect(outcomes.map((outcome) => outcome.firstServedAt.getTime())).toEqual([Number(stored[0]!.first_served_at), Number(stored[0]!.first_served_at)]);
      const note = 'removed art/hero.svg, shared/content/home.ts, shared/content/terms.ts';
      expect(stored[0]!.note).toBe(note);
      expect(outcomes.map((outcome) => outcome.note)).toEqual([note, note]);
    } finally {
      await pair.close();
    }
  });
});

describe('the built server', () => {
  it('writes dist/release.json with the build stamp and the content and artwork files', () => {
    const read = readReleaseFile(distDir);
    if (!('release' in read)) throw new Error(read.problem);
    expect(read.release.stamp).toBe(readFileSync(path.join(distDir, 'build-stamp'), 'utf8'));
    expect(Object.keys(read.release.files)).toEqual(expect.arrayContaining(['art/hero.svg', 'shared/content/home.ts', 'shared/content/images.generated.ts']));
  });

  it.each(engines)('records its release at start-up on %s', async (engine) => {
    const opened = engine === 'postgres' ? await openTestDatabase(engine) : undefined;
    const file = path.join(temp.dir(), 'main.sqlite');
    const env: Record<string, string> = opened ? { DATABASE_URL: opened.url! } : { CLICKS_DB: file };
    const started = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', CLICK_STATS: 'on', ...env });
    try {
      const line = await waitForOutput(started, /^Release ([0-9a-f]{12}) recorded, first served .+: first release recorded$/m);
      expect(line[1]).toBe(readFileSync(path.join(distDir, 'build-stamp'), 'utf8').slice(0, 12));
    } finally {
      started.child.kill('SIGTERM');
      await started.exit;
    }
    const reader = opened?.database ?? (await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger }));
    try {
      const stored = await waitUntil('the release row', async () => (await reader.db.selectFrom('releases').selectAll().execute())[0]);
      expect(stored.stamp).toBe(readFileSync(path.join(distDir, 'build-stamp'), 'utf8'));
    } finally {
      await (opened ? opened.close() : reader.close());
    }
  });
});
