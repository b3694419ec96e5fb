import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';
import { runScript } from '../support/scriptProcess';

/**
 * npm run test:repeat (scripts/test-repeat.ts): the runner that hunts flaky tests, itself run for real
 * through tsx, each of its runs a jest of its own on a small unit file.
 */
const repeat = (argv: string[]) => runScript('scripts/test-repeat.ts', argv, { HOME: process.env.HOME ?? '' });

describe('npm run test:repeat', () => {
  it('refuses bad arguments with exit 64 and its usage', async () => {
    for (const argv of [['--times', '0'], ['--times', 'many'], ['--times', '1001'], ['--bogus']]) {
      const { code, stdout, stderr } = await repeat(argv);
      expect({ argv, code, stdout }).toEqual({ argv, code: 64, stdout: '' });
      expect(stderr).toMatch(/^test:repeat: .+\nUsage: npm run test:repeat -- \[PATTERN \.\.\.\] \[--times N\] \[--busy\] \[--keep-going\]\n$/);
    }
  });

  it('answers --help with its usage and exit codes', async () => {
    const { code, stdout } = await repeat(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: .+\nExit codes: 0 every run passed, 1 a run failed, 64 bad arguments\.\n$/);
  });

  it('runs the files named the times asked, a line each, and exits 0 when every run passed', async () => {
    const { code, stdout } = await repeat(['tests/unit/utcDay.test.ts', '--times', '2']);
    expect(stdout).toMatch(/^test:repeat: tests\/unit\/utcDay\.test\.ts, 2 times\nrun 1\/2: passed in \d+ s\nrun 2\/2: passed in \d+ s\ntest:repeat: 2 passed, 0 failed of 2 runs \(median \d+ s a run\)\n$/);
    expect(code).toBe(0);
  }, 120_000);

  it('names a failed run, keeps its output, stops at the first failure, and exits 1', async () => {
    // A pattern no test file matches: jest ends with "No tests found" and exit 1, as a failed run does.
    const { code, stdout } = await repeat(['tests/unit/no-such-file-anywhere', '--times', '3']);
    const log = /output in (\.test-repeat\/[^\s]+\/run-1\.log)\n/.exec(stdout)?.[1];
    expect(stdout).toMatch(/\nrun 1\/3: FAILED \(exit 1\) in \d+ s; output in \.test-repeat\/.+\/run-1\.log\n(?:.*\n)*test:repeat: 0 passed, 1 failed of 1 runs/);
    expect(code).toBe(1);
    expect(log && existsSync(path.join(projectRoot, log))).toBe(true);
    const folder = path.dirname(path.join(projectRoot, log!));
    expect(readdirSync(folder)).toContain('run-1.log');
    rmSync(folder, { recursive: true, force: true });
  }, 120_000);
});
