import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createStaticEntry, type StaticEntry } from './staticEntry';

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const contentTypeOf = (file: string) => contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Hashed build output never changes under its name. */
export const immutableCache = 'public, max-age=31536000, immutable';
/** Public files keep their names across releases, so caches revalidate them daily (ETag makes that cheap). */
export const publicFileCache = 'public, max-age=86400';

/** Regular files below dir, as paths relative to it; dotfiles and links are never served. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => part.startsWith('.')));
}

function urlPathOf(prefix: string, relativeFile: string): string {
  return prefix + relativeFile.split(path.sep).join('/');
}

function readIfExists(file: string): Buffer | undefined {
  return existsSync(file) ? readFileSync(file) : undefined;
}

/**
 * Every file the site serves, loaded into memory at start-up and keyed by URL path. Requests are
 * answered by exact lookup, so no request path ever reaches the file system: traversal has nothing to walk.
 */
export function loadStaticFiles(assetsDir: string, publicDir: string): Map<string, StaticEntry> {
  const files = new Map<string, StaticEntry>();
  for (const file of listFiles(assetsDir)) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue;
    const absolute = path.join(assetsDir, file);
    files.set(
      urlPathOf('/assets/', file),
      createStaticEntry(readFileSync(absolute), {
        contentType: contentTypeOf(file),
        cacheControl: immutableCache,
        precompressed: { br: readIfExists(`${absolute}.br`), gzip: readIfExists(`${absolute}.gz`) },
      }),
    );
  }
  for (const file of listFiles(publicDir)) {
    files.set(
      urlPathOf('/', file),
      createStaticEntry(readFileSync(path.join(publicDir, file)), {
        contentType: contentTypeOf(file),
        cacheControl: publicFileCache,
      }),
    );
  }
  return files;
}
