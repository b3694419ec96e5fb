import { claimJobRun } from '../../server/jobs/jobRuns';
import type { LinkCheckResult, LinkVerdict } from '../../server/linkHealth/checkLink';
import { databaseLinkCheckLog, memoryLinkCheckLog, type LinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { LinkMonitor, linkHealthState } from '../../server/linkHealth/linkMonitor';
import type { Logger } from '../../server/lib/logger';
import { engines, openTestDatabase } from '../support/engines';

const monitoredUrl = 'https://partner.example.net/join?aff=1';
const verdictOf: Record<number, LinkVerdict> = { 200: 'ok', 403: 'blocked', 404: 'broken', 500: 'error' };

function resultFor(status: number): LinkCheckResult {
  return { checkedAt: new Date(), url: monitoredUrl, finalUrl: monitoredUrl, status, redirects: 0, ms: 5, verdict: verdictOf[status] ?? 'error' };
}

function capturingLogger() {
  const lines: string[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: Logger = { info: (line) => lines.push(line), warning: (message) => warnings.push(message), error: (message) => errors.push(message) };
  return { logger, lines, warnings, errors };
}

/** A monitor whose checks answer the given statuses in turn, without any network. */
function scriptedMonitor(statuses: number[], intervalMs = 3_600_000, log: LinkCheckLog = memoryLinkCheckLog()) {
  const { logger, lines, warnings, errors } = capturingLogger();
  let calls = 0;
  const monitor = new LinkMonitor({
    url: monitoredUrl,
    intervalMs,
    logger,
    log,
    check: async () => resultFor(statuses[calls++ % statuses.length] ?? 200),
  });
  const runAll = async () => {
    for (let i = 0; i < statuses.length; i++) await monitor.runCheck();
  };
  return { monitor, lines, warnings, errors, runAll, calls: () => calls };
}

describe('LinkMonitor', () => {
  it('does not call a single 404 broken', async () => {
    const { monitor, warnings, runAll } = scriptedMonitor([404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 1, broken: false });
    expect(warnings).toEqual([]);
  });

  it('counts 404 twice in a row as broken', async () => {
    const { monitor, runAll } = scriptedMonitor([404, 404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 2, broken: true });
  });

  it('logs one warning naming the address, status and count when the link turns broken', async () => {
    const { warnings, errors, runAll } = scriptedMonitor([404, 404]);
    await runAll();
    expect(warnings).toEqual([`affiliate link looks broken: ${monitoredUrl} answered 404 on 2 checks in a row; check AFFILIATE_URL`]);
    expect(errors).toEqual([]);
  });

  it('logs the error again on each further broken check', async () => {
    const { warnings, runAll } = scriptedMonitor([404, 404, 404]);
    await runAll();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('on 3 checks in a row');
  });

  it.each([403, 500])('keeps a broken streak going across a %s, which says nothing about whether the page is gone', async (status) => {
    const { monitor, runAll } = scriptedMonitor([404, status, 404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 2, broken: true });
  });

  it('starts counting again after a 200', async () => {
    const { monitor, warnings, runAll } = scriptedMonitor([404, 200, 404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 1, broken: false });
    expect(warnings).toEqual([]);
  });

  it('logs one info line when a broken link works again', async () => {
    const { monitor, lines, runAll } = scriptedMonitor([404, 404, 200]);
    await runAll();
    expect((await monitor.state()).broken).toBe(false);
    expect(lines.filter((line) => line.includes('works again'))).toEqual([
      `affiliate link works again: ${monitoredUrl} answered 200 after 2 broken checks in a row`,
    ]);
  });

  it('logs one info line per check with the address, status and verdict', async () => {
    const { lines, runAll } = scriptedMonitor([200, 403]);
    await runAll();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z link check ${monitoredUrl.replace(/[?.]/g, '\\$&')}: 200 \\(ok\\)$`));
    expect(lines[1]).toMatch(/: 403 \(blocked\)$/);
  });

  it('keeps the latest result in its state', async () => {
    const { monitor, runAll } = scriptedMonitor([200, 403]);
    await runAll();
    expect((await monitor.state()).last).toMatchObject({ status: 403, verdict: 'blocked' });
  });

  it('records a check function that throws as an error result instead of rejecting', async () => {
    const { logger } = capturingLogger();
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 1_000, logger, log: memoryLinkCheckLog(), check: () => Promise.reject(new Error('boom')) });
    expect(await monitor.runCheck()).toMatchObject({ verdict: 'error', error: 'boom' });
  });

  it('shares one in-flight check between concurrent runCheck calls', async () => {
    const { logger } = capturingLogger();
    let calls = 0;
    let answer: (result: LinkCheckResult) => void = () => {};
    const check = () => {
      calls++;
      return new Promise<LinkCheckResult>((resolve) => (answer = resolve));
    };
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 1_000, logger, log: memoryLinkCheckLog(), check });
    const first = monitor.runCheck();
    const second = monitor.runCheck();
    answer(resultFor(200));
    expect(await second).toBe(await first);
    expect(calls).toBe(1);
  });

  it('leaves a due check to the instance that claimed it first: one check across instances', async () => {
    const shared = memoryLinkCheckLog();
    const one = scriptedMonitor([200], 3_600_000, shared);
    const two = scriptedMonitor([200], 3_600_000, shared);
    expect(await one.monitor.tick()).toMatchObject({ status: 200 });
    expect(await two.monitor.tick()).toBeUndefined();
    expect(one.calls() + two.calls()).toBe(1);
    expect(await two.monitor.state()).toMatchObject({ last: { status: 200 } });
  });

  it('skips a tick, logging why, when the history cannot be reached', async () => {
    const { logger, warnings } = capturingLogger();
    const unreachable: LinkCheckLog = { claim: () => Promise.reject(new Error('connect ECONNREFUSED')), add: async () => {}, recent: async () => [] };
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 1_000, logger, log: unreachable, check: async () => resultFor(200) });
    expect(await monitor.tick()).toBeUndefined();
    expect(warnings).toEqual(['link check skipped: connect ECONNREFUSED']);
  });

  it('says so once while the history stays unreachable, not at every minute\'s tick, and again after it came back', async () => {
    const { logger, warnings } = capturingLogger();
    let reachable = false;
    const log = memoryLinkCheckLog();
    const flaky: LinkCheckLog = { ...log, recent: (limit) => (reachable ? log.recent(limit) : Promise.reject(new Error('connect ECONNREFUSED'))) };
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 3_600_000, logger, log: flaky, check: async () => resultFor(200) });
    for (let i = 0; i < 5; i++) await monitor.tick();
    expect(warnings).toEqual(['link check skipped: connect ECONNREFUSED']);
    reachable = true;
    expect(await monitor.tick()).toMatchObject({ status: 200 });
    reachable = false;
    await monitor.tick();
    expect(warnings).toHaveLength(2);
  });

  it('counts only the checks of the newest check\'s address: a changed AFFILIATE_URL starts its own streak', async () => {
    const log = memoryLinkCheckLog();
    await log.add({ ...resultFor(404), url: 'https://old.example.net/join' });
    await log.add(resultFor(404));
    expect(linkHealthState(await log.recent(50))).toMatchObject({ consecutiveBroken: 1, broken: false });
  });
});

describe.each(engines)('LinkMonitor on a %s database', (engine) => {
  it('shows every instance the same banner, from the shared history', async () => {
    const opened = await openTestDatabase(engine);
    try {
      const log = () => databaseLinkCheckLog(opened.database.db, (job, period) => claimJobRun(opened.database.db, job, period));
      const checker = scriptedMonitor([404, 404], 3_600_000, log());
      await checker.runAll();
      const other = scriptedMonitor([200], 3_600_000, log());
      expect(await other.monitor.state()).toMatchObject({ consecutiveBroken: 2, broken: true, last: { status: 404 } });
      expect(other.calls()).toBe(0);
    } finally {
      await opened.close();
    }
  });
});
