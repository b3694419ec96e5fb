/** Which engine holds the statistics, and where: read from DATABASE_URL or CLICKS_DB by server/config.ts. */
export type Engine = 'sqlite' | 'postgres';

export type DatabaseSettings =
  /** file may be ':memory:' (tests), which keeps counts only while the process runs. */
  | { engine: 'sqlite'; file: string }
  | { engine: 'postgres'; url: string };

/** A postgres:// URL with its password replaced by "***", for every message and log line. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(an unreadable URL)';
  }
}

/** How messages name the database: the variable that chose it, and its value without a password. */
export function describeDatabase(settings: DatabaseSettings): string {
  return settings.engine === 'sqlite' ? `CLICKS_DB ${settings.file}` : `DATABASE_URL ${redactUrl(settings.url)}`;
}
