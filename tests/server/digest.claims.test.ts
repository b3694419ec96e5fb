import { weekEnding } from '../../server/digest/digestWeek';
import { inProcessReportReader } from '../../server/reports/reportReader';
import { writeClaimRows } from '../support/claimRows';
import { engines, useTestDatabase } from '../support/engines';
import { parseHtml } from '../support/html';

const siteUrl = 'https://auctions.example.com';
const week = weekEnding('2026-01-18', '2026-W04');

describe.each(engines)('the weekly digest’s claims line on %s', (engine) => {
  const test = useTestDatabase(engine);

  it('says nothing of claims before the watch has checked any', async () => {
    const message = await inProcessReportReader(test.db()).readDigest(week, { siteUrl });
    expect(message.text).not.toContain('Claims');
  });

  it('names the claims not verified, in the text and the HTML', async () => {
    const now = Date.parse('2026-01-18T12:00:00Z');
    await writeClaimRows(test.db(), now);
    const message = await inProcessReportReader(test.db()).readDigest(week, { siteUrl, now });
    // The one claim the rows name is unknown; the others, never checked, are unknown too.
    expect(message.text).toMatch(/\nClaims\n8 of 8 claims about the offer are not verified: refundWindow \(unknown\), lifetimeAccess \(unknown\), .*\. See Claims on \/admin\.\n/);
    expect(parseHtml(message.html!).text()).toContain('8 of 8 claims about the offer are not verified: refundWindow (unknown)');
  });
});
