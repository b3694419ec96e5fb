import { nodeTimers, startSchedule, type ScheduledTask } from '../../server/schedule/runSchedule';
import type { Logger } from '../../server/lib/logger';
import { manualTimers } from '../support/manualTimers';

function recordingLogger() {
  const errors: string[] = [];
  const logger: Logger = { info: () => {}, warning: (message) => errors.push(message), error: (message) => errors.push(message) };
  return { logger, errors };
}

/** A task whose runs are counted and, when held, stay under way until released. */
function countedTask(overrides: Partial<ScheduledTask> = {}) {
  let runs = 0;
  let held = false;
  let release: () => void = () => {};
  const task: ScheduledTask = {
    name: 'counting',
    everyMs: 1_000,
    atStart: false,
    run: () => {
      runs += 1;
      return held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
    ...overrides,
  };
  return {
    task,
    runs: () => runs,
    hold: () => (held = true),
    release: () => {
      held = false;
      release();
    },
  };
}

describe('startSchedule', () => {
  it('runs a task marked atStart at once, then every period', async () => {
    const clock = manualTimers();
    const counted = countedTask({ atStart: true });
    startSchedule([counted.task], { logger: recordingLogger().logger, timers: clock.timers });
    expect(counted.runs()).toBe(1);
    await clock.advance(3_000);
    expect(counted.runs()).toBe(4);
  });

  it('runs a task not marked atStart first one period after the start', async () => {
    const clock = manualTimers();
    const counted = countedTask();
    startSchedule([counted.task], { logger: recordingLogger().logger, timers: clock.timers });
    await clock.advance(999);
    expect(counted.runs()).toBe(0);
    await clock.advance(1);
    expect(counted.runs()).toBe(1);
  });

  it('gives each task its own period', async () => {
    const clock = manualTimers();
    const fast = countedTask({ name: 'fast', everyMs: 100 });
    const slow = countedTask({ name: 'slow', everyMs: 1_000 });
    startSchedule([fast.task, slow.task], { logger: recordingLogger().logger, timers: clock.timers });
    await clock.advance(1_000);
    expect([fast.runs(), slow.runs()]).toEqual([10, 1]);
  });

  it('skips a tick while the last run is still going, and runs again at the next tick after it ended', async () => {
    const clock = manualTimers();
    const counted = countedTask({ atStart: true });
    counted.hold();
    startSchedule([counted.task], { logger: recordingLogger().logger, timers: clock.timers });
    await clock.advance(5_000);
    expect(counted.runs()).toBe(1);
    counted.release();
    await clock.advance(999);
    expect(counted.runs()).toBe(1);
    await clock.advance(1);
    expect(counted.runs()).toBe(2);
  });

  it('starts no run once stopped, and cancels every timer', async () => {
    const clock = manualTimers();
    const counted = countedTask({ atStart: true });
    const schedule = startSchedule([counted.task, countedTask({ name: 'other' }).task], { logger: recordingLogger().logger, timers: clock.timers });
    expect(clock.count()).toBe(2);
    schedule.stop();
    expect(clock.count()).toBe(0);
    await clock.advance(10_000);
    expect(counted.runs()).toBe(1);
  });

  it('finishes only once the run under way at the stop has ended', async () => {
    const clock = manualTimers();
    const counted = countedTask({ atStart: true });
    counted.hold();
    const schedule = startSchedule([counted.task], { logger: recordingLogger().logger, timers: clock.timers });
    schedule.stop();
    let finished = false;
    const finishing = schedule.finish().then(() => (finished = true));
    await clock.advance(0);
    expect(finished).toBe(false);
    counted.release();
    await finishing;
    expect(finished).toBe(true);
  });

  it('logs a run that rejects in one line, and runs the task again at its next tick', async () => {
    const clock = manualTimers();
    const { logger, errors } = recordingLogger();
    let runs = 0;
    const failing: ScheduledTask = { name: 'the failing task', everyMs: 60_000, atStart: true, run: () => Promise.reject(new Error(`attempt ${++runs} failed\nstack`)) };
    startSchedule([failing], { logger, timers: clock.timers });
    await clock.advance(60_000);
    expect(errors).toEqual(['the failing task failed: attempt 1 failed; it runs again in 60 s', 'the failing task failed: attempt 2 failed; it runs again in 60 s']);
  });

  it("does not let Node's timers keep the process alive", () => {
    const setIntervalSpy = jest.spyOn(global, 'setInterval');
    try {
      const cancel = nodeTimers.every(60_000, () => {});
      const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      cancel();
    } finally {
      setIntervalSpy.mockRestore();
    }
  });
});
