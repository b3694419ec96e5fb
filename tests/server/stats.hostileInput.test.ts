import path from 'node:path';
import fc from 'fast-check';
import { main as statsMain } from '../../scripts/stats';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { answerWithinMs, dayCountText, dayText, hangMs, hostileText } from '../support/hostileInput';
import { useTempDir } from '../support/tempDir';
import { processCpuMs } from '../support/workTime';

/** npm run stats answers whatever arguments it is given (tests/support/hostileInput.ts says how to replay a failure). */

describe('npm run stats with hostile arguments', () => {
  const temp = useTempDir();
  let file: string;
  beforeEach(async () => {
    // A database that exists, as the server leaves it: the command only reads it.
    file = path.join(temp.dir(), 'stats.sqlite');
    const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
    await database.close();
  });

  /** Whatever may come after a flag: a date, a count, a flag, nothing, or text. */
  const argumentValue = fc.oneof({ arbitrary: dayText, weight: 3 }, { arbitrary: dayCountText, weight: 3 }, hostileText, fc.constantFrom('--days', '--to', '-h', '--', '-'));
  const argument = fc.oneof(
    { arbitrary: fc.tuple(fc.constantFrom('--days', '--from', '--to'), argumentValue).map(([flag, value]) => [flag, value]), weight: 6 },
    fc.tuple(fc.constantFrom('--days', '--from', '--to'), argumentValue).map(([flag, value]) => [`${flag}=${value}`]),
    fc.constantFrom(['--json'], ['--csv'], ['--days'], ['--from'], ['--to'], ['--'], ['-x'], ['--no-such-flag'], ['--json=yes']),
    // Any text but --db and -h, so no case opens a file of its own choosing or just prints the usage.
    hostileText.filter((text) => !text.startsWith('--d') && !text.startsWith('-h')).map((text) => [text]),
  );
  const argv = fc.array(argument, { maxLength: 5 }).map((parts) => parts.flat());

  it('exits 0, 1 or 64 for any --days, --from and --to, never throws, within 1 s of work', async () => {
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        let out = '';
        let err = '';
        const started = processCpuMs();
        const code = await statsMain(args, { CLICKS_DB: file }, (text) => (out += text), (text) => (err += text));
        const ms = processCpuMs() - started;
        expect([0, 1, 64]).toContain(code);
        expect(ms).toBeLessThan(answerWithinMs);
        // Bad arguments say why on stderr; a report goes to stdout.
        if (code === 64) expect(err).toMatch(/^stats: /);
        if (code === 0) expect(out).not.toBe('');
      }),
      { numRuns: 150, timeout: hangMs },
    );
  });

  it.each([
    ['--to 9999-12-31', ['--to', '9999-12-31']],
    ['--from 9999-12-25 --to +010000-01-01', ['--from', '9999-12-25', '--to', '+010000-01-01']],
    ['--from 0000-01-01', ['--from', '0000-01-01']],
    ['--days with 40 digits', ['--days', '9'.repeat(40)]],
  ])('exits 64 within 1 s of work for %s, naming the span or the count', async (_name, args) => {
    let err = '';
    const started = processCpuMs();
    const code = await statsMain(args, { CLICKS_DB: file }, () => {}, (text) => (err += text));
    expect(processCpuMs() - started).toBeLessThan(answerWithinMs);
    expect(code).toBe(64);
    expect(err).toMatch(/^stats: --(from|to|days) /);
  });
});
