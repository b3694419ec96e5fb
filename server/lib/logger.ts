/** Where the server writes its one-line records: stdout for access lines, stderr for problems. */
export interface Logger {
  info(line: string): void;
  error(message: string, error?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (line) => process.stdout.write(`${line}\n`),
  error: (message, error) => {
    const detail = error instanceof Error ? ` ${error.stack ?? error.message}` : error === undefined ? '' : ` ${String(error)}`;
    process.stderr.write(`${new Date().toISOString()} ERROR ${message}${detail}\n`);
  },
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };
