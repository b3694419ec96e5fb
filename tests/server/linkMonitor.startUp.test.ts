import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBackgroundWork } from '../../server/backgroundWork';
import { loadConfig } from '../../server/config';
import { silentLogger } from '../../server/lib/logger';
import type { LinkCheckResult } from '../../server/linkHealth/checkLink';
import { databaseLinkCheckLog, memoryLinkCheckLog, type LinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import {
  defaultLinkCheckHours,
  LinkMonitor,
  linkCheckDue,
  linkCheckOff,
  linkCheckTickMs,
  recheckAfterBrokenMs,
  startUpSkipMs,
} from '../../server/linkHealth/linkMonitor';
import { inProcessReportReader } from '../../server/reports/reportReader';
import { createStatsStores } from '../../server/statsStores';
import { engines, openTestDatabase } from '../support/engines';
import { manualTimers } from '../support/manualTimers';
import { testConfig } from '../support/testApp';
import { waitUntil } from '../support/waitUntil';

const minute = 60_000;
const hour = 60 * minute;
/** A Wednesday noon, UTC: the monitors' clock starts here (the schedule's manual clock adds to it). */
const start = Date.parse('2026-11-25T12:00:00Z');
const sixHours = defaultLinkCheckHours * hour;

/**
 * The partner, on loopback: answers each request for the page with the next scripted status (then the last
 * one again), and counts them; it has no robots.txt (a 404, which the link check's fetcher reads as allowing all).
 */
let partner: Server;
let partnerUrl = '';
let statuses: number[] = [];
let requests = 0;
beforeAll(async () => {
  partner = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    requests += 1;
    const status = statuses.length > 1 ? statuses.shift()! : (statuses[0] ?? 200);
    res.writeHead(status).end();
  }).listen(0, '127.0.0.1');
  await once(partner, 'listening');
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/join?aff=1`;
});
afterAll(() => new Promise((resolve) => partner.close(resolve)));
beforeEach(() => {
  statuses = [200];
  requests = 0;
});

function recorded(at: number, verdict: LinkCheckResult['verdict'], url = partnerUrl): LinkCheckResult {
  const status = { ok: 200, broken: 404, blocked: 403, error: 500 }[verdict];
  return { checkedAt: new Date(at), url, finalUrl: url, status, redirects: 0, ms: 3, verdict };
}

/** An instance's monitor of the partner, on the shared history, at the clock's time; the real checkLink. */
function instance(log: LinkCheckLog, now: () => number, intervalMs = sixHours) {
  return new LinkMonitor({ url: partnerUrl, intervalMs, logger: silentLogger, log, now });
}

describe('the link check at start-up', () => {
  it('checks at start although the last check is recent by the period (30 minutes into 6 hours)', async () => {
    const log = memoryLinkCheckLog();
    await log.add(recorded(start - 30 * minute, 'ok'));
    const result = await instance(log, () => start).tick();
    expect(result).toMatchObject({ url: partnerUrl, status: 200, verdict: 'ok', checkedAt: new Date(start) });
    expect(requests).toBe(1);
  });

  it(`skips it when the same address was checked within ${startUpSkipMs / minute} minutes, then waits for the period`, async () => {
    const log = memoryLinkCheckLog();
    await log.add(recorded(start - 4 * minute, 'ok'));
    const monitor = instance(log, () => now);
    let now = start;
    expect(await monitor.tick()).toBeUndefined();
    now = start + 2 * hour;
    expect(await monitor.tick()).toBeUndefined();
    now = start - 4 * minute + sixHours;
    expect(await monitor.tick()).toMatchObject({ verdict: 'ok' });
    expect(requests).toBe(1);
  });

  it('checks a changed AFFILIATE_URL at start, however recent the last check of the old one', async () => {
    const log = memoryLinkCheckLog();
    await log.add(recorded(start - minute, 'ok', 'https://old-partner.example.net/join'));
    expect(await instance(log, () => start).tick()).toMatchObject({ url: partnerUrl });
    expect(requests).toBe(1);
  });

  it('lets instances restarting in a loop check once per skip window, not once per start', async () => {
    const log = memoryLinkCheckLog();
    // Three instances restarting every 30 seconds for 20 minutes: 120 starts.
    for (let at = start; at < start + 20 * minute; at += 30_000) {
      for (let i = 0; i < 3; i++) await instance(log, () => at).tick();
    }
    expect(requests).toBe(4);
  });

  it('leaves a start-up check that another instance claimed to it, and counts that check as its own', async () => {
    const log = memoryLinkCheckLog();
    const [one, two] = [instance(log, () => start), instance(log, () => start)];
    const [first, second] = await Promise.all([one.tick(), two.tick()]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await two.tick()).toBeUndefined();
    expect(requests).toBe(1);
  });
});

describe('when a check is due (linkCheckDue, time as an input)', () => {
  const due = (recent: LinkCheckResult[], now: number, startedUp = true) =>
    linkCheckDue({ url: partnerUrl, recent, now, intervalMs: sixHours, startedUp });

  it('names the reason: a new address, the start, a re-check after a first broken answer, the period', () => {
    expect(due([], start, true)).toBe('first check of this address');
    expect(due([recorded(start - 5 * minute, 'ok')], start, false)).toBe('start-up');
    expect(due([recorded(start - 5 * minute + 1, 'ok')], start, false)).toBeUndefined();
    expect(due([recorded(start - recheckAfterBrokenMs, 'broken')], start)).toBe('re-check after a broken answer');
    expect(due([recorded(start - recheckAfterBrokenMs + 1, 'broken')], start)).toBeUndefined();
    expect(due([recorded(start - sixHours, 'ok')], start)).toBe('period');
    expect(due([recorded(start - sixHours + 1, 'ok')], start)).toBeUndefined();
  });

  it('re-checks 3 minutes after the first broken answer of a streak; once two are in, every 15 minutes until it works', () => {
    const twice = [recorded(start - 10 * minute, 'broken'), recorded(start - 13 * minute, 'broken')];
    expect(due(twice, start)).toBeUndefined();
    expect(due(twice, start + 5 * minute)).toBe('re-check while broken');
    const failingOn = [recorded(start - 15 * minute, 'error'), ...twice];
    expect(due(failingOn, start)).toBe('re-check while broken');
    const recovered = [recorded(start - 15 * minute, 'ok'), ...twice];
    expect(due(recovered, start)).toBeUndefined();
  });

  it('while broken and the partner gives no answer that says anything, waits as long as that has lasted, at most 2 hours', () => {
    const twice = [recorded(start - 6 * hour, 'broken'), recorded(start - 7 * hour, 'broken')];
    // No answer (error) and a refusal (blocked) for the 45 minutes before the latest check: the next 45 minutes after it.
    const silentFor45 = [recorded(start - 45 * minute, 'error'), recorded(start - 60 * minute, 'blocked'), recorded(start - 90 * minute, 'error'), ...twice];
    expect(due(silentFor45, start - 1)).toBeUndefined();
    expect(due(silentFor45, start)).toBe('re-check while broken');
    const silentForHours = [recorded(start - 2 * hour, 'error'), recorded(start - 4 * hour, 'error'), recorded(start - 5 * hour, 'error'), ...twice];
    expect(due(silentForHours, start - 1)).toBeUndefined();
    expect(due(silentForHours, start)).toBe('re-check while broken');
    // A 404 again ends the run: every 15 minutes.
    const answeredAgain = [recorded(start - 15 * minute, 'broken'), ...silentForHours];
    expect(due(answeredAgain, start)).toBe('re-check while broken');
  });

  it('with the link broken, a restart 3 minutes after the alert skips its own check but re-checks within 15 minutes', () => {
    const alerted = [recorded(start - 3 * minute, 'broken'), recorded(start - 6 * minute, 'broken')];
    expect(due(alerted, start, false)).toBeUndefined();
    expect(due(alerted, start + 11 * minute)).toBeUndefined();
    expect(due(alerted, start + 12 * minute)).toBe('re-check while broken');
  });
});

describe('on the schedule (startBackgroundWork, the manual clock)', () => {
  function running(env: Record<string, string>, log: LinkCheckLog = memoryLinkCheckLog()) {
    const config = testConfig({ CLICK_STATS: 'off', ...env });
    const clock = manualTimers();
    const now = () => start + clock.now();
    const off = linkCheckOff(partnerUrl, config.linkCheckHours);
    const monitor = off || !config.linkCheckHours ? undefined : instance(log, now, config.linkCheckHours * hour);
    const background = startBackgroundWork(config, undefined, { ...(monitor ? { linkMonitor: monitor } : {}), logger: silentLogger, timers: clock.timers });
    /** Moves the clock a minute at a time, letting each check end (real HTTP on loopback) before the next tick. */
    const advance = async (ms: number) => {
      for (let moved = 0; moved < ms; moved += linkCheckTickMs) {
        await clock.advance(linkCheckTickMs);
        await background.settled();
      }
    };
    return { clock, log, advance, background, settled: () => background.settled() };
  }

  it(`with LINK_CHECK_HOURS unset, checks at start and every ${defaultLinkCheckHours} hours`, async () => {
    const { advance, log, background, settled } = running({});
    try {
      await settled();
      await advance(sixHours - minute);
      expect(requests).toBe(1);
      await advance(minute);
      expect(requests).toBe(2);
      await advance(sixHours);
      expect(requests).toBe(3);
      expect((await log.recent(3)).map((check) => check.checkedAt.getTime() - start)).toEqual([2 * sixHours, sixHours, 0]);
    } finally {
      background.stop();
      await background.finish();
    }
  });

  it(`checks again ${recheckAfterBrokenMs / minute} minutes after a broken answer, then at the period`, async () => {
    statuses = [404, 200];
    const { advance, log, background, settled } = running({});
    try {
      await settled();
      await advance(recheckAfterBrokenMs - minute);
      expect(requests).toBe(1);
      await advance(minute);
      expect(requests).toBe(2);
      expect((await log.recent(2)).map((check) => [check.verdict, check.checkedAt.getTime() - start])).toEqual([
        ['ok', recheckAfterBrokenMs],
        ['broken', 0],
      ]);
      await advance(hour);
      expect(requests).toBe(2);
    } finally {
      background.stop();
      await background.finish();
    }
  });

  it.each(['off', '0'])('with LINK_CHECK_HOURS=%s, never checks', async (value) => {
    expect(linkCheckOff(partnerUrl, loadConfig({ LINK_CHECK_HOURS: value }).linkCheckHours)).toBe('LINK_CHECK_HOURS is off');
    const { clock, advance, background } = running({ LINK_CHECK_HOURS: value });
    expect(clock.count()).toBe(0);
    await advance(10 * minute);
    await clock.advance(2 * sixHours);
    expect(requests).toBe(0);
    background.stop();
    await background.finish();
  });

  it('never checks a documentation address such as the sample AFFILIATE_URL', () => {
    expect(linkCheckOff(loadConfig({}).affiliateUrl, loadConfig({}).linkCheckHours)).toBe(
      'AFFILIATE_URL is on www.example.com, a documentation address no partner answers',
    );
    expect(linkCheckOff('https://partner.example.net/join', 6)).toMatch(/partner\.example\.net/);
    expect(linkCheckOff('https://www.exampleaffiliates.com/join', 6)).toBeUndefined();
    expect(linkCheckOff(partnerUrl, 6)).toBeUndefined();
  });
});

describe.each(engines)('the link alert on %s', (engine) => {
  async function site() {
    const opened = await openTestDatabase(engine);
    const { database } = opened;
    const stores = createStatsStores(database, inProcessReportReader(database.db));
    const clock = manualTimers();
    const monitor = instance(stores.linkChecks, () => start + clock.now());
    const background = startBackgroundWork(testConfig({}), stores, { linkMonitor: monitor, logger: silentLogger, timers: clock.timers });
    const linkIncidents = () => database.db.selectFrom('incidents').select(['rule', 'closed_at']).where('rule', '=', 'link').execute();
    const checks = async () => (await stores.linkChecks.recent(100)).length;
    const close = async () => {
      background.stop();
      await background.finish();
      await opened.close();
    };
    /**
     * A minute at a time, each tick's runs ended before the next: the check and the link rule after it,
     * which a tick coming while they run would skip (waiting for the check's row alone lost the re-check
     * on PostgreSQL, whose link rule was still reading when three minutes' ticks came).
     */
    const advance = async (ms: number) => {
      for (let moved = 0; moved < ms; moved += linkCheckTickMs) {
        await clock.advance(linkCheckTickMs);
        await background.settled();
      }
    };
    /** The runs at start (the start-up check and the link rule after it) ended. */
    const started = () => background.settled();
    return { advance, started, linkIncidents, checks, close };
  }

  it(`opens the link incident as the second broken answer comes, ${recheckAfterBrokenMs / minute} minutes after the first`, async () => {
    statuses = [404];
    const { advance, started, linkIncidents, checks, close } = await site();
    try {
      await started();
      expect(await checks()).toBe(1);
      expect(await linkIncidents()).toEqual([]);
      await advance(recheckAfterBrokenMs);
      // The link rule runs right after the check: no wait for the alert watch's next five-minute period.
      const [incident] = await waitUntil('the link incident', async () => (await linkIncidents()).length === 1 && linkIncidents());
      expect(incident).toMatchObject({ rule: 'link', closed_at: null });
      expect(requests).toBe(2);
    } finally {
      await close();
    }
  });

  it('opens none for one broken answer followed by a working one', async () => {
    statuses = [404, 200];
    const { advance, started, linkIncidents, checks, close } = await site();
    try {
      await started();
      expect(await checks()).toBe(1);
      await advance(recheckAfterBrokenMs);
      expect(await checks()).toBe(2);
      await advance(10 * minute);
      expect(await linkIncidents()).toEqual([]);
      expect(requests).toBe(2);
    } finally {
      await close();
    }
  });
});
