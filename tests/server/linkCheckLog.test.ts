import { claimJobRun } from '../../server/jobs/jobRuns';
import { databaseLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { engines, useTestDatabase } from '../support/engines';

describe.each(engines)('on %s', (engine) => {
  const { db } = useTestDatabase(engine);

  describe('the link-check history', () => {
    it('gives back the latest checks, newest first, as they were recorded', async () => {
      const log = databaseLinkCheckLog(db(), (job, period) => claimJobRun(db(), job, period));
      const base = { url: 'https://partner.example.net/', finalUrl: 'https://partner.example.net/', redirects: 0, ms: 12 };
      await log.add({ ...base, checkedAt: new Date('2026-11-20T10:00:00Z'), status: 404, verdict: 'broken' });
      await log.add({ ...base, checkedAt: new Date('2026-11-20T11:00:00Z'), error: 'timed out after 10000 ms', verdict: 'error' });
      expect(await log.recent(5)).toEqual([
        { ...base, checkedAt: new Date('2026-11-20T11:00:00Z'), error: 'timed out after 10000 ms', verdict: 'error' },
        { ...base, checkedAt: new Date('2026-11-20T10:00:00Z'), status: 404, verdict: 'broken' },
      ]);
      expect(await log.claim('a1b2c3d4e5f6:0:7')).toBe(true);
      expect(await log.claim('a1b2c3d4e5f6:0:7')).toBe(false);
    });
  });
});
