import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { postgresWork, procCpuMs, processCpuMs } from '../support/workTime';

/** The CPU clocks the hostile-input bounds read (tests/support/workTime.ts) count work, and not waiting. */

describe('the CPU clocks', () => {
  it('read /proc as the kernel counts this process, busy or waiting', async () => {
    // /proc's readings enclose ours: whatever this process does while a reading is awaited (a file read on
    // libuv's threads, jest's own work) is in /proc's difference and not in ours, never the other way round.
    const procBefore = await procCpuMs(process.pid);
    const before = processCpuMs();
    while (processCpuMs() - before < 300);
    const afterSpin = processCpuMs();
    // /proc counts in ticks of 10 ms.
    expect((await procCpuMs(process.pid)) - procBefore).toBeGreaterThanOrEqual(afterSpin - before - 20);
    expect((await procCpuMs(process.pid)) - procBefore).toBeLessThan(afterSpin - before + 50);
    await sleep(300);
    expect(processCpuMs() - afterSpin).toBeLessThan(100);
  });
});

describe('postgresWork', () => {
  let database: TestDatabase;
  let app: Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = new Client({ connectionString: database.url });
    await app.connect();
  });
  afterAll(async () => {
    await app.end();
    await database.drop();
  });

  it('counts what a query costs in its backend, and not a query that waits', async () => {
    const work = await postgresWork(database.url);
    try {
      const before = await work.read();
      const cpuBefore = processCpuMs();
      await app.query('select count(*) from generate_series(1, 3000000)');
      const afterQuery = await work.read();
      // Almost all of it is the backend's: this process only waited for the answer.
      expect(afterQuery - before - (processCpuMs() - cpuBefore)).toBeGreaterThan(100);
      await app.query('select pg_sleep(0.3)');
      expect((await work.read()) - afterQuery).toBeLessThan(100);
    } finally {
      await work.close();
    }
  });
});
