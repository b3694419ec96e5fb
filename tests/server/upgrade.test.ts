import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { readdirSync, writeFileSync } from 'node:fs';
import type { Engine } from '../../server/db/databaseSettings';
import { migrationNames, migrations } from '../../server/db/migrations/index';
import { databaseAtSchema } from '../support/databaseAtSchema';
import { engines } from '../support/engines';
import { main as conversionsImportMain } from '../../scripts/conversions-import';
import { main as costsImportMain } from '../../scripts/costs-import';
import { main as costsSetMain } from '../../scripts/costs-set';
import { main as dbCopyMain } from '../../scripts/db-copy';
import { main as digestMain } from '../../scripts/digest';
import { main as statsMain } from '../../scripts/stats';
import { main as statusMain } from '../../scripts/db-status';
import { main as migrateMain } from '../../scripts/migrate';
import type { CommandMain } from '../../scripts/runCommand';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

async function inProcess(main: CommandMain, argv: string[], env: Record<string, string>) {
  let out = '';
  let err = '';
  const code = await main(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

/** The schema before the newest step: what the previous release left (CHANGELOG.md lists each release's steps). */
const previous = migrations.length - 1;
const newestStep = `${String(migrations.length).padStart(3, '0')}-${migrationNames[migrations.length - 1]}`;

describe.each(engines)('upgrading a database of the previous schema on %s', (engine: Engine) => {
  it('db:status exits 1 naming the pending step, costs:import refuses it untouched, migrate brings it up to date', async () => {
    const file = path.join(temp.dir(), 'previous.sqlite');
    const old = await databaseAtSchema(engine, previous, file);
    const env: Record<string, string> = engine === 'postgres' ? { DATABASE_URL: old.url! } : { CLICKS_DB: file };
    const versions = async () => (await old.db.selectFrom('schema_migrations').select('version').orderBy('version').execute()).map((row) => Number(row.version));
    const costs = path.join(temp.dir(), 'costs.csv');
    writeFileSync(costs, 'day,source,campaign,content,cost,currency\n2026-11-03,reddit,repo-cars,,10.00,USD\n');
    try {
      const before = await runScript('scripts/db-status.ts', [], env);
      expect(before.code).toBe(1);
      expect(before.stdout).toContain(`: schema ${previous}, this version of the site needs ${migrations.length}; 1 step pending:\n  ${newestStep}\nRun npm run migrate`);

      const refused = await runScript('scripts/costs-import.ts', [costs], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^costs:import: \\S+ \\S+ is at schema ${previous}, and this version of the site needs ${migrations.length}: run npm run migrate first [^\\n]*\\n$`));
      expect(await versions()).toHaveLength(previous);

      const migrated = await runScript('scripts/migrate.ts', [], env);
      expect(migrated.stderr).toBe('');
      expect(migrated.stdout).toMatch(new RegExp(`: migrated from schema ${previous} to ${migrations.length}: ${newestStep}\\n$`));
      expect(migrated.code).toBe(0);
      expect(await versions()).toEqual(migrations.map((_, index) => index + 1));

      // The rest in-process (the same mains, without three more processes' start-up).
      const after = await inProcess(statusMain, [], env);
      expect(after.out).toMatch(new RegExp(`: schema ${migrations.length}, up to date\\n$`));
      expect(after.code).toBe(0);
      const again = await inProcess(migrateMain, [], env);
      expect(again.out).toMatch(/up to date; nothing to do\n$/);
      expect(again.code).toBe(0);
      const imported = await inProcess(costsImportMain, [costs], env);
      expect(imported.err).toBe('');
      expect(imported.code).toBe(0);
    } finally {
      await old.close();
    }
    // Three commands started as npm starts them, each a few seconds of tsx on a busy 2-core machine.
  }, 90_000);
});

describe('every command but the server and migrate, given a database of the previous schema', () => {
  const refusal = new RegExp(`is at schema ${previous}, and this version of the site needs ${migrations.length}: run npm run migrate first`);

  it.each<[string, CommandMain, (dir: string, file: string) => string[]]>([
    ['stats', statsMain, (_dir, file) => ['--db', file]],
    ['digest', digestMain, (dir, file) => ['--to', path.join(dir, 'digest.html'), '--db', file]],
    ['costs:set', costsSetMain, (_dir, file) => ['--list', '--db', file]],
    ['costs:import', costsImportMain, (dir, file) => [path.join(dir, 'costs.csv'), '--db', file]],
    ['conversions:import', conversionsImportMain, (dir, file) => [path.join(dir, 'conversions.csv'), '--db', file]],
  ])('%s refuses it in one line naming npm run migrate, and leaves it as it was', async (name, main, argv) => {
    const dir = temp.dir();
    const file = path.join(dir, 'previous.sqlite');
    writeFileSync(path.join(dir, 'costs.csv'), 'day,source,campaign,content,cost,currency\n2026-11-03,reddit,repo-cars,,10.00,USD\n');
    writeFileSync(path.join(dir, 'conversions.csv'), 'txid,payout,currency\nT-1,10.00,USD\n');
    const old = await databaseAtSchema('sqlite', previous, file);
    await old.close();
    const { code, out, err } = await inProcess(main, argv(dir, file), {});
    expect(err).toMatch(new RegExp(`^${name}: CLICKS_DB \\S+ ${refusal.source}[^\\n]*\\n$`));
    expect({ code, out }).toEqual({ code: 1, out: '' });
    const after = new BetterSqlite(file, { readonly: true });
    expect(after.prepare('select max(version) from schema_migrations').pluck().get()).toBe(previous);
    after.close();
  });

  it('db:copy refuses a PostgreSQL target of the previous schema, and copies from a SQLite file of any', async () => {
    const target = await databaseAtSchema('postgres', previous);
    const source = path.join(temp.dir(), 'source.sqlite');
    await (await databaseAtSchema('sqlite', previous, source)).close();
    try {
      const refused = await inProcess(dbCopyMain, ['--to', target.url!, '--from', source, '--quiet'], {});
      expect(refused.err).toMatch(new RegExp(`^db:copy: DATABASE_URL \\S+ ${refusal.source}`));
      expect(refused.code).toBe(1);
      expect(await inProcess(migrateMain, [], { DATABASE_URL: target.url! })).toMatchObject({ code: 0 });
      const copied = await inProcess(dbCopyMain, ['--to', target.url!, '--from', source, '--quiet'], {});
      expect(copied.err).toBe('');
      expect(copied.code).toBe(0);
    } finally {
      await target.close();
    }
  });
});

describe('npm run db:status and migrate', () => {
  it('db:status refuses to create a database that is not there, exiting 1', async () => {
    const file = path.join(temp.dir(), 'absent.sqlite');
    const status = await runScript('scripts/db-status.ts', ['--db', file]);
    expect(status.stderr).toMatch(/^db:status: there is no click database at .*absent\.sqlite yet/);
    expect(status.code).toBe(1);
  });

  it('refuse a schema newer than this code, changing nothing', async () => {
    const file = path.join(temp.dir(), 'newer.sqlite');
    const newer = await databaseAtSchema('sqlite', migrations.length, file);
    await newer.db.insertInto('schema_migrations').values({ version: migrations.length + 1, applied_at: 0 }).execute();
    await newer.close();
    const status = await runScript('scripts/db-status.ts', ['--db', file]);
    expect(status.stdout).toMatch(new RegExp(`schema ${migrations.length + 1}, newer than this version of the site \\(${migrations.length}\\)`));
    expect(status.code).toBe(1);
    const migrated = await runScript('scripts/migrate.ts', ['--db', file]);
    expect(migrated.stderr).toMatch(/^migrate: CLICKS_DB .* was written by a newer version of this site/);
    expect(migrated.code).toBe(1);
  });

  it('names every step after its file', () => {
    const files = readdirSync(path.join(__dirname, '../../server/db/migrations')).filter((name) => /^\d{3}-/.test(name));
    expect(files.map((name) => name.replace(/\.ts$/, ''))).toEqual(migrationNames.map((name, index) => `${String(index + 1).padStart(3, '0')}-${name}`));
  });
});
