import { sql } from 'kysely';
import { openReportDatabase } from '../../server/reports/reportDatabase';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';

/**
 * The report worker's PostgreSQL connections carry the settings its reads were measured with: room to sort
 * a busy day's visitors in memory, and no parallel workers (starting them cost more than the reads did).
 */
describe('the report database on PostgreSQL', () => {
  let opened: TestEngineDatabase;
  beforeAll(async () => {
    opened = await openTestDatabase('postgres');
  });
  afterAll(() => opened.close());

  it('gives each report connection work_mem 48MB, a statement time limit and no parallel workers', async () => {
    const reports = openReportDatabase({ engine: 'postgres', url: opened.url! }, 7_000);
    try {
      const setting = async (name: string) => (await sql<{ setting: string }>`select current_setting(${name}) as setting`.execute(reports)).rows[0]!.setting;
      expect(await setting('work_mem')).toBe('48MB');
      expect(await setting('max_parallel_workers_per_gather')).toBe('0');
      expect(await setting('statement_timeout')).toBe('7s');
    } finally {
      await reports.destroy();
    }
  });
});
