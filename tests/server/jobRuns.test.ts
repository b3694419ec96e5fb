import { claimJobRun } from '../../server/jobs/jobRuns';
import { engines, useTestDatabase } from '../support/engines';

describe.each(engines)('on %s', (engine) => {
  const { db } = useTestDatabase(engine);

  describe('job runs', () => {
    it('go to exactly one of many claimants per period', async () => {
      const claims = await Promise.all(Array.from({ length: 8 }, () => claimJobRun(db(), 'fold', '2026-11-20')));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await claimJobRun(db(), 'fold', '2026-11-21')).toBe(true);
      expect(await claimJobRun(db(), 'link-check', '2026-11-20')).toBe(true);
    });
  });
});
