import type { Timers } from '../../server/schedule/runSchedule';

/**
 * The schedule's clock, driven by hand: advance(ms) fires every tick that falls due within ms, in time
 * order, letting each run's promises settle before the next tick (as jest's advanceTimersByTimeAsync).
 */
export function manualTimers() {
  let now = 0;
  let nextId = 0;
  const intervals = new Map<number, { everyMs: number; due: number; tick: () => void }>();
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const timers: Timers = {
    every(everyMs, tick) {
      const id = nextId++;
      intervals.set(id, { everyMs, due: now + everyMs, tick });
      return () => void intervals.delete(id);
    },
  };
  return {
    timers,
    /** How many timers are set. */
    count: () => intervals.size,
    now: () => now,
    async advance(ms: number): Promise<void> {
      const until = now + ms;
      await settle();
      for (;;) {
        const next = [...intervals.values()].sort((a, b) => a.due - b.due)[0];
        if (!next || next.due > until) break;
        now = next.due;
        next.due += next.everyMs;
        next.tick();
        await settle();
      }
      now = until;
    },
  };
}
