/** How serious a line is; journald, syslog and Loki all sort by it. */
export type LogLevel = 'error' | 'warning' | 'info';

/** `text` for people (a terminal, or journald with its priority prefix), `json` one object per line for Loki and the like. */
export type LogFormat = 'text' | 'json';

export const logFormats: readonly LogFormat[] = ['text', 'json'];

/** What a line is about, as data: kept apart from the message in JSON, left out of the text form (the message says it). */
export type LogFields = Readonly<Record<string, string | number | boolean | null>>;

/** Where the server writes its one-line records: stdout for information, stderr for warnings and errors. */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  /** Something the operator should look at, while the site goes on working (a sample setting, a broken link). */
  warning(message: string, fields?: LogFields): void;
  /** Something failed; with the error, its stack (text) or its message (JSON fields). */
  error(message: string, error?: unknown, fields?: LogFields): void;
}

export interface LogRecord {
  time: Date;
  level: LogLevel;
  message: string;
  fields?: LogFields | undefined;
  /** The error's stack or message, after the message. */
  detail?: string | undefined;
  /** Text without time and level: a line that names itself, as start-up's refusal `auctions-guide: …`. */
  plain?: boolean;
}

export interface LogStyle {
  format: LogFormat;
  /** Under systemd: every line starts with its sd-daemon priority, so `journalctl -p err` finds it. */
  journal: boolean;
}

/** sd-daemon(3)'s SD_ERR, SD_WARNING and SD_INFO, the syslog priorities. */
export const journalPriority: Readonly<Record<LogLevel, number>> = { error: 3, warning: 4, info: 6 };

function detailOf(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * A record as the text written for it, ending in a newline. Information keeps today's bare line; warnings and
 * errors carry their time and level. Under journald each physical line (a stack's too) carries the prefix,
 * since journald reads each as an entry of its own.
 */
export function formatLogRecord(record: LogRecord, { format, journal }: LogStyle): string {
  const { time, level, message, fields, detail, plain = false } = record;
  const text =
    format === 'json'
      ? JSON.stringify({ time: time.toISOString(), level, message, ...(fields || detail !== undefined ? { fields: { ...fields, ...(detail !== undefined ? { error: detail } : {}) } } : {}) })
      : level === 'info' || plain
        ? message
        : `${time.toISOString()} ${level.toUpperCase()} ${message}${detail !== undefined ? ` ${detail}` : ''}`;
  if (!journal) return `${text}\n`;
  const prefix = `<${journalPriority[level]}>`;
  return `${text.split('\n').map((line) => `${prefix}${line}`).join('\n')}\n`;
}

/** The style the environment asks for: JOURNAL_STREAM is set by systemd when stdout or stderr goes to the journal. */
export function logStyleOf(format: LogFormat, env: NodeJS.ProcessEnv = process.env): LogStyle {
  return { format, journal: Boolean(env.JOURNAL_STREAM) };
}

export interface LoggerOutput {
  /** Information. */
  out: (text: string) => void;
  /** Warnings and errors. */
  err: (text: string) => void;
  now: () => Date;
}

const processOutput: LoggerOutput = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  now: () => new Date(),
};

export function createLogger(style: LogStyle, output: LoggerOutput = processOutput): Logger {
  const write = (level: LogLevel, message: string, fields: LogFields | undefined, detail?: string) => {
    const text = formatLogRecord({ time: output.now(), level, message, fields, detail }, style);
    if (level === 'info') output.out(text);
    else output.err(text);
  };
  return {
    info: (message, fields) => write('info', message, fields),
    warning: (message, fields) => write('warning', message, fields),
    error: (message, error, fields) => write('error', message, fields, detailOf(error)),
  };
}

/** Plain text on stdout and stderr, as on a terminal: for code that is handed no logger. */
export const consoleLogger: Logger = createLogger({ format: 'text', journal: false });

export const silentLogger: Logger = { info: () => {}, warning: () => {}, error: () => {} };
