import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';

/** Folders that hold no source of the project's own: installed, built, generated or local data. */
const notSource = new Set(['node_modules', 'dist', 'data', '.git', '.screenshots']);

/** Every file under `folder` (relative to the project root), as posix paths from the root, sorted. */
export function filesUnder(folder: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(projectRoot, relative), { withFileTypes: true })) {
      if (notSource.has(entry.name)) continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else found.push(child);
    }
  };
  walk(folder);
  return found.sort();
}

/** The TypeScript sources under the given folders, declaration files aside. */
export function typeScriptSources(folders: readonly string[]): string[] {
  return folders.flatMap(filesUnder).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
}

export function readProjectFile(file: string): string {
  return readFileSync(path.join(projectRoot, file), 'utf8');
}

/**
 * The comments of a TypeScript source, each as written (block comments with their stars): a block comment,
 * or a line comment not inside a URL or a string's quotes (the rule is a pattern, not a parser, which is
 * enough for this project's sources: docPaths.test.ts and handLists.test.ts hold it to them).
 */
export function sourceComments(file: string): string[] {
  return [...readProjectFile(file).matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map((match) => match[0]);
}
