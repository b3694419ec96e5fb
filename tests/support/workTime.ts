import { readFile } from 'node:fs/promises';
import { Client } from 'pg';
import { procStatFields } from './procStat';

/**
 * The CPU time a piece of work costs, for bounds on what the code does rather than on how long a busy machine
 * took to let it run: on two cores beside another jest worker, Chromium and PostgreSQL, a request the server
 * answers in 5 ms of work can wait a second to be scheduled (a 400 to a malformed cost body took 1,022 ms of
 * wall time in CI). CPU time is that wait's complement: it grows only with the work done.
 */
export interface WorkClock {
  /** CPU milliseconds used so far; the difference of two readings is what the work between them cost. */
  read(): Promise<number>;
  close(): Promise<void>;
}

/** This process's CPU time, every thread of it: the app and the client in it, its GC, in-process SQLite. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Clock ticks per second of /proc/PID/stat's times: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)). */
const clockTicksPerSecond = 100;

/** utime + stime of a process as /proc/PID/stat gives them, in ms, or 0 once it has ended. */
export async function procCpuMs(pid: number): Promise<number> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  const fields = procStatFields(stat);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}

/** This process's CPU time alone. */
export const processWork: WorkClock = { read: async () => processCpuMs(), close: async () => {} };

/**
 * This process's CPU time and that of every PostgreSQL backend connected to the database at `url` (the
 * app's pool and this clock's own connection, whose small query is in both readings): a query the app
 * sends costs its time in the backend, not here. Backends are read through /proc, so the cluster must run
 * on this machine, as the tests' clusters do.
 */
export async function postgresWork(url: string): Promise<WorkClock> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    read: async () => {
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
      const backends = await Promise.all(rows.map((row) => procCpuMs(row.pid)));
      return processCpuMs() + backends.reduce((sum, ms) => sum + ms, 0);
    },
    close: () => client.end(),
  };
}
