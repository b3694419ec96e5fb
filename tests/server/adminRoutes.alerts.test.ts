import request from 'supertest';
import { createIncidentStore } from '../../server/alerts/incidents';
import { createStatsStores } from '../../server/statsStores';
import { adminToken, basicAuth } from '../support/adminApp';
import { engines, useTestDatabase } from '../support/engines';
import { assertNoSelector, assertSelector, parseHtml } from '../support/html';
import { createTestApp, testSiteUrl } from '../support/testApp';

const minute = 60_000;
const day = 86_400_000;

describe.each(engines)('GET /admin: the Alerts section on %s', (engine) => {
  const test = useTestDatabase(engine);

  async function adminPage(env: Record<string, string> = {}) {
    const app = await createTestApp({ ADMIN_TOKEN: adminToken, ...env }, { stores: createStatsStores(test.opened.database) });
    const { text } = await request(app).get('/admin').set('Authorization', basicAuth(adminToken)).expect(200);
    const page = parseHtml(text);
    const [section] = assertSelector(page, 'section[aria-labelledby="alerts-heading"]', 1);
    return section!;
  }

  it('says how to turn alerts on when they go nowhere, and that nothing is wrong', async () => {
    const section = await adminPage();
    expect(section.text('h2')).toBe('Alerts');
    expect(section.text('.health')).toContain('set ALERT_WEBHOOK_URL (a Slack, Discord or other incoming webhook), or ALERT_EMAIL_TO with SMTP_URL');
    expect(section.text()).toContain('Nothing is wrong now: no rule has an open incident.');
    expect(section.text()).toContain('No incident ended in the last 30 days.');
    assertNoSelector(section, '.banner');
  });

  it('shows an open incident with its alert’s text and delivery, and the last 30 days’ alerts and recoveries', async () => {
    const now = Date.now();
    const store = createIncidentStore(test.db(), { channels: ['webhook'], siteUrl: testSiteUrl });
    await store.open('sales', 'hero', 'No sale on hero since yesterday, though 231 clicks came since.', now - 10 * minute);
    await store.open('views', '', 'No page views recorded in the 60 minutes up to then.', now - 3 * day);
    await store.close('views', '', 'Page views are recorded again.', now - 3 * day + 40 * minute);
    await store.recordPast('database', 'web-1 pid 42', 'The statistics database has not answered.', now - 5 * day, 'It answers again.', now - 5 * day + 20 * minute);
    await store.open('link', '', 'Broken long ago', now - 60 * day);
    await store.close('link', '', 'Works again', now - 59 * day);
    await test.db().updateTable('outbox').set({ sent_at: now - 9 * minute, next_attempt_at: null }).where('event', '=', 'opened').execute();
    await test.db().updateTable('outbox').set({ attempts: 3, last_error: 'HTTP 500', next_attempt_at: now + 5 * minute }).where('event', '=', 'recovered').execute();

    const section = await adminPage({ ALERT_WEBHOOK_URL: 'https://hooks.example.com/services/T0/B0/secret' });
    expect(section.text()).toContain('Alerts and recoveries go by webhook, each once');
    expect(section.text()).not.toContain('secret');
    const [banner] = assertSelector(section, 'div.banner[role="alert"]', 1);
    expect(banner!.text()).toContain('Sales gone silent on hero, since');
    expect(banner!.text()).toContain('No sale on hero since yesterday, though 231 clicks came since.');
    expect(banner!.text()).toMatch(/Alert: webhook sent \d\d:\d\d UTC\./);

    const items = assertSelector(section, 'ul.incidents > li', 2);
    expect(items[0]!.text()).toContain('Page views gone silent');
    expect(items[0]!.text()).toContain('Page views are recorded again.');
    expect(items[0]!.text()).toContain('Recovery: webhook retrying: 3 attempts failed (last: HTTP 500), next at');
    expect(items[1]!.text()).toContain('Statistics database not answering web-1 pid 42');
    expect(items[1]!.text()).toContain('Alert: sent by the instance itself when the outage passed 5 minutes (not through the outbox).');
    expect(section.text()).not.toContain('Broken long ago');
  });

  it('marks on the main chart the alerts opened in its range, however old, and none outside it', async () => {
    const now = Date.now();
    const store = createIncidentStore(test.db(), { channels: [], siteUrl: testSiteUrl });
    await store.open('link', '', 'Broken long ago', now - 60 * day);
    await store.close('link', '', 'Works again', now - 59 * day);
    const app = await createTestApp({ ADMIN_TOKEN: adminToken }, { stores: createStatsStores(test.opened.database) });
    const marks = async (query: string) => {
      const { text } = await request(app).get(`/admin?${query}`).set('Authorization', basicAuth(adminToken)).expect(200);
      return parseHtml(text).all('svg.main-chart g.alert-mark title').map((title) => title.text());
    };
    expect(await marks('days=365')).toEqual([expect.stringContaining('Alert: Broken long ago')]);
    expect(await marks('days=30')).toEqual([]);
  });
});
