/**
 * The task as a function that never overlaps itself: a call while a run is under way gets that run
 * instead of starting a second one. For a task called both by the schedule (which never overlaps a task
 * with itself, runSchedule.ts) and directly (the digest's check, the watch's look), so both callers share one run.
 */
export function oneAtATime<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= task().finally(() => {
      running = undefined;
    });
    return running;
  };
}
