import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorSummary } from '../lib/errorText';

/**
 * dist/release.json: what a build is, as the build writes it and the server records it on start-up
 * (recordRelease.ts). The stamp is the build stamp (dist/build-stamp, a hash of every source file); the
 * files are the content and artwork a reader sees, each with a short hash of its bytes, so that the next
 * release can say which of them changed.
 */
export interface ReleaseFile {
  stamp: string;
  /** Path (relative to the project, with /) → the first hex digits of the SHA-256 of its bytes. */
  files: Record<string, string>;
}

export const releaseFileName = 'release.json';

/**
 * What a release lists: the words (shared/content/, images.generated.ts included, which names every
 * generated image) and the artwork the images are built from (art/, customer screenshots included).
 */
export const releaseFileRoots = ['shared/content', 'art'] as const;

/** At most this many files are listed (the first in path order), so a stray folder cannot make a row of megabytes. */
export const maxReleaseFiles = 2000;

/** Sixteen hex digits (64 bits): enough to tell two versions of a file apart, short enough to keep a row small. */
const hashDigits = 16;

const stampPattern = /^[0-9a-f]{8,128}$/;
const hashPattern = /^[0-9a-f]{1,64}$/;

/** The short hash of some bytes, as release.json holds it. */
export const shortHash = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex').slice(0, hashDigits);

/** Every file under the roots, as project paths with /, in path order, at most maxReleaseFiles. */
function listedPaths(projectRoot: string, roots: readonly string[]): string[] {
  const found: string[] = [];
  for (const root of roots) {
    const absolute = path.join(projectRoot, root);
    if (!existsSync(absolute)) continue;
    if (!statSync(absolute).isDirectory()) {
      found.push(root);
      continue;
    }
    for (const entry of readdirSync(absolute, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) found.push(path.relative(projectRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    }
  }
  return [...new Set(found)].sort().slice(0, maxReleaseFiles);
}

/** Each content and artwork file → a short hash of its bytes: read once per build, about 2 MB today. */
export function listReleaseFiles(projectRoot: string, roots: readonly string[] = releaseFileRoots): Record<string, string> {
  return Object.fromEntries(listedPaths(projectRoot, roots).map((file) => [file, shortHash(readFileSync(path.join(projectRoot, file)))]));
}

/** A files map as release.json or a releases row holds it; undefined when it is not one (a hand-edited file, a damaged row). */
export function parseReleaseFiles(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length > maxReleaseFiles) return undefined;
  for (const [file, hash] of entries) if (file === '' || file.length > 500 || typeof hash !== 'string' || !hashPattern.test(hash)) return undefined;
  return value as Record<string, string>;
}

/**
 * The release the build in distDir says it is; a problem (no file: a build from before releases were
 * recorded; a file that is not one) as one line saying what, for start-up to log and go on without.
 */
export function readReleaseFile(distDir: string): { release: ReleaseFile } | { problem: string } {
  const file = path.join(distDir, releaseFileName);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { problem: existsSync(file) ? `dist/${releaseFileName} cannot be read (${errorSummary(error)})` : `the build has no dist/${releaseFileName} (run the build again)` };
  }
  const { stamp, files } = (parsed ?? {}) as { stamp?: unknown; files?: unknown };
  const checkedFiles = parseReleaseFiles(files);
  if (typeof stamp !== 'string' || !stampPattern.test(stamp) || !checkedFiles) return { problem: `dist/${releaseFileName} is not a release file (a stamp and a map of files to hashes)` };
  return { release: { stamp, files: checkedFiles } };
}
