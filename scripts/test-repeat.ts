/**
 * npm run test:repeat -- [PATTERN ...] [--times N] [--busy] [--keep-going]
 *
 * Runs the chosen test files (jest's path patterns; none: the whole suite) again and again, each time in
 * a jest of its own as `npm test` starts it, and prints a line per run and the tally, so a test that fails
 * one run in twenty shows itself here and not in CI. `--busy` keeps one core busy with a second process
 * the whole time, as CI's machine often is. A failed run's output is kept in a folder of its own under
 * .test-repeat/ and its failing tests named; `--keep-going` runs every time even after a failure (otherwise the first one ends
 * the repeat). Exit 0 every run passed, 1 a run failed, 64 bad arguments, 130 or 143 stopped
 * (SIGINT, SIGTERM: the jest under way is stopped too). How to hunt a flaky test with
 * it: docs/testing.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, buildIsFresh } from '../build';
import { projectRoot } from '../server/lib/paths';
import { runCommand, type CommandMain } from './runCommand';

const usage = 'Usage: npm run test:repeat -- [PATTERN ...] [--times N] [--busy] [--keep-going]';
/** Each repeat's own folder, so that two repeats at once (one keeping the machine busy for the other) keep both their outputs. */
const logDir = path.join(projectRoot, '.test-repeat', `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);

interface JestJson {
  numFailedTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; message: string; assertionResults: { status: string; fullName: string }[] }[];
}

/** One core kept busy until stopped: a second Node spinning at the same priority as jest, as another job on CI's machine would. */
function startBusyCore(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** What failed in a run: its failing tests by full name, or the files that failed outside any test. */
function failuresOf(jsonFile: string): string[] {
  let results: JestJson;
  try {
    results = JSON.parse(readFileSync(jsonFile, 'utf8')) as JestJson;
  } catch {
    return ['(jest wrote no results: it ended before the run did)'];
  }
  return results.testResults.flatMap((file) => {
    const failed = file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${path.relative(projectRoot, file.name)}: ${test.fullName}`);
    if (failed.length > 0) return failed;
    return file.status === 'failed' ? [`${path.relative(projectRoot, file.name)}: ${file.message.split('\n').find((line) => line.trim()) ?? 'failed'}`] : [];
  });
}

/**
 * The jest under way, in a process group of its own with its workers and what its tests started (servers,
 * browsers), so a stop (SIGINT, SIGTERM) ends them all with the repeat: left running, they would go on using
 * the machine and dist/ alone.
 */
let running: ChildProcess | undefined;
/** The signal that stopped the repeat, if one did. */
let stoppedBy: NodeJS.Signals | undefined;

function killGroup(leader: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-leader, signal);
  } catch {
    // Already gone.
  }
}

async function runJest(patterns: string[], run: number): Promise<{ code: number | null; seconds: number; log: string; json: string }> {
  const log = path.join(logDir, `run-${run}.log`);
  const json = path.join(logDir, `run-${run}.json`);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(projectRoot, 'node_modules/jest/bin/jest.js'), '--ci', '--json', `--outputFile=${json}`, ...patterns], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = child;
  const output: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  running = undefined;
  // Stopped, jest itself ends at the signal, but a worker whose test installed its own SIGTERM handler (a
  // server started in-process) outlives it, reparented to init: what is left of its group goes now.
  if (stoppedBy && child.pid) killGroup(child.pid, 'SIGKILL');
  writeFileSync(log, Buffer.concat(output));
  return { code, seconds: (performance.now() - started) / 1000, log, json };
}

const main: CommandMain = async (argv, _env, out, err) => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { times: { type: 'string' }, busy: { type: 'boolean' }, 'keep-going': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    err(`test:repeat: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  const { values, positionals: patterns } = parsed;
  if (values.help) {
    out(`${usage}\nExit codes: 0 every run passed, 1 a run failed, 64 bad arguments, 130 or 143 stopped by SIGINT or SIGTERM.\n`);
    return 0;
  }
  const times = values.times === undefined ? 20 : Number(values.times);
  if (!Number.isInteger(times) || times < 1 || times > 1000) {
    err(`test:repeat: --times takes a whole number from 1 to 1000, not "${values.times}"\n${usage}\n`);
    return 64;
  }

  // Built once here, so no run's global setup rebuilds dist/ while another repeat's tests read it.
  if (!buildIsFresh()) {
    out('test:repeat: building dist/ first\n');
    await build();
  }
  mkdirSync(logDir, { recursive: true });
  const busy = values.busy ? startBusyCore() : undefined;
  const what = patterns.length > 0 ? patterns.join(' ') : 'the whole suite';
  out(`test:repeat: ${what}, ${times === 1 ? 'once' : `${times} times`}${busy ? ', one core kept busy' : ''}\n`);
  let failedRuns = 0;
  const seconds: number[] = [];
  // A stop ends the jest under way and its group (its PostgreSQL cluster's watchdog then stops the cluster:
  // tests/support/serviceProcess.ts), then the repeat, with the tally so far and the signal's exit code.
  const stop = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    if (running?.pid) killGroup(running.pid, 'SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    for (let run = 1; run <= times && !stoppedBy; run++) {
      const result = await runJest(patterns, run);
      if (stoppedBy) break;
      seconds.push(result.seconds);
      if (result.code === 0) {
        out(`run ${run}/${times}: passed in ${result.seconds.toFixed(0)} s\n`);
        rmSync(result.log, { force: true });
        rmSync(result.json, { force: true });
        continue;
      }
      failedRuns++;
      out(`run ${run}/${times}: FAILED (exit ${result.code}) in ${result.seconds.toFixed(0)} s; output in ${path.relative(projectRoot, result.log)}\n`);
      for (const failure of failuresOf(result.json)) out(`  ${failure}\n`);
      if (!values['keep-going']) break;
    }
  } finally {
    busy?.kill('SIGKILL');
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (failedRuns === 0) rmSync(logDir, { recursive: true, force: true });
  const finished = seconds.length;
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  out(`test:repeat: ${finished - failedRuns} passed, ${failedRuns} failed of ${finished} runs (median ${median.toFixed(0)} s a run)${stoppedBy ? `; stopped by ${stoppedBy} during run ${finished + 1}` : ''}\n`);
  if (stoppedBy) return stoppedBy === 'SIGINT' ? 130 : 143;
  return failedRuns > 0 ? 1 : 0;
};

runCommand(main, 'test:repeat');
