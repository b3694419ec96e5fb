import type { Express } from 'express';
import request from 'supertest';

/** An ordinary phone browser: reports from it are counted (a headless or bot user agent is not). */
export const browserUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * A report as the browser's sendBeacon sends it (JSON as text/plain) from one address (TRUST_PROXY
 * reads X-Forwarded-For), with headers to add or override.
 */
export function sendReport(app: Express, endpoint: string, body: string | object | null, headers: Record<string, string> = {}) {
  return request(app)
    .post(endpoint)
    .set({ 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': browserUserAgent, 'X-Forwarded-For': '203.0.113.9', ...headers })
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}
