import request from 'supertest';
import { badRequest } from '../../shared/content/errors';
import { pagePaths } from '../../shared/routes';
import { parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});

describe('redirects to canonical paths', () => {
  it.each([
    ['/about-us/', '/about-us'],
    ['/About-Us', '/about-us'],
    ['/PRIVACY-POLICY/', '/privacy-policy'],
    ['/Terms-Conditions', '/terms-conditions'],
    ['//', '/'],
  ])('redirects %s to %s with 301', async (from, to) => {
    await request(app).get(from).expect(301).expect('Location', to);
  });

  it('keeps the query string', async () => {
    await request(app).get('/About-Us/?utm_source=newsletter&x=1').expect(301).expect('Location', '/about-us?utm_source=newsletter&x=1');
  });

  it('never redirects to another host', async () => {
    const response = await request(app).get('//evil.example.com/');
    expect(response.status).toBe(404);
    expect(response.headers.location).toBeUndefined();
  });
});

describe('HEAD', () => {
  it.each([...pagePaths, '/healthz', '/robots.txt', '/missing'])('answers HEAD %s like GET, without a body', async (path) => {
    const get = await request(app).get(path).set('Accept-Encoding', 'br');
    const head = await request(app).head(path).set('Accept-Encoding', 'br');
    expect(head.status).toBe(get.status);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });
});

describe('other methods', () => {
  it.each(['post', 'put', 'delete', 'patch', 'options'] as const)('answers %s with 405 and an Allow header', async (method) => {
    await request(app)[method]('/').expect(405).expect('Allow', 'GET, HEAD');
    await request(app)[method]('/about-us').expect(405).expect('Allow', 'GET, HEAD');
  });

  it('answers made-up methods with a client error, not a crash', async () => {
    const response = await request(app).trace('/');
    expect(response.status).toBe(405);
  });
});

describe('malformed requests', () => {
  it.each(['/%', '/%E0%A4%A', '/about-us%ZZ', '/%C0%AF'])('answers malformed percent-encoding in %s with 400 and a page', async (path) => {
    const response = await request(app).get(path).expect(400).expect('Content-Type', 'text/html; charset=utf-8');
    expect(parseHtml(response.text).text('h1')).toBe(badRequest.heading);
  });

  it('answers an encoded NUL byte with 400', async () => {
    await request(app).get('/about-us%00.html').expect(400);
  });

  it.each(['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/..%5c..%5cpackage.json', '/images/../../server/app.ts'])(
    'never serves a file outside public/ and the build for %s',
    async (path) => {
      const response = await request(app).get(path);
      expect(response.status).toBe(404);
      // The raw body on purpose: no byte of package.json, whatever the response claims to be.
      expect(response.text).not.toContain('"dependencies"');
    },
  );

  it('keeps serving after bad requests', async () => {
    await request(app).get('/%').expect(400);
    await request(app).get('/').expect(200);
  });
});

describe('GET /healthz', () => {
  it('answers 200 for load balancers without caching', async () => {
    const response = await request(app).get('/healthz').expect(200).expect('Cache-Control', 'no-store');
    expect(response.text).toBe('ok\n');
  });
});
