import { countText } from '../server/lib/numberFormat';

/** How a command shows how far its long work has come, on standard error; nothing goes to standard output. */
export interface Progress {
  /** `done` of `total` units (rows, pages) so far; cheap to call for every row: it writes only when due. */
  update(done: number, total: number): void;
  /**
   * What the work does next when it has no count (backup's check of its copy): redrawn at once on a terminal;
   * elsewhere a line only when progress lines were written already, so a short run still prints nothing.
   */
  note(text: string): void;
  /** Clears the terminal's updating line before the command's own last lines; writes nothing on a pipe. */
  end(): void;
}

/** What a command knows of where its standard error goes, and its clock: runCommand's, or a test's. */
export interface ProgressContext {
  /** Standard error is a terminal: one line, redrawn in place (at most every 0.1 s, or PROGRESS_SECONDS when less). Otherwise a line every PROGRESS_SECONDS. */
  terminal: boolean;
  /** The terminal's width, so the line never wraps (a wrapped line cannot be redrawn). */
  columns?: number;
  /** Milliseconds, monotonic. */
  now(): number;
}

/** A pipe or file (cron's mail, journald) gets a line this often by default: enough to see it move, not a flood. */
export const defaultEverySeconds = 10;
/** A terminal's line is redrawn at most this often: faster is flicker, and costs the work time. */
const terminalRedrawMs = 100;
const maxEverySeconds = 3600;

/** What --help says of --quiet, in every command that shows progress. */
export const quietHelp = `--quiet (-q): no progress on standard error (otherwise shown while it works: one updating line on a terminal, a line every ${defaultEverySeconds} s elsewhere, or every PROGRESS_SECONDS).`;

export const noProgress: Progress = { update: () => {}, note: () => {}, end: () => {} };

/** runCommand's context: this process's standard error and clock. */
export function processProgressContext(): ProgressContext {
  return { terminal: Boolean(process.stderr.isTTY), columns: process.stderr.columns, now: () => performance.now() };
}

/**
 * The progress of one piece of work, `name: 1,200 of 10,000 rows (12%), 3,400 rows/s, about 3 s left`, on
 * err. On a terminal the line is redrawn in place (a carriage return and ECMA-48's erase-line, which every
 * terminal emulator reads) and cleared by end(); elsewhere it is written whole, at most once per
 * PROGRESS_SECONDS (default 10; 0 writes at every update, as the tests use), and none before the first
 * period has passed, so a short run prints nothing. A bad PROGRESS_SECONDS is named once, and 10 used.
 */
export function commandProgress(
  name: string,
  unit: string,
  err: (text: string) => void,
  env: Record<string, string | undefined>,
  context: ProgressContext = { terminal: false, now: () => performance.now() },
): Progress {
  const givenMs = everySeconds(name, env, err) * 1000;
  const everyMs = context.terminal ? Math.min(terminalRedrawMs, givenMs) : givenMs;
  const started = context.now();
  let shownAt = context.terminal ? -Infinity : started;
  let shown = false;
  const show = (line: string) => {
    if (context.terminal) {
      // A pseudo-terminal nobody sized (script(1) without a terminal of its own) says 0 columns.
      const width = Math.max(20, (context.columns || 80) - 1);
      err(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    } else {
      err(`${line}\n`);
    }
    shown = true;
  };
  return {
    update(done, total) {
      const now = context.now();
      if (now - shownAt < everyMs) return;
      shownAt = now;
      show(`${name}: ${progressText(done, total, unit, now - started)}`);
    },
    note(text) {
      if (context.terminal || shown) show(`${name}: ${text}`);
    },
    end() {
      if (shown && context.terminal) err('\r\x1b[2K');
      shown = false;
    },
  };
}

function everySeconds(name: string, env: Record<string, string | undefined>, err: (text: string) => void): number {
  const given = env.PROGRESS_SECONDS?.trim();
  if (!given) return defaultEverySeconds;
  const seconds = Number(given);
  if (/^\d+(\.\d+)?$/.test(given) && seconds <= maxEverySeconds) return seconds;
  err(`${name}: PROGRESS_SECONDS must be a number of seconds from 0 to ${maxEverySeconds}, not ${JSON.stringify(given)}; showing progress every ${defaultEverySeconds} s\n`);
  return defaultEverySeconds;
}

/** `1,200 of 10,000 rows (12%), 3,400 rows/s, about 3 s left`: the rate and time left once any time has passed. */
export function progressText(done: number, total: number, unit: string, elapsedMs: number): string {
  const percent = total > 0 ? Math.floor((Math.min(done, total) / total) * 100) : 100;
  const parts = [`${countText(done)} of ${countText(total)} ${unit} (${percent}%)`];
  if (elapsedMs > 0 && done > 0) {
    const perSecond = (done / elapsedMs) * 1000;
    parts.push(`${countText(Math.round(perSecond))} ${unit}/s`);
    if (done < total) parts.push(`about ${durationText((total - done) / perSecond)} left`);
  }
  return parts.join(', ');
}

/** 42 s, 3 min 5 s, 2 h 5 min: as precise as a guess from a rate deserves. */
export function durationText(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}

/** The pages of a SQLite copy (backup, restore) shown, and once all are copied, that the copy is being checked. */
export function pagesShown(progress: Progress): (done: number, total: number) => void {
  return (done, total) => {
    progress.update(done, total);
    if (done === total) progress.note('copied; checking the copy (integrity_check, and every table\'s rows)');
  };
}
