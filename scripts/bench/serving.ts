import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import { freePort } from '../../tests/support/mainProcess';
import { benchClicksDb, mainScript, stop, waitUntilUp } from './benchServer';
import { median } from './percentiles';

/** Part 1, start-up, and part 3, throughput: the built server serving pages. */

export async function benchStartup() {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(process.execPath, [mainScript], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CLICKS_DB: benchClicksDb }, stdio: 'ignore' });
    await waitUntilUp(`http://127.0.0.1:${port}/`);
    runs.push(performance.now() - started);
    await stop(child);
  }
  console.log(`\nStart-up to first answered request: median ${median(runs).toFixed(0)} ms (runs ${runs.map((ms) => ms.toFixed(0)).join(', ')})`);
}

function runAutocannon(url: string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, duration: 10, pipelining: 1 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export async function benchThroughput(base: string) {
  const html = await (await fetch(`${base}/`, { headers: { 'Accept-Encoding': 'identity' } })).text();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-static-'));
  writeFileSync(path.join(dir, 'index.html'), html);
  const staticApp = express();
  staticApp.use(express.static(dir));
  const staticServer = staticApp.listen(0, '127.0.0.1');
  await once(staticServer, 'listening');
  const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`;
  try {
    const ours = await runAutocannon(`${base}/`);
    const theirs = await runAutocannon(staticUrl);
    console.log('\nThroughput on / (autocannon, 50 connections, 10 s, no compression asked for)');
    console.log(`  this server:      ${ours.requests.average.toFixed(0)} req/s, p99 ${ours.latency.p99} ms`);
    console.log(`  express.static:   ${theirs.requests.average.toFixed(0)} req/s, p99 ${theirs.latency.p99} ms (same ${html.length} bytes)`);
    console.log(`  ratio:            ${(ours.requests.average / theirs.requests.average).toFixed(2)}`);
  } finally {
    staticServer.close();
  }
}
