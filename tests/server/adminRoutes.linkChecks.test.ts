import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { memoryLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { LinkMonitor } from '../../server/linkHealth/linkMonitor';
import { silentLogger } from '../../server/lib/logger';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { assertNoSelector, assertSelector, parseHtml, type HtmlNode } from '../support/html';

describe('GET /admin with link checks', () => {
  let partner: Server;
  let partnerStatus = 200;
  let partnerUrl = '';
  beforeAll(async () => {
    partner = createServer((_req, res) => res.writeHead(partnerStatus).end()).listen(0, '127.0.0.1');
    await once(partner, 'listening');
    partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/join`;
  });
  afterAll(() => new Promise((resolve) => partner.close(resolve)));

  async function adminAfterChecks(statuses: number[]) {
    const monitor = new LinkMonitor({ url: partnerUrl, intervalMs: 3_600_000, logger: silentLogger, log: memoryLinkCheckLog() });
    for (const status of statuses) {
      partnerStatus = status;
      await monitor.runCheck();
    }
    const { app, store } = await openAdminApp({ linkHealth: monitor });
    const { text } = await request(app).get('/admin').set('Authorization', basicAuth(adminToken)).expect(200);
    await store.close();
    return parseHtml(text);
  }

  function expectNoBanner(page: HtmlNode) {
    assertNoSelector(page, '.banner');
    expect(page.text()).not.toContain('looks broken');
  }

  it('shows the last check', async () => {
    const page = await adminAfterChecks([200]);
    expect(page.text()).toContain(`Link check of ${partnerUrl}`);
    expect(page.text()).toContain('200 OK');
    expect(page.text()).toContain(
      'Checked at each start (unless checked in the last 5 minutes), every hour, and again 3 minutes after a broken answer (404 or 410): two in a row raise the link alert, and the link is then checked every 15 minutes until it works (less often while it gives no clear answer).',
    );
    expectNoBanner(page);
  });

  it('shows a banner after two 404s in a row', async () => {
    const page = await adminAfterChecks([404, 404]);
    const [banner] = assertSelector(page, 'div.banner[role="alert"]', 1);
    expect(banner!.text()).toContain('The affiliate link looks broken. 2 checks in a row found the page gone (404 or 410).');
  });

  it('keeps the banner when a refused check (403) comes between broken ones, and clears it once the link works', async () => {
    expect((await adminAfterChecks([404, 403, 410])).text('.banner')).toContain('2 checks in a row found the page gone');
    expectNoBanner(await adminAfterChecks([404, 404, 200]));
  });

  it('shows no banner after a single 410, nor when the partner answers 403', async () => {
    expectNoBanner(await adminAfterChecks([410]));
    expectNoBanner(await adminAfterChecks([403, 403]));
  });
});
