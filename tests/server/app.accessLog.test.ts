import request from 'supertest';
import { createApp } from '../../server/app';
import type { Logger } from '../../server/lib/logger';
import { testConfig } from '../support/testApp';

function capturingLogger() {
  const lines: string[] = [];
  const errors: string[] = [];
  const logger: Logger = { info: (line) => lines.push(line), warning: (message) => errors.push(message), error: (message) => errors.push(message) };
  return { logger, lines, errors };
}

describe('the access log', () => {
  it('writes one line per request with time, method, path, status, size and duration', async () => {
    const { logger, lines } = capturingLogger();
    const app = createApp(testConfig({ CLICK_STATS: 'off' }), { logger });
    await request(app).get('/about-us?email=someone@example.com').set('User-Agent', 'SecretAgent/1.0');
    await request(app).get('/missing');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/about-us 200 \d+ \d+\.\dms$/);
    expect(lines[1]).toMatch(/ GET \/missing 404 /);
  });

  it('keeps no query string, IP address or user agent, as the privacy policy promises', async () => {
    const { logger, lines } = capturingLogger();
    const app = createApp(testConfig({ CLICK_STATS: 'off' }), { logger });
    await request(app).get('/?email=someone@example.com').set('User-Agent', 'SecretAgent/1.0');
    expect(lines.join('\n')).not.toMatch(/someone|SecretAgent|127\.0\.0\.1|::1|::ffff/);
  });

  it('escapes control characters so a request cannot forge log lines', async () => {
    const { logger, lines } = capturingLogger();
    const app = createApp(testConfig({ CLICK_STATS: 'off' }), { logger });
    await request(app).get('/a%0aFAKE%20LINE');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
  });
});
