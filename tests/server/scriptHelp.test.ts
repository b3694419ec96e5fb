import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchArguments, benchParts } from '../../scripts/bench/benchParts';
import { projectRoot } from '../../server/lib/paths';
import { readProjectFile } from '../support/projectFiles';
import { runScript } from '../support/scriptProcess';

/**
 * Every script in package.json answers --help with its usage and exit codes, exit 0, without opening a
 * database: each is run as npm runs it (its line from package.json, with --help appended, through sh with
 * node_modules/.bin first on PATH), but without npm's own start-up.
 */

const scripts = Object.entries(JSON.parse(readProjectFile('package.json')).scripts as Record<string, string>);
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'auctions-guide-help-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runLine(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: `${path.join(projectRoot, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '',
    // A database a command would create (or fail on) if --help opened one.
    CLICKS_DB: path.join(dir, 'never-opened', 'clicks.sqlite'),
  };
  const child = spawn('sh', ['-c', `${line} --help`], { cwd: projectRoot, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

describe('--help', () => {
  it.concurrent.each(scripts)('npm run %s -- --help prints its usage and exit codes and exits 0', async (_name, line) => {
    const { code, stdout, stderr } = await runLine(line);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^usage: /im);
    expect(stdout).toMatch(/^Exit codes: 0 /m);
    expect(existsSync(path.join(dir, 'never-opened'))).toBe(false);
    // Up to five at once (jest's maxConcurrency), each a tsx start-up, on a 2-core machine that may be busy.
  }, 90_000);
});

describe('npm run bench -- NAME', () => {
  it('exits 64 for a part it does not know, listing the parts, and runs nothing', async () => {
    const { code, stdout, stderr } = await runScript('scripts/bench.ts', ['startup', 'lighthose']);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^bench: no part named "lighthose"; the parts are ${benchParts.join(', ')}, volume\\n`));
    expect(code).toBe(64);
  });

  it('reads the parts named, all but volume when none is, and volume alone with its options', () => {
    expect(benchArguments([])).toEqual({ parts: [...benchParts] });
    expect(benchArguments(['costs', 'startup'])).toEqual({ parts: ['costs', 'startup'] });
    expect(benchArguments(['volume', '--views', '1000'])).toEqual({ volume: ['--views', '1000'] });
    expect(benchArguments(['--views', '1000'])).toEqual({ problem: expect.stringMatching(/^no part named "--views", "1000"/) });
  });
});
