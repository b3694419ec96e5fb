import type { Insertable, Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createIncidentStore } from '../../server/alerts/incidents';
import { replaceCosts } from '../../server/costs/costStore';
import { recordRelease } from '../../server/releases/recordRelease';
import { addDays, utcDay } from '../../server/lib/utcDay';
import { affiliatePlacements, newClickId } from '../../shared/affiliate';
import { closeDaysAndForget } from './closeDays';
import { conversion } from './storeRows';

/**
 * A modest but whole history for /admin's layout tests (issue 30): the `days` days before today (500
 * unless said, so a year's range has a previous period to compare with), growing traffic with a weekly
 * rhythm, six sources, a few pages and devices, clicks on every placement, a sale every other day
 * through the conversion store, a cost per day for one source, three releases and one alert incident;
 * every finished day closed by the app's own jobs, as the daily maintenance does. Deterministic: the same
 * rows every run, so a page's size can be held to a budget.
 */
export async function seedYearOfTraffic(db: Kysely<Schema>, { days = 500, now = new Date() }: { days?: number; now?: Date } = {}): Promise<void> {
  const today = utcDay(now);
  const sources = ['google', 'newsletter', 'facebook', 'direct', 'bing', 'forum.example.org'];
  const pages = ['/', '/privacy', '/terms', '/about'];
  const devices = ['mobile', 'desktop', 'tablet'];
  const views: Insertable<Schema['views']>[] = [];
  const clicks: Insertable<Schema['clicks']>[] = [];
  const sales: { clickId: string; at: Date; index: number }[] = [];
  for (let index = 0; index < days; index++) {
    const day = addDays(today, index - days);
    const noon = Date.parse(`${day}T12:00:00Z`);
    // Growth over the history, a quieter weekend.
    const viewCount = 12 + Math.floor(index / 15) + (index % 7 < 2 ? 0 : 6);
    for (let view = 0; view < viewCount; view++) {
      views.push({
        at: noon + view * 1000,
        day,
        page: pages[view % 7 === 0 ? 1 + (view % 3) : 0]!,
        referrer_host: view % 5 === 0 ? 'forum.example.org' : null,
        source: sources[(view + index) % sources.length]!,
        medium: null,
        campaign: view % 4 === 0 ? 'spring' : null,
        device: devices[view % devices.length]!,
        visitor: `${day}-visitor-${view}`,
      });
      if (view % 4 !== 1) continue;
      const placement = affiliatePlacements[(view + index) % affiliatePlacements.length]!;
      const clickId = newClickId(placement);
      clicks.push({
        at: noon + view * 1000 + 500,
        day,
        placement,
        page: '/',
        referrer_host: null,
        device: devices[view % devices.length]!,
        visitor: `${day}-visitor-${view}`,
        via: 'beacon',
        click_id: clickId,
        source: sources[(view + index) % sources.length]!,
      });
      if (view === 1 && index % 2 === 0) sales.push({ clickId, at: new Date(noon + 3_600_000), index });
    }
  }
  for (let start = 0; start < views.length; start += 500) await db.insertInto('views').values(views.slice(start, start + 500)).execute();
  for (let start = 0; start < clicks.length; start += 500) await db.insertInto('clicks').values(clicks.slice(start, start + 500)).execute();
  const conversions = createConversionStore(db);
  for (const sale of sales) {
    await conversions.record(conversion({ txid: `year-${sale.index}`, subid: sale.clickId, payout: String(20 + (sale.index % 5) * 5), currency: 'USD' }), 'postback', sale.at);
  }
  // Google's ads cost something every day.
  await replaceCosts(
    db,
    Array.from({ length: days }, (_, index) => ({ day: addDays(today, index - days), source: 'google', campaign: 'spring', content: '', amountMicros: 4_000_000 + (index % 3) * 500_000, currency: 'USD' })),
    now,
  );
  for (const [stamp, daysAgo] of [['a1b2c3d4e5f60708', 200], ['b2c3d4e5f6071819', 60], ['c3d4e5f60718192a', 12]] as const) {
    await recordRelease(db, { stamp, files: { 'shared/content/home.ts': stamp.slice(0, 16) } }, new Date(now.getTime() - daysAgo * 86_400_000));
  }
  const incidents = createIncidentStore(db, { channels: [], siteUrl: 'http://localhost' });
  const openedAt = now.getTime() - 9 * 86_400_000;
  await incidents.recordPast('database', 'web-1 pid 42', 'The statistics database did not answer.', openedAt, 'It answers again.', openedAt + 20 * 60_000);
  await closeDaysAndForget(db, 400, now);
}
