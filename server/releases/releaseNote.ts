/** A note names at most this many files; the rest are counted ("and 4 more"). */
export const maxNotedFiles = 6;

/** A path longer than this is cut in the note (paths in art/ and shared/content/ are far shorter). */
const maxNotedPathLength = 80;

export const firstReleaseNote = 'first release recorded';
export const codeOnlyNote = 'no content or artwork changed';

/** The files added, changed and removed between two releases' maps of path → hash, each in path order. */
export function fileChanges(previous: Readonly<Record<string, string>>, current: Readonly<Record<string, string>>) {
  const before = new Map(Object.entries(previous));
  const after = new Map(Object.entries(current));
  return {
    changed: [...after].filter(([file, hash]) => before.has(file) && before.get(file) !== hash).map(([file]) => file).sort(),
    added: [...after.keys()].filter((file) => !before.has(file)).sort(),
    removed: [...before.keys()].filter((file) => !after.has(file)).sort(),
  };
}

const cut = (file: string) => (file.length > maxNotedPathLength ? `${file.slice(0, maxNotedPathLength - 1)}…` : file);

/**
 * One short line of what a release changed in the content and artwork since the release before it
 * (undefined: there was none): "changed shared/content/home.ts; added art/review-1.png; and 3 more".
 * At most maxNotedFiles files are named, changed ones first, then added, then removed.
 */
export function releaseNote(previous: Readonly<Record<string, string>> | undefined, current: Readonly<Record<string, string>>): string {
  if (!previous) return firstReleaseNote;
  const changes = fileChanges(previous, current);
  let left = maxNotedFiles;
  let more = 0;
  const parts: string[] = [];
  for (const kind of ['changed', 'added', 'removed'] as const) {
    const files = changes[kind];
    const named = files.slice(0, left);
    left -= named.length;
    more += files.length - named.length;
    if (named.length > 0) parts.push(`${kind} ${named.map(cut).join(', ')}`);
  }
  if (parts.length === 0) return codeOnlyNote;
  if (more > 0) parts.push(`and ${more} more`);
  return parts.join('; ');
}
