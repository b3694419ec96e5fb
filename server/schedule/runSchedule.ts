import { errorSummary } from '../lib/errorText';
import type { Logger } from '../lib/logger';

/** One line of the schedule (schedule.ts): a timer of a running instance. */
export interface ScheduledTask {
  /** Names the task in the log line of a run that failed. */
  name: string;
  everyMs: number;
  /** True: a run as the schedule starts; false: the first run comes everyMs later. */
  atStart: boolean;
  /**
   * The run claimed once across instances in job_runs (server/jobs/jobRuns.ts), and per what; the task
   * claims it itself, inside the work where the claim must be atomic with it. Undefined: every instance runs all of it.
   */
  claim?: { job: string; per: string };
  /** One run. It should not reject; one that does is logged and the next run comes as usual. */
  run(): Promise<unknown>;
}

/** Where the schedule's ticks come from: real timers in a running instance, a hand-driven clock in tests. */
export interface Timers {
  /** Calls tick every ms until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** Node's timers, unref'd: a schedule never keeps the process alive on its own. */
export const nodeTimers: Timers = {
  every(ms, tick) {
    const timer = setInterval(tick, ms).unref();
    return () => clearInterval(timer);
  },
};

export interface RunningSchedule {
  /** At the stop signal: every timer cancelled; no run starts after this. */
  stop(): void;
  /** Resolves once the runs under way at stop() have ended. */
  finish(): Promise<void>;
  /**
   * Resolves once no run is under way, runs that start meanwhile included. A test driving the clock by hand
   * waits on it between ticks: a tick that comes while a run is still going is skipped, as in a running instance.
   */
  settled(): Promise<void>;
}

/**
 * Starts every task of the table on its own timer, with a run at once for those that ask. A task never
 * overlaps itself: a tick that comes while its last run is still going is skipped, and the next tick
 * tries again.
 */
export function startSchedule(tasks: readonly ScheduledTask[], { logger, timers = nodeTimers }: { logger: Logger; timers?: Timers }): RunningSchedule {
  let stopped = false;
  const running = new Set<Promise<void>>();
  const cancels = tasks.map((task) => {
    const run = async () => {
      try {
        await task.run();
      } catch (error) {
        logger.error(`${task.name} failed: ${errorSummary(error)}; it runs again in ${task.everyMs / 1000} s`);
      }
    };
    /** The run under way, if any. */
    let current: Promise<void> | undefined;
    const tick = () => {
      if (stopped || current) return;
      current = run().finally(() => {
        running.delete(current!);
        current = undefined;
      });
      running.add(current);
    };
    const cancel = timers.every(task.everyMs, tick);
    if (task.atStart) tick();
    return cancel;
  });
  return {
    stop() {
      stopped = true;
      for (const cancel of cancels) cancel();
    },
    async finish() {
      await Promise.all(running);
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
