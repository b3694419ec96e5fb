import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project root, found by walking up from this file to package.json, so the same code works
 * from server/ under the test runner and from dist/server/ once bundled.
 */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(__dirname);
export const distDir = path.join(projectRoot, 'dist');
export const distAssetsDir = path.join(distDir, 'assets');
export const publicDir = path.join(projectRoot, 'public');
