import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createClickStore } from '../../server/clicks/clickStore';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { main as copyMain } from '../../scripts/db-copy';
import { main as importMain } from '../../scripts/conversions-import';
import { runMain, type CommandMain } from '../../scripts/runCommand';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { useTempDir } from '../support/tempDir';
import { waitUntil } from '../support/waitUntil';

const temp = useTempDir();
const projectRoot = path.resolve(__dirname, '../..');

/** A command run in-process through runMain, as runCommand runs it for npm. */
async function run(name: string, main: CommandMain, argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await runMain(name, main, argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Every insert into the table sleeps, so a command is surely mid-run when its connection is cut. */
const slowInserts = (url: string, table: string) =>
  withClient(url, (client) =>
    client.query(`create function slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(0.5); return null; end $$;
      create trigger slow_insert after insert on ${table} for each statement execute function slow_insert();`),
  );

/** Waits until the command's connection sleeps inside an insert, then ends its connections, as a server restart would. */
async function cutConnectionsMidInsert(url: string): Promise<void> {
  const database = new URL(url).pathname.slice(1);
  await withClient(url, async (client) => {
    const sleeping = async () => (await client.query(`select 1 from pg_stat_activity where datname = $1 and wait_event = 'PgSleep'`, [database])).rowCount! > 0;
    await waitUntil('the command to sleep inside an insert', sleeping, { timeoutMs: 20_000, intervalMs: 10 });
    await client.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'auctions-guide'`, [database]);
  });
}

describe('runMain', () => {
  it('turns whatever main throws into one line naming the command, with exit code 1 and no stack trace', async () => {
    const error = new Error('Query read timeout\n    at Connection.<anonymous> (node_modules/pg/lib/client.js:1:1)');
    expect(await run('stats', async () => Promise.reject(error), [])).toEqual({ code: 1, out: '', err: 'stats: Query read timeout\n' });
    expect(await run('stats', async () => {
      throw Object.assign(new Error(''), { code: 'ECONNRESET' });
    }, [])).toEqual({ code: 1, out: '', err: 'stats: ECONNRESET\n' });
    expect(await run('db:copy', async () => Promise.reject('a bare string'), [])).toEqual({ code: 1, out: '', err: 'db:copy: a bare string\n' });
    expect((await run('x', async () => Promise.reject(new Error('bell \u0007 and escape \u001b[2J')), [])).err).toBe('x: bell \\x07 and escape \\x1b[2J\n');
  });

  it('passes on the exit code and output of a main that ends normally', async () => {
    expect(await run('x', async (_argv, _env, out) => (out('done\n'), 3), [])).toEqual({ code: 3, out: 'done\n', err: '' });
  });
});

describe('a command whose database stops answering mid-run', () => {
  let target: TestDatabase;
  beforeEach(async () => {
    target = await createTestDatabase();
  });
  afterEach(() => target.drop());

  it('db:copy prints one line naming the database and exits 1', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const source = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
    const clicks = createClickStore(source.db);
    for (let i = 0; i < 2500; i += 1) await clicks.record({ at: new Date(), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: `v${i}`, via: 'ping' });
    await source.close();
    // The target's schema first, so the trigger has its table.
    await (await openDatabase({ engine: 'postgres', url: target.url }, { logger: silentLogger })).close();
    await slowInserts(target.url, 'clicks');

    const [result] = await Promise.all([run('db:copy', copyMain, ['--from', file, '--to', target.url]), cutConnectionsMidInsert(target.url)]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^db:copy: the copy stopped at an error from DATABASE_URL postgres:\/\/[^ ]+: terminating connection due to administrator command; what was copied is kept, and running the copy again adds only the rest\n$/,
    );

  });

  it('conversions:import prints one line and exits 1', async () => {
    await (await openDatabase({ engine: 'postgres', url: target.url }, { logger: silentLogger })).close();
    await slowInserts(target.url, 'conversions');
    const file = path.join(temp.dir(), 'report.csv');
    writeFileSync(file, 'txid,payout\nM-1,1\nM-2,2\n');

    const [result] = await Promise.all([run('conversions:import', importMain, [file], { DATABASE_URL: target.url }), cutConnectionsMidInsert(target.url)]);
    expect(result.code).toBe(1);
    // The statement cut, or the rollback after it: which one reports first is the driver's affair.
    expect(result.err).toMatch(/^conversions:import: the database stopped answering: [^\n]+; rows before it are recorded, run the import again\n$/);
  });
});

describe('runCommand in a process of its own', () => {
  /** A command file in the temporary folder, run through tsx as npm runs the real ones. */
  function runScript(body: string): Promise<{ code: number | null; out: string; err: string }> {
    const file = path.join(temp.dir(), 'probe.ts');
    writeFileSync(file, `import { runCommand } from ${JSON.stringify(path.join(projectRoot, 'scripts/runCommand'))};\n${body}\n`);
    return new Promise((resolve) => {
      const child = spawn(path.join(projectRoot, 'node_modules/.bin/tsx'), [file], { cwd: projectRoot, env: { PATH: process.env.PATH ?? '' } });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('close', (code) => resolve({ code, out, err }));
    });
  }

  it('ends with one line and exit code 1 when main rejects', async () => {
    expect(await runScript(`runCommand(async () => { throw new Error('Query read timeout'); }, 'stats');`)).toEqual({ code: 1, out: '', err: 'stats: Query read timeout\n' });
  });

  it('ends with one line and exit code 1 for an error thrown outside main, named after its file', async () => {
    const body = `import { EventEmitter } from 'node:events';
runCommand(async () => {
  // An 'error' event nobody listens for, as a dropped connection's socket may emit.
  setTimeout(() => new EventEmitter().emit('error', new Error('Connection terminated unexpectedly')), 10);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  return 0;
});`;
    expect(await runScript(body)).toEqual({ code: 1, out: '', err: 'probe: Connection terminated unexpectedly\n' });
  });
});
