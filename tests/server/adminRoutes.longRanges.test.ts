import request from 'supertest';
import { adminToken, openAdminApp } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { engines } from '../support/engines';
import { parseHtml } from '../support/html';

describe.each(engines)('GET /admin with thousands of sources on %s', (engine) => {
  it('lists the top 20 sources and adds up the rest in one row that says how many, and the page stays small', async () => {
    const { app, store } = await openAdminApp({ engine });
    try {
      const day = new Date().toISOString().slice(0, 10);
      const views = Array.from({ length: 3000 }, (_, index) => ({
        at: Date.now(),
        day,
        page: '/',
        referrer_host: null,
        // Source 0 brings three visitors, sources 1 to 2,999 one each.
        source: `campaign-${index < 3 ? 0 : index}`,
        medium: null,
        campaign: null,
        device: 'mobile',
        visitor: `visitor-${index}`,
      }));
      for (let start = 0; start < views.length; start += 500) await store.database.db.insertInto('views').values(views.slice(start, start + 500)).execute();
      const response = await request(app).get('/admin?days=365').set('Authorization', `Bearer ${adminToken}`).expect(200);
      // The budget the issue sets for a flood of sources: well under 300 KB, whatever the number of sources.
      expect(Buffer.byteLength(response.text)).toBeLessThan(300_000);
      const page = parseHtml(response.text);
      const sources = tableCaptioned(page, 'Visitors, clicks and conversions by source');
      expect(cells(rowHeaded(sources, 'campaign-0')).slice(0, 1)).toEqual(['3']);
      // The day tallies 2,000 sources apart and the rest together, whose visitors are a sketch's estimate
      // past 128 (server/dayCounts/distinctCount.ts): within 3 standard errors of those 998.
      const [visitors, ...clicks] = cells(rowHeaded(sources, '2,978 other sources')).slice(0, 3);
      expect(clicks).toEqual(['0', '0']);
      expect(Math.abs(Number(visitors!.replaceAll(',', '')) - 2978)).toBeLessThanOrEqual(3 * 0.0163 * 998);
      expect(sources.all('tbody tr')).toHaveLength(21);
      expect(page.text()).toContain('npm run stats -- --json --all-sources');
      // The day's own table: its 5 top sources and the rest.
      expect(Math.abs(Number(cells(rowHeaded(tableCaptioned(page, 'Sources per day'), '2,993 other sources'))[0]!.replaceAll(',', '')) - 2993)).toBeLessThanOrEqual(3 * 0.0163 * 998);
    } finally {
      await store.close();
    }
  });
});

describe('GET /admin over a long range with something every day', () => {
  it('shows the newest 31 days in the day tables, says where the rest are, and draws a year a bar a week', async () => {
    const { app, store } = await openAdminApp();
    try {
      const rows = Array.from({ length: 200 }, (_, index) => {
        const at = Date.now() - index * 86_400_000;
        const day = new Date(at).toISOString().slice(0, 10);
        return { at, day, placement: 'hero', page: '/', referrer_host: null, device: 'mobile', visitor: `v${index}`, via: 'beacon', source: 'newsletter' };
      });
      await store.database.db.insertInto('clicks').values(rows).execute();
      const response = await request(app).get('/admin?days=365').set('Authorization', `Bearer ${adminToken}`).expect(200);
      const page = parseHtml(response.text);
      expect(tableCaptioned(page, 'Views, clicks and conversions per day').all('tbody tr')).toHaveLength(31);
      expect(tableCaptioned(page, 'Sources per day').all('tbody')).toHaveLength(31);
      expect(page.text()).toContain('169 older days are not shown here: npm run stats -- --csv or --json lists every day.');
      const hero = parseHtml((await request(app).get('/admin?days=365&metric=clicks-hero').set('Authorization', `Bearer ${adminToken}`).expect(200)).text);
      const heroChart = hero.one('svg.main-chart');
      expect(heroChart.all('rect').length).toBeLessThanOrEqual(54);
      expect(heroChart.text('title#chart-title')).toMatch(/^hero clicks, /);
      expect(heroChart.text('desc')).toMatch(/^a bar a week \(Monday to Sunday\)\. Total 200; /);
    } finally {
      await store.close();
    }
  });
});
