import fc from 'fast-check';
import { readRawDayCounts } from '../../server/funnelReport/rawDayCounts';
import { readFunnelReport, type FunnelReportOptions } from '../../server/funnelReport/funnelReport';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { forgetRawRows } from '../../server/jobs/forgetRawRows';
import { engines, openTestDatabase } from '../support/engines';

const now = new Date('2026-11-21T15:00:00Z');
const days = Array.from({ length: 8 }, (_, index) => `2026-11-${String(14 + index).padStart(2, '0')}`);

const row = fc.record({
  day: fc.constantFrom(...days),
  second: fc.integer({ min: 0, max: 86_399 }),
  visitor: fc.integer({ min: 0, max: 60 }).map((n) => `v${n}`),
  // A long tail of sources, so the top 20 (and 5 a day) leave some over; null is a source not known.
  source: fc.option(fc.integer({ min: 0, max: 40 }).map((n) => `source-${n}`), { freq: 8 }),
  page: fc.constantFrom('/', '/about-us', '/privacy-policy'),
  device: fc.constantFrom('mobile', 'tablet', 'desktop'),
  referrer: fc.option(fc.constantFrom('www.google.com', 'news.example.org', 'mail.example.com'), { freq: 3 }),
  placement: fc.constantFrom('hero', 'explainer', 'bonus'),
});

const at = ({ day, second }: { day: string; second: number }) => Date.parse(`${day}T00:00:00Z`) + second * 1000;

/**
 * The report read from closed days' totals is the report read from raw rows, row for row: before any day
 * is closed every figure comes from raw rows; after, from daily_counts (and today's raw rows); and after
 * raw rows past retention are deleted, from daily_counts alone.
 */
describe.each(engines)('a report from closed days on %s', (engine) => {
  it.each<[string, FunnelReportOptions]>([
    ['the top sources', {}],
    ['every source', { sources: 'all', daySources: 'all' }],
  ])('equals the report from raw rows, row for row, with %s', async (_name, options) => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1000, maxLength: 3000 }), fc.array(row, { minLength: 50, maxLength: 300 }), async (views, clicks) => {
        const opened = await openTestDatabase(engine);
        try {
          const db = opened.database.db;
          const insert = async (table: 'views' | 'clicks', values: Record<string, unknown>[]) => {
            for (let start = 0; start < values.length; start += 400) await db.insertInto(table).values(values.slice(start, start + 400) as never).execute();
          };
          await insert(
            'views',
            views.map((view) => ({ at: at(view), day: view.day, page: view.page, referrer_host: view.referrer, source: view.source, medium: null, campaign: null, device: view.device, visitor: view.visitor })),
          );
          await insert(
            'clicks',
            clicks.map((click) => ({ at: at(click), day: click.day, placement: click.placement, page: click.page, referrer_host: click.referrer, device: click.device, visitor: click.visitor, via: 'beacon', source: click.source })),
          );
          const range = { from: days[0]!, to: days.at(-1)! };
          const fromRaw = await readFunnelReport(db, range, options);
          // With 41 sources, the top 20 leave some over: the sum of the rest is compared too.
          expect(fromRaw.otherSources === undefined).toBe(options.sources === 'all');
          expect(await closeFinishedDays(db, (day) => readRawDayCounts(db, day), now)).toEqual(days.slice(0, -1).filter((day) => day >= [...views, ...clicks].map((entry) => entry.day).sort()[0]!));
          expect(await readFunnelReport(db, range, options)).toEqual(fromRaw);
          await forgetRawRows(db, 1, now);
          expect(await readFunnelReport(db, range, options)).toEqual(fromRaw);
        } finally {
          await opened.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 10 : 4 },
    );
  });
});
