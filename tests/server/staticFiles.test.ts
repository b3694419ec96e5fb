import request from 'supertest';
import { readManifest } from '../../server/manifest';
import { distDir } from '../../server/lib/paths';
import { createTestApp } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});
const manifest = readManifest(distDir);

describe('hashed assets', () => {
  const files = () => [manifest.entry.file, ...manifest.styles, ...Object.values(manifest.islands).map((island) => island.file)];

  it('serves every file in the manifest with an immutable one-year cache', async () => {
    for (const file of files()) {
      await request(app).get(file).expect(200).expect('Cache-Control', 'public, max-age=31536000, immutable');
    }
  });

  it('names assets by their content hash', () => {
    for (const file of files()) expect(file).toMatch(/^\/assets\/[A-Za-z]+-[A-Z0-9]{8}\.(js|css)$/);
  });

  it('answers an unknown asset with 404', async () => {
    await request(app).get('/assets/main-00000000.js').expect(404);
  });
});

describe('public files', () => {
  it('serves files from public/ with a daily cache and a validator', async () => {
    const response = await request(app).get('/favicon.svg').expect(200).expect('Content-Type', 'image/svg+xml');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers.etag).toBeDefined();
  });
});
