import { startBackgroundWork } from '../../server/backgroundWork';
import { silentLogger } from '../../server/lib/logger';
import type { LinkCheckResult } from '../../server/linkHealth/checkLink';
import { memoryLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { LinkMonitor } from '../../server/linkHealth/linkMonitor';
import { instanceSchedule, type ScheduledWork } from '../../server/schedule/schedule';
import { manualTimers } from '../support/manualTimers';
import { testConfig } from '../support/testApp';

const nothing = async () => {};

const everything: ScheduledWork = {
  statistics: { maintain: nothing, recordRelease: nothing, flushFiltered: nothing, watch: nothing, checkDigest: nothing, sendOutbox: nothing, checkDatabaseFile: () => {} },
  linkCheck: { everyMs: 3 * 3_600_000, run: nothing },
  claimsCheck: { everyMs: 60_000, run: nothing },
  backup: nothing,
};

const lines = (work: ScheduledWork) => instanceSchedule(work).map(({ name, everyMs, atStart, claim }) => ({ name, everyMs, atStart, claim }));

describe('the schedule of a running instance', () => {
  it('lists every timer with its period, whether it runs at start, and what it claims across instances', () => {
    expect(lines(everything)).toEqual([
      { name: 'maintenance', everyMs: 15 * 60_000, atStart: true, claim: { job: 'fold', per: 'UTC day' } },
      { name: 'recording the release', everyMs: 15 * 60_000, atStart: true, claim: undefined },
      { name: 'writing the filtered counts', everyMs: 10_000, atStart: false, claim: undefined },
      { name: 'the outbox sender', everyMs: 5_000, atStart: true, claim: undefined },
      { name: 'the weekly digest', everyMs: 5 * 60_000, atStart: true, claim: { job: 'digest', per: 'ISO week' } },
      { name: 'the database file check', everyMs: 2_000, atStart: false, claim: undefined },
      { name: 'the alert watch', everyMs: 60_000, atStart: true, claim: { job: 'watch', per: '5-minute period' } },
      { name: 'the daily backup', everyMs: 3_600_000, atStart: true, claim: undefined },
      { name: 'the link check', everyMs: 3 * 3_600_000, atStart: true, claim: { job: 'link-check', per: 'due check (start-up, LINK_CHECK_HOURS, re-check)' } },
      { name: 'the claims check', everyMs: 60_000, atStart: true, claim: { job: 'claims-check', per: 'due check (CLAIMS_CHECK_HOURS, a claim not verified every 15 min)' } },
    ]);
  });

  it('leaves out what is not configured: no sender without alerts, no digest without e-mail, no link check with LINK_CHECK_HOURS=off', () => {
    expect(lines({ statistics: { maintain: nothing, flushFiltered: nothing, watch: nothing } }).map((line) => line.name)).toEqual([
      'maintenance',
      'writing the filtered counts',
      'the alert watch',
    ]);
  });

  it('with statistics off, holds only the link check', () => {
    expect(lines({ linkCheck: everything.linkCheck }).map((line) => line.name)).toEqual(['the link check']);
    expect(lines({})).toEqual([]);
  });
});

describe('the link check, started from the schedule', () => {
  function monitorCountingChecks(intervalMs: number) {
    let checks = 0;
    const url = 'https://partner.example.net/join?aff=1';
    const monitor = new LinkMonitor({
      url,
      intervalMs,
      logger: silentLogger,
      log: memoryLinkCheckLog(),
      // The clock the claims read moves with the schedule's, so each tick has a period of its own.
      now: () => clock.now(),
      check: async (): Promise<LinkCheckResult> => {
        checks += 1;
        return { checkedAt: new Date(), url, finalUrl: url, status: 200, redirects: 0, ms: 1, verdict: 'ok' };
      },
    });
    const clock = manualTimers();
    const background = startBackgroundWork(testConfig({ CLICK_STATS: 'off', LINK_CHECK_HOURS: '1' }), undefined, { linkMonitor: monitor, logger: silentLogger, timers: clock.timers });
    return { clock, background, checks: () => checks };
  }

  it('checks right away', async () => {
    const { clock, checks } = monitorCountingChecks(3_600_000);
    await clock.advance(0);
    expect(checks()).toBe(1);
  });

  it('checks again every interval', async () => {
    const { clock, checks } = monitorCountingChecks(3_600_000);
    await clock.advance(3 * 3_600_000);
    expect(checks()).toBe(4);
  });

  it('checks no more once stopped', async () => {
    const { clock, background, checks } = monitorCountingChecks(3_600_000);
    background.stop();
    await background.finish();
    await clock.advance(5 * 3_600_000);
    expect(checks()).toBe(1);
  });
});
