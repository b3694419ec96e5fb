import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listReleaseFiles, maxReleaseFiles, readReleaseFile, releaseFileName } from '../../server/releases/releaseFile';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

function put(file: string, text: string | Buffer) {
  const absolute = path.join(temp.dir(), file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, text);
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

describe('listReleaseFiles', () => {
  it('lists every file under shared/content and art, nested ones too, in path order, each with 16 hex digits of its SHA-256', () => {
    put('shared/content/home.ts', 'export const home = 1;\n');
    put('art/hero.svg', '<svg/>');
    put('art/fonts/DejaVuSans.ttf', Buffer.from([0, 1, 2, 3]));
    put('shared/islands/TopBar/TopBar.tsx', 'not content');
    put('server/main.ts', 'not content');
    expect(listReleaseFiles(temp.dir())).toEqual({
      'art/fonts/DejaVuSans.ttf': createHash('sha256').update(Buffer.from([0, 1, 2, 3])).digest('hex').slice(0, 16),
      'art/hero.svg': sha('<svg/>'),
      'shared/content/home.ts': sha('export const home = 1;\n'),
    });
    expect(Object.keys(listReleaseFiles(temp.dir()))).toEqual(['art/fonts/DejaVuSans.ttf', 'art/hero.svg', 'shared/content/home.ts']);
  });

  it('gives a changed file another hash and an unchanged one the same', () => {
    put('art/hero.svg', '<svg/>');
    put('art/og-image.svg', '<svg>og</svg>');
    const before = listReleaseFiles(temp.dir());
    put('art/hero.svg', '<svg><circle/></svg>');
    const after = listReleaseFiles(temp.dir());
    expect(after['art/hero.svg']).not.toBe(before['art/hero.svg']);
    expect(after['art/og-image.svg']).toBe(before['art/og-image.svg']);
  });

  it('lists nothing for roots that do not exist', () => {
    expect(listReleaseFiles(temp.dir())).toEqual({});
  });

  it(`lists at most ${maxReleaseFiles} files, the first in path order`, () => {
    for (let index = 0; index < maxReleaseFiles + 5; index += 1) put(`art/many/${String(index).padStart(5, '0')}.txt`, String(index));
    const files = Object.keys(listReleaseFiles(temp.dir()));
    expect(files).toHaveLength(maxReleaseFiles);
    expect(files.at(-1)).toBe(`art/many/${String(maxReleaseFiles - 1).padStart(5, '0')}.txt`);
  });
});

describe('readReleaseFile', () => {
  it('reads the stamp and files the build wrote', () => {
    put(`dist/${releaseFileName}`, JSON.stringify({ stamp: 'ab'.repeat(32), files: { 'art/hero.svg': '0123456789abcdef' } }));
    expect(readReleaseFile(path.join(temp.dir(), 'dist'))).toEqual({ release: { stamp: 'ab'.repeat(32), files: { 'art/hero.svg': '0123456789abcdef' } } });
  });

  it.each([
    ['no file', undefined, 'the build has no dist/release.json (run the build again)'],
    ['a file that is not JSON', '{', /^dist\/release\.json cannot be read \(/],
    ['no stamp', JSON.stringify({ files: {} }), 'dist/release.json is not a release file (a stamp and a map of files to hashes)'],
    ['a stamp that is not hex', JSON.stringify({ stamp: 'not a stamp', files: {} }), 'dist/release.json is not a release file (a stamp and a map of files to hashes)'],
    ['files that are not a map of hashes', JSON.stringify({ stamp: 'abcdef0123', files: { 'art/x.svg': 5 } }), 'dist/release.json is not a release file (a stamp and a map of files to hashes)'],
  ])('says what is wrong with %s, in one line', (_, text, problem) => {
    if (text !== undefined) put(`dist/${releaseFileName}`, text);
    const read = readReleaseFile(path.join(temp.dir(), 'dist'));
    expect(read).toEqual({ problem: expect.stringMatching(typeof problem === 'string' ? new RegExp(`^${problem.replace(/[.()]/g, '\\$&')}$`) : problem) });
    expect('problem' in read && read.problem).not.toContain('\n');
  });
});
