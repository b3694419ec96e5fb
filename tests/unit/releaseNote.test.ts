import { codeOnlyNote, fileChanges, firstReleaseNote, maxNotedFiles, releaseNote } from '../../server/releases/releaseNote';

describe('releaseNote', () => {
  const previous = { 'art/hero.svg': 'aaaa', 'shared/content/home.ts': 'bbbb', 'shared/content/terms.ts': 'cccc' };

  it('says the first release is the first recorded', () => {
    expect(releaseNote(undefined, previous)).toBe(firstReleaseNote);
  });

  it('says when code alone changed', () => {
    expect(releaseNote(previous, { ...previous })).toBe(codeOnlyNote);
  });

  it('names the files changed, then added, then removed', () => {
    const current = { 'art/hero.svg': 'aaa2', 'art/review-1.png': 'dddd', 'shared/content/home.ts': 'bbbb' };
    expect(fileChanges(previous, current)).toEqual({ changed: ['art/hero.svg'], added: ['art/review-1.png'], removed: ['shared/content/terms.ts'] });
    expect(releaseNote(previous, current)).toBe('changed art/hero.svg; added art/review-1.png; removed shared/content/terms.ts');
  });

  it(`names at most ${maxNotedFiles} files and counts the rest`, () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`art/new-${String(index).padStart(2, '0')}.svg`, 'eeee']));
    const note = releaseNote(previous, { ...previous, 'art/hero.svg': 'ffff', ...many });
    expect(note).toBe('changed art/hero.svg; added art/new-00.svg, art/new-01.svg, art/new-02.svg, art/new-03.svg, art/new-04.svg; and 15 more');
  });

  it('stays short whatever the paths', () => {
    const long = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`art/${'x'.repeat(400)}-${index}.svg`, 'eeee']));
    expect(releaseNote({}, long).length).toBeLessThan(600);
  });
});
