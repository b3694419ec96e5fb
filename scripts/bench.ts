/**
 * Benchmarks that print figures (timings never gate the tests):
 *   npm run bench
 * - start-up: from spawning the built server to its first answered request (median of 5).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.join(__dirname, '..');
const mainScript = path.join(root, 'dist/server/main.cjs');

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startupMs(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [mainScript], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        if (response.ok) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) runs.push(await startupMs());
  console.log(`start-up to first answered request: median ${median(runs).toFixed(0)} ms (runs: ${runs.map((ms) => ms.toFixed(0)).join(', ')} ms)`);
}

void main();
