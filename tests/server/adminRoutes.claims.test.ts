import request from 'supertest';
import { createStatsStores } from '../../server/statsStores';
import { claimList } from '../../shared/content/claims';
import { adminToken, basicAuth } from '../support/adminApp';
import { writeClaimRows } from '../support/claimRows';
import { engines, useTestDatabase } from '../support/engines';
import { assertSelector, parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';

describe.each(engines)('GET /admin: the Claims card on %s', (engine) => {
  const test = useTestDatabase(engine);

  async function claimsCard(env: Record<string, string> = {}) {
    const app = await createTestApp({ ADMIN_TOKEN: adminToken, ...env }, { stores: createStatsStores(test.opened.database) });
    const { text } = await request(app).get('/admin').set('Authorization', basicAuth(adminToken)).expect(200);
    const page = parseHtml(text);
    assertSelector(page, 'nav.sections a[href="#claims"]', 1);
    const [section] = assertSelector(page, 'section[aria-labelledby="claims-heading"]', 1);
    return section!;
  }

  it('lists every claim as never checked, and says why the sample merchant is not checked', async () => {
    const card = await claimsCard();
    expect(card.text('h2')).toBe('Claims');
    expect(card.text()).toContain('The claims are not checked: MERCHANT_URL is on partner.example.net, a documentation address');
    const rows = assertSelector(card, 'tbody tr', claimList.length);
    expect(rows[0]!.text()).toContain(claimList[0]!.says);
    expect(rows[0]!.text()).toContain('never checked');
  });

  it('shows a claim’s verdict, when it was last verified, what the page says and the page', async () => {
    await writeClaimRows(test.db(), Date.parse('2026-11-28T12:00:00Z'));
    const card = await claimsCard({ MERCHANT_URL: 'https://merchant.shop' });
    expect(card.text()).toMatch(/\d+ of \d+ claims are not verified/);
    const [row] = assertSelector(card, 'tbody tr', claimList.length);
    expect(row!.text()).toContain('unknown');
    expect(row!.text()).toContain('2026-11-28 10:00 UTC');
    expect(row!.text()).toContain('timed out after 15000 ms');
    assertSelector(row!, 'a[href="https://merchant.example.com/refund-policy"]', 1);
  });
});
