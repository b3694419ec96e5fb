/**
 * A background task run at once and then every intervalMs, on a timer that never keeps the process alive
 * on its own. A run asked for while one is under way gets that one, so runs never overlap. The task must
 * not reject: nobody awaits the timer's runs.
 */
export class RepeatingTask<T> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<T> | undefined;

  constructor(
    private readonly task: () => Promise<T>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.run(), this.intervalMs).unref();
    void this.run();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One run now, or the one under way. */
  run(): Promise<T> {
    this.running ??= this.task().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
