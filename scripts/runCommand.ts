import path from 'node:path';
import { errorSummary, printable } from '../server/lib/errorText';
import { processProgressContext, type ProgressContext } from './commandProgress';

/**
 * An operator command's entry: arguments and environment in, text out, an exit code back, so tests can run
 * it in-process. `progress` says where err goes (a terminal or not) and gives the clock progress lines use
 * (commandProgress.ts); a test leaves it out: a pipe, and the real clock.
 */
export type CommandMain = (
  argv: string[],
  env: Record<string, string | undefined>,
  out: (text: string) => void,
  err: (text: string) => void,
  progress?: ProgressContext,
) => Promise<number>;

/** The one line a command ends with when something it did not expect went wrong: what, never a stack trace. */
export function failureLine(name: string, error: unknown): string {
  return `${name}: ${printable(errorSummary(error))}\n`;
}

/**
 * Runs a command's main and gives its exit code; anything main throws or rejects with (a query timeout,
 * a connection dropped mid-run) becomes one line, `name: what went wrong`, on err and exit code 1.
 */
export async function runMain(name: string, main: CommandMain, ...io: Parameters<CommandMain>): Promise<number> {
  const err = io[3];
  try {
    return await main(...io);
  } catch (error) {
    err(failureLine(name, error));
    return 1;
  }
}

/**
 * Runs a command's main with this process's arguments, environment and streams, and exits with its code.
 * An error outside main's promise (an emitter's 'error' with no listener, a rejection nobody awaited)
 * also ends the process with one line and exit code 1. The name defaults to the script's file name.
 */
export function runCommand(main: CommandMain, name = path.basename(process.argv[1] ?? 'command').replace(/\.[cm]?[jt]s$/, '')): void {
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    // On a pipe stderr is asynchronous: exit once the line is written, not before.
    process.stderr.write(failureLine(name, error), () => process.exit(1));
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  void runMain(
    name,
    main,
    process.argv.slice(2),
    process.env,
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
    processProgressContext(),
  ).then((code) => {
    process.exitCode = code;
  });
}
