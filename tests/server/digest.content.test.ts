import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { weekEnding } from '../../server/digest/digestWeek';
import { inProcessReportReader } from '../../server/reports/reportReader';
import type { OutboxMessage } from '../../server/delivery/outbox';
import { engines } from '../support/engines';
import { useFunnelRecording } from '../support/funnelRecording';
import { parseHtml } from '../support/html';
import { createLeaveStore } from '../../server/leaves/leaveStore';

const siteUrl = 'https://auctions.example.com';
/** 2026-01-12 to 2026-01-18, against 2026-01-05 to 2026-01-11. */
const week = weekEnding('2026-01-18', '2026-W04');
const at = (text: string) => Date.parse(text);

async function incident(db: Kysely<Schema>, rule: string, subject: string, opened: string, closed: string | null, summary: string, recovery: string | null = null) {
  await db.insertInto('incidents').values({ rule, subject, opened_at: at(opened), closed_at: closed === null ? null : at(closed), summary, recovery }).execute();
}

describe.each(engines)('the weekly digest on %s', (engine) => {
  const funnel = useFunnelRecording(engine);
  let message: OutboxMessage;

  beforeEach(async () => {
    // The week: three visitors, two of whom clicked, one sale of 40 USD.
    await funnel.view('2026-01-13T08:00:00Z', 'a', 'newsletter');
    await funnel.view('2026-01-13T09:00:00Z', 'b', 'newsletter');
    await funnel.view('2026-01-14T10:00:00Z', 'c', 'google.com');
    const heroOfA = await funnel.click('2026-01-13T08:01:00Z', 'hero', 'a', 'newsletter');
    await funnel.click('2026-01-13T09:01:00Z', 'bonus', 'b', 'newsletter');
    await funnel.sale('2026-01-15T12:00:00Z', { txid: 'T1', subid: heroOfA, payout: '40' });
    // One of the three sent a leave report: saw the hero button and followed it.
    const leave = { page: '/', device: 'mobile', variants: '', sections: ['hero'], seen: ['hero'], clicked: ['hero'], engagedSeconds: 20 } as const;
    expect(await createLeaveStore(funnel.opened.database.db).record({ ...leave, at: new Date('2026-01-13T08:02:00Z'), visitor: 'a' })).toBe('recorded');
    // The week before: two visitors, one click, no sale; and a day after the week that counts in neither.
    await funnel.view('2026-01-06T08:00:00Z', 'x', 'direct');
    await funnel.view('2026-01-07T08:00:00Z', 'y', 'direct');
    await funnel.click('2026-01-06T08:01:00Z', 'hero', 'x', 'direct');
    await funnel.view('2026-01-19T08:00:00Z', 'z', 'direct');

    const db = funnel.opened.database.db;
    await incident(db, 'sales', 'hero', '2026-01-14T10:00:00Z', '2026-01-14T12:30:00Z', 'Sales on hero went silent.', 'Sales on hero are back.');
    await incident(db, 'link', '', '2026-01-08T10:00:00Z', '2026-01-09T10:00:00Z', 'The affiliate link looked broken the week before.');
    await incident(db, 'views', '', '2026-01-10T22:00:00Z', '2026-01-12T01:00:00Z', 'Views went silent over the weekend.');
    await incident(db, 'database', 'instance-1', '2025-05-01T00:00:00Z', null, 'The database has been unreachable for months.');
    await incident(db, 'clicks', '', '2026-01-20T00:00:00Z', null, 'Clicks went silent after the week.');
    message = await inProcessReportReader(db).readDigest(week, { siteUrl });
  });

  it('is a digest e-mail with the site, the days and the headline figures in its subject', () => {
    expect(message).toMatchObject({ event: 'digest', incidentId: null });
    expect(message.subject).toBe('Weekly digest for auctions.example.com, 2026-01-12 to 2026-01-18: 3 visitors (+50%), 1 conversion, 40.00 USD');
  });

  it('compares the week with the week before: visitors, visitors who clicked, clicks, conversions, revenue and earnings per click', () => {
    const rows = parseHtml(message.html!)
      .all('table:first-of-type tbody tr')
      .map((row) => row.children().map((cell) => cell.text()));
    expect(rows.slice(0, 6)).toEqual([
      ['Visitors', '3', '2', '+50%'],
      ['Visitors who clicked', '2', '1', '+100%'],
      ['Clicks', '2', '1', '+100%'],
      ['Conversions', '1', '0', 'new'],
      ['Revenue (USD)', '40.00', '0.00', 'new'],
      ['Earnings per click (USD)', '20.00', '0.00', 'new'],
    ]);
  });

  it('lists the top 5 sources, adds up the rest, and names the command that lists every one', async () => {
    for (const [index, source] of ['s1', 's2', 's3', 's4', 's5'].entries()) await funnel.view(`2026-01-16T0${index}:00:00Z`, `v${index}`, source);
    const again = await inProcessReportReader(funnel.opened.database.db).readDigest(week, { siteUrl });
    expect(again.text).toMatch(/\n\(2 others\) +\d/);
    expect(again.text).toContain('The 5 sources with most visitors are listed; `npm run stats -- --all-sources` lists every one.');
  });

  it('writes the same comparison in its text part', () => {
    expect(message.text).toContain(
      [
        '                          This week  Week before  Change',
        'Visitors                          3            2    +50%',
        'Visitors who clicked              2            1   +100%',
        'Clicks                            2            1   +100%',
        'Conversions                       1            0     new',
        'Revenue (USD)                 40.00         0.00     new',
        'Earnings per click (USD)      20.00         0.00     new',
      ].join('\n'),
    );
  });

  it('lists the placements and the top sources of the week, in both parts', () => {
    const page = parseHtml(message.html!);
    const placement = (name: string) => page.all('tbody tr').find((row) => row.children()[0]!.ownText() === name)!.children().map((cell) => cell.text());
    // Saw and the click-through of those who saw first, revenue per 1,000 who saw last (tests/server/adminRoutes.reach.test.ts).
    expect(placement('hero').slice(1)).toEqual(['1', '100%', '1', '1', '50%', '1', '100%', '40.00 USD', '40.00 USD', '40,000.00 USD']);
    expect(placement('bonus').slice(1)).toEqual(['0', '–', '1', '1', '50%', '0', '0%', '–', '–', '–']);
    const source = (name: string) => page.all('tbody tr').find((row) => row.children()[0]!.text() === name)!.children().map((cell) => cell.text());
    expect(source('newsletter').slice(1)).toEqual(['2', '2', '2', '100%', '1', '40.00 USD']);
    expect(source('google.com').slice(1)).toEqual(['1', '0', '0', '0%', '0', '–']);
    expect(message.text).toMatch(/^hero +1 +1 +50% +1 +100% +40\.00 USD +40\.00 USD$/m);
    expect(message.text).toMatch(/^newsletter +2 +2 +2 +100% +1 +40\.00 USD$/m);
    expect(message.text).toMatch(/^google\.com +1 +0 +0 +0% +0 +–$/m);
  });

  it('tells who saw each placement, and what share of views the figures rest on, in the text part', () => {
    expect(message.text).toContain('Who saw each placement\nReach rests on 1 leave report for 3 views (33%).');
    expect(message.text).toMatch(/^hero +1 +1 +100% +1,000\.0 +40,000\.00 USD$/m);
  });

  it('lists the incidents opened or closed in the week and those still open, in both parts', () => {
    const items = parseHtml(message.html!).all('ul li').map((item) => item.text());
    expect(items).toEqual([
      'Statistics database not answering instance-1 since 2025-05-01 00:00 UTC (still open) The database has been unreachable for months.',
      'Page views gone silent 2026-01-10 22:00 UTC to 2026-01-12 01:00 UTC Views went silent over the weekend.',
      'Sales gone silent on hero 2026-01-14 10:00 UTC to 2026-01-14 12:30 UTC Sales on hero went silent. Sales on hero are back.',
    ]);
    expect(message.text).toContain(
      [
        'Incidents',
        '- Statistics database not answering instance-1, since 2025-05-01 00:00 UTC (still open): The database has been unreachable for months.',
        '- Page views gone silent, 2026-01-10 22:00 UTC to 2026-01-12 01:00 UTC: Views went silent over the weekend.',
        '- Sales gone silent on hero, 2026-01-14 10:00 UTC to 2026-01-14 12:30 UTC: Sales on hero went silent. Sales on hero are back.',
      ].join('\n'),
    );
  });

  it('gives each running experiment’s verdict, in both parts', () => {
    const page = parseHtml(message.html!);
    const verdicts = page.all('.verdict').map((verdict) => verdict.text().replace(/\.$/, ''));
    expect(verdicts.length).toBeGreaterThan(0);
    for (const verdict of verdicts) expect(message.text).toContain(`Verdict: ${verdict[0]!.toLowerCase()}${verdict.slice(1)}.`);
  });

  it('links to /admin for the week and the week before, and to nothing else', () => {
    const links = parseHtml(message.html!).all('a').map((link) => link.attr('href'));
    expect(links).toEqual([`${siteUrl}/admin?from=2026-01-12&to=2026-01-18`, `${siteUrl}/admin?from=2026-01-05&to=2026-01-11`]);
    expect(message.text).toContain(`These 7 days on /admin: ${siteUrl}/admin?from=2026-01-12&to=2026-01-18`);
  });

  it('has no style element, script, image or address loaded from elsewhere, and every element in its body is styled inline', () => {
    const html = message.html!;
    expect(html).not.toMatch(/<(style|script|img|link|iframe|object|embed|svg|picture|source)\b/i);
    expect(html).not.toMatch(/\s(src|srcset|background)=/i);
    expect(html).not.toMatch(/url\(/i);
    const page = parseHtml(html);
    const unstyled = page.all('body, body *').filter((element) => !element.attr('style'));
    expect(unstyled.map((element) => element.tag)).toEqual([]);
    expect(page.one('.funnel').attr('style')).toContain('display:block');
    expect(page.all('.muted')[0]!.attr('style')).toContain('color:#52606d');
  });
});
