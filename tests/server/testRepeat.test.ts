import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';
import { runScript } from '../support/scriptProcess';
import { waitUntil } from '../support/waitUntil';

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
    expect(stdout).toMatch(/^Usage: .+\nExit codes: 0 every run passed, 1 a run failed, 64 bad arguments, 130 or 143 stopped by SIGINT or SIGTERM\.\n$/);
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

  it('stopped by SIGTERM during a run, ends that run\'s jest and everything in its group, prints the tally so far and exits 143', async () => {
    const child = spawn(path.join(projectRoot, 'node_modules/.bin/tsx'), ['scripts/test-repeat.ts', 'tests/unit/utcDay.test.ts', '--times', '3'], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const closed = once(child, 'close');
    await waitUntil('the first run to pass', () => stdout.includes('run 1/3: passed'), { timeoutMs: 90_000, intervalMs: 50 });
    // The second run's jest: its results file names the repeat's folder, its own process group's leader.
    const secondJest = () => execFileSync('pgrep', ['-f', 'jest.js --ci --json --outputFile=.*/run-2\\.json tests/unit/utcDay'], { encoding: 'utf8' }).trim();
    await waitUntil('the second run\'s jest', () => { try { return secondJest() !== ''; } catch { return false; } }, { timeoutMs: 30_000, intervalMs: 50 });
    const group = Number(secondJest().split('\n')[0]);
    child.kill('SIGTERM');
    const [code] = (await closed) as [number | null];
    expect(code).toBe(143);
    expect(stdout).toMatch(/\ntest:repeat: 1 passed, 0 failed of 1 runs \(median \d+ s a run\); stopped by SIGTERM during run 2\n$/);
    // Nothing of that jest's group is left: pgrep -g exits 1 when it finds none.
    await waitUntil('the stopped run\'s group to end', () => { try { execFileSync('pgrep', ['-g', String(group)]); return false; } catch { return true; } }, { timeoutMs: 15_000, intervalMs: 100 });
  }, 150_000);
});
