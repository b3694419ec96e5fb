import path from 'node:path';
import { main as setMain } from '../../scripts/costs-set';
import { engines } from '../support/engines';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';
import type { Engine } from '../../server/db/databaseSettings';

const temp = useTempDir();

describe.each(engines)('npm run costs:set on %s', (engine: Engine) => {
  let postgres: TestDatabase | undefined;
  beforeEach(async () => {
    postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
  });
  afterEach(() => postgres?.drop());

  async function run(argv: string[]) {
    let out = '';
    let err = '';
    const where = postgres ? [] : ['--db', path.join(temp.dir(), 'clicks.sqlite')];
    const env = postgres ? { DATABASE_URL: postgres.url } : {};
    const code = await setMain([...argv, ...where], env, (text) => (out += text), (text) => (err += text));
    return { code, out, err };
  }

  it('sets a daily amount and an amount per visitor, lists them and removes one', async () => {
    expect(await run(['--source', 'newsletter', '--campaign', 'winter', '--from', '2026-01-01', '--to', '2026-01-31', '--daily', '12.5', '--currency', 'usd'])).toEqual({
      code: 0,
      out: 'set 1: newsletter / winter, 2026-01-01 to 2026-01-31, 12.50 USD a day\n',
      err: '',
    });
    expect((await run(['--source', 'partner', '--from', '2026-01-01', '--to', '2026-12-31', '--per-visitor', '0.35', '--currency', 'EUR'])).out).toBe(
      'set 2: partner, 2026-01-01 to 2026-12-31, 0.35 EUR per visitor\n',
    );
    expect((await run(['--list'])).out).toBe('1: newsletter / winter, 2026-01-01 to 2026-01-31, 12.50 USD a day\n2: partner, 2026-01-01 to 2026-12-31, 0.35 EUR per visitor\n');
    expect(await run(['--remove', '1'])).toEqual({ code: 0, out: 'removed rule 1\n', err: '' });
    expect(await run(['--remove', '1'])).toEqual({ code: 1, out: '', err: 'costs:set: there is no rule 1; --list shows them\n' });
  });

  it('refuses a rule overlapping another of the same source and campaign, in one line and exit 1', async () => {
    await run(['--source', 'newsletter', '--from', '2026-01-01', '--to', '2026-01-31', '--daily', '1', '--currency', 'USD']);
    expect(await run(['--source', 'newsletter', '--from', '2026-01-31', '--to', '2026-02-28', '--daily', '1', '--currency', 'USD'])).toEqual({
      code: 1,
      out: '',
      err: 'costs:set: it overlaps rule 1 (2026-01-01 to 2026-01-31); remove that one first\n',
    });
  });
});

describe('npm run costs:set refusals', () => {
  async function run(argv: string[]) {
    let out = '';
    let err = '';
    const code = await setMain([...argv, '--db', path.join(temp.dir(), 'clicks.sqlite')], {}, (text) => (out += text), (text) => (err += text));
    return { code, out, err };
  }
  const rule = ['--source', 'newsletter', '--from', '2026-01-01', '--to', '2026-01-31', '--currency', 'USD'];

  it.each([
    [[...rule], 'give one amount: --daily or --per-visitor'],
    [[...rule, '--daily', '1', '--per-visitor', '1'], 'give one amount: --daily or --per-visitor'],
    [[...rule, '--daily=-1'], '--daily must be a decimal amount, at least 0, with at most 6 decimals, such as 12.50'],
    [[...rule, '--daily', '1.0000001'], '--daily must be a decimal amount, at least 0, with at most 6 decimals, such as 12.50'],
    [[...rule, '--per-visitor', '5000'], '--per-visitor must be a decimal amount from 0 to 1000, with at most 6 decimals, such as 0.35'],
    [[...rule, '--per-visitor', '1', '--campaign', 'x'], '--per-visitor counts the visitors of the whole source, so it takes no --campaign'],
    [['--source', 'a', '--from', '2026-02-30', '--to', '2026-03-01', '--daily', '1', '--currency', 'USD'], '--from must be a real UTC day from 2000-01-01 to 2100-12-31, written YYYY-MM-DD'],
    [['--source', 'a', '--from', '2026-03-02', '--to', '2026-03-01', '--daily', '1', '--currency', 'USD'], '--to must not be before --from'],
    [['--source', 'a', '--from', '2026-03-01', '--to', '2026-03-01', '--daily', '1'], '--currency is required (amounts are never converted): three letters, such as USD'],
    [['--source', 'a\u001b[31m', '--from', '2026-03-01', '--to', '2026-03-01', '--daily', '1', '--currency', 'USD'], '--source must be a source name of 1 to 100 characters, as utm_source carries it'],
    [['--list', '--remove', '1'], 'give a rule (--source, --from, --to, an amount and --currency), or --list, or --remove ID'],
    [['--remove', 'x'], '--remove takes a rule ID, a whole number as --list shows it'],
    [[], 'give a rule (--source, --from, --to, an amount and --currency), or --list, or --remove ID'],
  ])('refuses %j with one line and exit 64', async (argv, line) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(64);
    expect(out).toBe('');
    expect(err.split('\n')[0]).toBe(`costs:set: ${line}`);
  });

  it('runs as npm runs it, and a database that cannot be opened is one line and exit 1', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const set = await runScript('scripts/costs-set.ts', ['--source', 'newsletter', '--from', '2026-01-01', '--to', '2026-01-31', '--daily', '3', '--currency', 'USD', '--db', file]);
    expect(set).toEqual({ code: 0, stdout: 'set 1: newsletter, 2026-01-01 to 2026-01-31, 3.00 USD a day\n', stderr: '' });
    const broken = await runScript('scripts/costs-set.ts', ['--list', '--db', temp.dir()]);
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/^costs:set: /);
  });
});
