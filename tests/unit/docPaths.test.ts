import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';
import { filesUnder, readProjectFile, sourceComments, typeScriptSources } from '../support/projectFiles';

/**
 * Docs and comments that name a file which moved or no longer exists send a newcomer looking for it.
 *
 * The rule, for every word of an inline code span and every link target in README.md and docs/*.md:
 * - a path that starts at one of the project's folders (`server/…`, `shared/…`, `client/…`, `scripts/…`,
 *   `tests/…`, `docs/…`, `art/…`, `public/…`, `deploy/…`) must exist from the repository's root, a folder if it ends in `/`;
 * - a link target is resolved from the page's own folder, as a reader's browser does;
 * - any other name of a source file (`funnelReport.ts`, `rules/allRules.ts`) or of a folder (`TopBar/`) is a
 *   name inside the folder its sentence talks about, so it must end some path in the tree;
 * - anything else is not a path here: URLs and URL paths (`/admin`, `/assets/`), command flags, placeholders
 *   (`<Name>.tsx`, `*.test.ts`, `…`), what the build and the commands write (`dist/…`, `.screenshots/`, `.test-repeat/`), and
 *   the few files the docs give as examples of what a reader will make (`examples` below).
 *
 * And every `*.ts` / `*.tsx` name written in a source comment must end some path in the tree, by the same
 * suffix rule.
 */

const projectFolders = ['server', 'shared', 'client', 'scripts', 'tests', 'docs', 'art', 'public', 'deploy'];
const files = ['README.md', 'build.ts', 'package.json', 'tsconfig.json', 'jest.config.js', ...projectFolders.flatMap(filesUnder)];
const folders = [...new Set(files.flatMap((file) => file.split('/').slice(0, -1).map((_, at, parts) => `${parts.slice(0, at + 1).join('/')}/`)))];

function endsSomePath(name: string): boolean {
  const candidates = name.endsWith('/') ? folders : files;
  return candidates.some((candidate) => candidate === name || candidate.endsWith(`/${name}`));
}

function existsFromRoot(name: string): boolean {
  const full = path.join(projectRoot, name);
  return existsSync(full) && (!name.endsWith('/') || statSync(full).isDirectory());
}

const notAPath = /[<>*…{}$]|:\/\/|^[/#-]|^(dist|\.screenshots|\.test-repeat)\//;

/** An island to add (docs/islands.md), a screenshot to import (docs/content.md), a release's note (docs/releases.md). */
const examples = new Set(['shared/islands/Toast/Toast.tsx', 'art/review-3.png', 'art/review-1.png']);
const rooted = new RegExp(`^(${projectFolders.join('|')})/`);
const sourceOrFolder = /^[\w.-]+(\/[\w.-]+)*(\.tsx?|\/)$/;

/** Whether a word of a doc or comment names a path that is not there; undefined when it names no path. */
function missing(word: string): boolean | undefined {
  const name = word.replace(/^[("'`[]+|[)"'`,.;:\]]+$/g, '').replace(/^(\.\.?\/)+/, '');
  if (name === '' || notAPath.test(name) || examples.has(name)) return undefined;
  if (rooted.test(name)) return !existsFromRoot(name);
  if (sourceOrFolder.test(name)) return !endsSomePath(name);
  return undefined;
}

const pages = ['README.md', ...filesUnder('docs').filter((file) => file.endsWith('.md'))];

function namesInPage(page: string): string[] {
  const text = readProjectFile(page).replace(/^```[\s\S]*?^```/gm, '');
  const codeWords = [...text.matchAll(/`([^`\n]+)`/g)].flatMap((match) => match[1]!.split(/\s+/));
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !target.includes(':'))
    .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(page), target)));
  return [...codeWords, ...links];
}

function namesInComments(file: string): string[] {
  return sourceComments(file).flatMap((comment) => [...comment.matchAll(/[\w./<>*-]+\.tsx?(?![\w])/g)].map((match) => match[0]));
}

describe('names of files in the docs and comments', () => {
  it.each(pages)('%s names only files and folders that exist', (page) => {
    const stale = [...new Set(namesInPage(page).filter((word) => missing(word) === true))];
    expect(stale).toEqual([]);
  });

  it('source comments name only .ts and .tsx files that exist', () => {
    const stale = typeScriptSources([...projectFolders.slice(0, 5)])
      .concat('build.ts')
      .flatMap((file) => namesInComments(file).filter((word) => missing(word) === true).map((word) => `${file}: ${word}`));
    expect([...new Set(stale)]).toEqual([]);
  });

  it('holds a wrong name to account (the rule itself)', () => {
    expect(missing('`server/visitorHash.ts`')).toBe(true);
    expect(missing('visitorHash.ts')).toBe(true);
    expect(missing('server/db/')).toBe(false);
    expect(missing('rules/allRules.ts')).toBe(false);
    expect(missing('server/config.ts/')).toBe(true);
    expect(missing('/admin')).toBeUndefined();
    expect(missing('<Name>.tsx')).toBeUndefined();
    expect(missing('dist/manifest.json')).toBeUndefined();
  });
});
