import request from 'supertest';
import { createTestApp } from '../support/testApp';

function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!, values.join(' ')];
      }),
  );
}

describe('security headers', () => {
  const app = createTestApp();

  it('sends a strict Content-Security-Policy with no inline scripts', async () => {
    const { headers } = await request(app).get('/').expect(200);
    const csp = directives(headers['content-security-policy']!);
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'self'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(headers['content-security-policy']).not.toContain('unsafe');
  });

  it('sends the same policy on error pages and files', async () => {
    for (const path of ['/missing', '/%', '/robots.txt']) {
      const { headers } = await request(app).get(path);
      expect(directives(headers['content-security-policy']!).get('script-src')).toBe("'self'");
    }
  });

  it('does not say what it is built with', async () => {
    const { headers } = await request(app).get('/');
    expect(headers['x-powered-by']).toBeUndefined();
  });

  it('sets referrer, permissions, content-type and opener policies', async () => {
    const { headers } = await request(app).get('/');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('sends Strict-Transport-Security when the public site is https', async () => {
    const { headers } = await request(app).get('/');
    expect(headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
  });

  it('sends no Strict-Transport-Security on a plain-http site', async () => {
    const { headers } = await request(createTestApp({ SITE_URL: 'http://localhost:3000' })).get('/');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});
