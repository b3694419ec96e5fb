import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';
import { readProjectFile, typeScriptSources } from '../support/projectFiles';

/**
 * The imports between the project's own files: no circle, and every one down the layers that
 * docs/architecture.md lists (its ```layers block, read here, so the page and the test cannot drift).
 * Relative specifiers only (packages are not rooms); static imports and re-exports, `import type`,
 * side-effect imports, dynamic `import('…')` and `require('…')`, resolved as the bundler does:
 * the name, then .ts, .tsx, /index.ts, /index.tsx.
 */

type Layer = { number: number; name: string; rooms: string[] };

function readLayers(): Layer[] {
  const block = /^```layers\n([\s\S]*?)^```/m.exec(readProjectFile('docs/architecture.md'))?.[1];
  if (block === undefined) throw new Error('docs/architecture.md has no ```layers block');
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const match = /^\s*(\d+)\.\s+(.*)$/.exec(line);
      if (!match) throw new Error(`docs/architecture.md's layers: "${line}" is not "N. name room room …"`);
      const words = match[2]!.split(/\s+/);
      const isRoom = (word: string) => word.includes('/') || /\.tsx?$/.test(word);
      return { number: Number(match[1]), name: words.filter((word) => !isRoom(word)).join(' '), rooms: words.filter(isRoom) };
    });
}

/** The layer of a file: the one holding the longest room that is the file itself or a folder above it. */
export function layerOf(file: string, layers: readonly Layer[]): { layer: Layer; room: string } | undefined {
  let found: { layer: Layer; room: string } | undefined;
  for (const layer of layers) {
    for (const room of layer.rooms) {
      const holds = room.endsWith('/') ? file.startsWith(room) : file === room;
      if (holds && room.length > (found?.room.length ?? -1)) found = { layer, room };
    }
  }
  return found;
}

const importPatterns = [
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function relativeSpecifiers(source: string): string[] {
  const found = importPatterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
  return [...new Set(found.filter((specifier) => specifier.startsWith('.')))];
}

function isFile(file: string): boolean {
  const full = path.join(projectRoot, file);
  return existsSync(full) && statSync(full).isFile();
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(isFile);
}

type Graph = ReadonlyMap<string, readonly string[]>;

/** Each circle found by a depth-first walk, as its files from one back to itself. */
export function findCircles(graph: Graph): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return circles;
}

const layers = readLayers();
const sources = [...typeScriptSources(['server', 'shared', 'client', 'scripts']), 'build.ts'];
const unresolved: string[] = [];
const graph = new Map(
  sources.map((file) => [
    file,
    relativeSpecifiers(readProjectFile(file)).flatMap((specifier) => {
      const target = resolveImport(file, specifier);
      if (target === undefined) unresolved.push(`${file}: '${specifier}'`);
      return target === undefined ? [] : [target];
    }),
  ]),
);

describe('the import graph', () => {
  it('reads the layers from docs/architecture.md, each room there once and on disk', () => {
    expect(layers.map((layer) => layer.number)).toEqual(layers.map((_, at) => at + 1));
    const rooms = layers.flatMap((layer) => layer.rooms);
    expect(rooms.filter((room, at) => rooms.indexOf(room) !== at)).toEqual([]);
    const missing = rooms.filter((room) => {
      const full = path.join(projectRoot, room);
      return !existsSync(full) || statSync(full).isDirectory() !== room.endsWith('/');
    });
    expect(missing).toEqual([]);
  });

  it('resolves every relative import', () => {
    expect(unresolved).toEqual([]);
  });

  it('places every file and everything it imports in a layer', () => {
    const files = new Set([...graph.keys(), ...[...graph.values()].flat()]);
    expect([...files].filter((file) => layerOf(file, layers) === undefined)).toEqual([]);
  });

  it('has no circle', () => {
    expect(findCircles(graph).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('imports only from the same layer or below', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.flatMap((target) => {
        const from = layerOf(file, layers);
        const to = layerOf(target, layers);
        if (!from || !to || to.layer.number <= from.layer.number) return [];
        return [`${file} (${from.layer.number}. ${from.layer.name}) imports ${target} (${to.layer.number}. ${to.layer.name})`];
      }),
    );
    expect(upward).toEqual([]);
  });

  it('holds its own rules to account', () => {
    expect(findCircles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
    expect(layerOf('server/digest/digestJob.ts', layers)?.room).toBe('server/digest/digestJob.ts');
    expect(layerOf('server/alerts/rules/linkRule.ts', layers)?.room).toBe('server/alerts/');
    expect(layerOf('server/digest/digestEmail.ts', layers)?.room).toBe('server/digest/');
    expect(relativeSpecifiers("import type { A } from './a';\nexport { b } from '../b';\nconst c = await import('./c');\nimport 'react';")).toEqual(['./a', '../b', './c']);
  });
});
