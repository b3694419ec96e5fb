import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh folder for one test file, removed after its tests: `dir()` inside tests gives its path. */
export function useTempDir(): { dir: () => string } {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'auctions-guide-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir };
}
