import { ConfigError, loadConfig } from '../../server/config';

function refusal(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return undefined;
}

describe('BACKUP_DIR', () => {
  it('is off when unset or blank: the server makes no backups', () => {
    expect(loadConfig({}).backupDir).toBeUndefined();
    expect(loadConfig({ BACKUP_DIR: '  ' }).backupDir).toBeUndefined();
  });

  it('names the folder of the daily copies of CLICKS_DB, trimmed', () => {
    expect(loadConfig({ BACKUP_DIR: ' /var/backups/auctions-guide\n', CLICKS_DB: '/var/lib/auctions-guide/clicks.sqlite' }).backupDir).toBe('/var/backups/auctions-guide');
    expect(loadConfig({ BACKUP_DIR: 'data/backups' }).backupDir).toBe('data/backups');
  });

  it.each([
    [{ DATABASE_URL: 'postgres://site:secret@127.0.0.1/site' }, 'BACKUP_DIR backs up the SQLite file CLICKS_DB; with DATABASE_URL set, back PostgreSQL up with pg_dump (see docs/backups.md) and unset BACKUP_DIR'],
    [{ CLICK_STATS: 'off' }, 'BACKUP_DIR backs up the statistics database, which CLICK_STATS=off turns off: unset one of the two'],
    [{ CLICKS_DB: ':memory:' }, 'BACKUP_DIR has nothing to back up while CLICKS_DB is :memory:'],
    [{ CLICKS_DB: '/var/lib/auctions-guide/clicks.sqlite', BACKUP_DIR: '/var/lib/auctions-guide/' }, 'BACKUP_DIR must be a folder of its own, not the one holding CLICKS_DB (old copies in it are deleted by name), got "/var/lib/auctions-guide/"'],
    [{ BACKUP_DIR: 'data' }, 'BACKUP_DIR must be a folder of its own, not the one holding CLICKS_DB (old copies in it are deleted by name), got "data"'],
  ])('refuses %j in one line', (env, message) => {
    expect(refusal({ BACKUP_DIR: '/var/backups/auctions-guide', ...env })).toBe(message);
  });
});
