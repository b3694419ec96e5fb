import { readFunnelReport, type FunnelReport } from '../../server/funnelReport/funnelReport';
import { formatReportCsv, formatReportJson, formatReportTable } from '../../server/funnelReport/formatReport';
import { adminReportHtml } from '../../server/admin/adminHtml';
import { comparedFigures } from '../../server/digest/comparedFigures';
import type { DigestContent } from '../../server/digest/digestContent';
import { digestMessage } from '../../server/digest/digestMessage';
import { weekEnding } from '../../server/digest/digestWeek';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { useFunnelRecording } from '../support/funnelRecording';
import { parseHtml } from '../support/html';

/**
 * A busy range: a small report read from the database, its figures then set to a busy site's, so each
 * place that writes them for people can be read: /admin, the terminal table and the digest; and the
 * places written for programs (--csv, --json), which keep raw numbers.
 */
describe('the figures of a busy range', () => {
  const funnel = useFunnelRecording('sqlite');
  let busy: FunnelReport;

  beforeEach(async () => {
    await funnel.view('2026-01-13T08:00:00Z', 'a', 'newsletter');
    const heroOfA = await funnel.click('2026-01-13T08:01:00Z', 'hero', 'a', 'newsletter');
    await funnel.sale('2026-01-15T12:00:00Z', { txid: 'T1', subid: heroOfA, payout: '40' });
    const report = await readFunnelReport(funnel.opened.database.db, { from: '2026-01-12', to: '2026-01-18' });
    const figures = { clicks: 27_398, visitors: 19_178, conversions: 1_250, revenue: 1_250_000, revenueByCurrency: { USD: 1_250_000 } };
    busy = {
      ...report,
      all: { ...report.all, ...figures, views: 12_345_678, viewVisitors: 6_999_970 },
      totals: report.totals.map((row) => (row.placement === 'hero' ? { ...row, ...figures } : row)),
      days: report.days.map((day) => (day.day === '2026-01-13' ? { ...day, placements: { ...day.placements, hero: { ...day.placements.hero!, clicks: 27_398 } } } : day)),
    };
  });

  describe('on /admin', () => {
    const page = () => parseHtml(adminReportHtml({ report: busy, linkHealth: undefined, affiliateUrl: 'https://partner.example.net/join' }));

    it('writes the headline short, the exact figure in its tooltip, where a box is narrow', () => {
      const steps = page().one('ol.funnel').all('li');
      expect(steps.map((step) => step.text())).toEqual([
        '7M visitors 12,345,678 page views',
        '19,178 clicked an affiliate link 0.3% of visitors',
        '1,250 conversions 4.6% of 27,398 clicks',
        '1.25M USD revenue 45.62 USD per click',
      ]);
      expect(steps[0]!.one('abbr').attr('title')).toBe('6,999,970');
      expect(steps[3]!.one('abbr').attr('title')).toBe('1,250,000.00 USD');
    });

    it('writes tables exact, grouped in thousands', () => {
      const table = tableCaptioned(page(), 'Clicks and conversions by placement');
      expect(cells(rowHeaded(table, 'hero'))).toEqual(['0', '–', '27,398', '19,178', '100%', '1,250', '4.6%', '1,250,000.00 USD', '45.62 USD', '–']);
      expect(page().text()).toContain('27,398 clicks by 19,178 visitors');
    });
  });

  it('writes the terminal table grouped in thousands', () => {
    const text = formatReportTable(busy);
    expect(text).toMatch(/^Visitors +6,999,970$/m);
    expect(text).toMatch(/^Visitors who clicked +19,178 {2}0\.3% of visitors$/m);
    expect(text).toMatch(/^Conversions +1,250 {2}4\.6% of 27,398 clicks$/m);
    expect(text).toMatch(/^Revenue +1,250,000\.00 USD {2}45\.62 USD per click$/m);
    expect(text).toMatch(/^hero +27,398 +19,178 +100% +1,250 +4\.6% +1,250,000\.00 USD +45\.62 USD$/m);
  });

  it('keeps raw numbers in --csv and --json', () => {
    expect(formatReportCsv(busy)).toContain('\n2026-01-13,hero,27398,1,1,40\n');
    const json = formatReportJson(busy);
    expect(json).toContain('"viewVisitors": 6999970');
    expect(json).toContain('"revenue": 1250000');
    expect(json).not.toMatch(/\d,\d{3}/);
  });

  it('writes the digest grouped in thousands, in its subject, its comparison and its text', () => {
    const week = weekEnding('2026-01-18', '2026-W04');
    const quiet = { ...busy, all: { ...busy.all, viewVisitors: 5_000_000 } };
    const content: DigestContent = { week, siteUrl: 'https://auctions.example.com', current: busy, previous: quiet, figures: comparedFigures(busy, quiet), incidents: [] };
    const message = digestMessage(content);
    expect(message.subject).toBe('Weekly digest for auctions.example.com, 2026-01-12 to 2026-01-18: 6,999,970 visitors (+40%), 1,250 conversions, 1,250,000.00 USD');
    expect(content.figures[0]).toEqual({ label: 'Visitors', current: '6,999,970', previous: '5,000,000', change: '+40%' });
    expect(content.figures[4]).toMatchObject({ label: 'Revenue (USD)', current: '1,250,000.00' });
    expect(message.text).toMatch(/^Visitors +6,999,970$/m);
    expect(parseHtml(message.html!).one('ol.funnel').all('abbr').map((abbr) => abbr.attr('title'))).toEqual(['6,999,970', '1,250,000.00 USD']);
  });
});
