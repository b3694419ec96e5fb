/** An operator command's entry: arguments and environment in, text out, an exit code back, so tests can run it in-process. */
export type CommandMain = (
  argv: string[],
  env: Record<string, string | undefined>,
  out: (text: string) => void,
  err: (text: string) => void,
) => Promise<number>;

/** Runs a command's main with this process's arguments, environment and streams, and exits with its code. */
export function runCommand(main: CommandMain): void {
  void main(
    process.argv.slice(2),
    process.env,
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
  ).then((code) => {
    process.exitCode = code;
  });
}
