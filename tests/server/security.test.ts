import { createHash } from 'node:crypto';
import request from 'supertest';
import { parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';
import { readManifest } from '../../server/manifest';
import { distDir } from '../../server/lib/paths';

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
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    app = await createTestApp();
  });

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

  it('allows the inlined stylesheet by its sha256 and no other inline style', async () => {
    const { headers, text } = await request(app).get('/');
    // A browser hashes the style element's text as it is in the document, which is what the parser reads.
    const css = parseHtml(text).one('style[data-href]').textContent();
    const hash = createHash('sha256').update(css).digest('base64');
    expect(directives(headers['content-security-policy']!).get('style-src')).toBe(`'self' 'sha256-${hash}'`);
  });

  it('sends the same policy on error pages and files', async () => {
    for (const path of ['/missing', '/%', '/robots.txt']) {
      const { headers } = await request(app).get(path);
      expect(directives(headers['content-security-policy']!).get('script-src')).toBe("'self'");
    }
  });

  it('sends a built script or stylesheet only what a subresource obeys: nosniff, CORP and HSTS', async () => {
    const manifest = readManifest(distDir);
    for (const path of [manifest.entry.file, ...manifest.styles]) {
      const { headers } = await request(app).get(path).expect(200);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
      for (const documentOnly of ['content-security-policy', 'x-frame-options', 'permissions-policy', 'cross-origin-opener-policy', 'referrer-policy']) {
        expect({ path, [documentOnly]: headers[documentOnly] }).toEqual({ path, [documentOnly]: undefined });
      }
    }
    // A missing file under /assets/ is answered with the 404 page, a document: it gets the document's policies.
    const missing = await request(app).get('/assets/missing-ABCDEF12.js').expect(404);
    expect(directives(missing.headers['content-security-policy']!).get('script-src')).toBe("'self'");
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
    const { headers } = await request(await createTestApp({ SITE_URL: 'http://localhost:3000' })).get('/');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

/**
 * The rules Mozilla's HTTP Observatory scores (its scanner will not test a local address, so the
 * rules are asserted directly): each of these is worth points or avoids a penalty there.
 */
describe('the HTTP Observatory rules', () => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    app = await createTestApp();
  });

  it('has a CSP without unsafe sources, wildcards or data: scripts, that blocks framing and plugins', async () => {
    const { headers } = await request(app).get('/');
    const csp = headers['content-security-policy']!;
    expect(csp).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|\*|data:|http:|https:/);
    const parsed = directives(csp);
    expect(parsed.get('default-src')).toBe("'self'");
    expect(parsed.get('object-src')).toBe("'none'");
    expect(parsed.get('frame-ancestors')).toBe("'none'");
    expect(parsed.get('base-uri')).toBe("'self'");
    expect(parsed.get('form-action')).toBe("'self'");
  });

  it('sends HSTS for at least six months on https, X-Frame-Options, nosniff and a safe referrer policy', async () => {
    const { headers } = await request(app).get('/');
    expect(Number(/max-age=(\d+)/.exec(headers['strict-transport-security']!)?.[1])).toBeGreaterThanOrEqual(15_768_000);
    expect(headers['x-frame-options']).toMatch(/^(DENY|SAMEORIGIN)$/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']).toContain(headers['referrer-policy']);
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('sets no cookies and allows no cross-origin reads', async () => {
    for (const path of ['/', '/about-us', '/missing', '/robots.txt']) {
      const { headers } = await request(app).get(path);
      expect(headers['set-cookie']).toBeUndefined();
      expect(headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
