/**
 * Text as a claim's evidence is matched against: Unicode NFKC (so "ﬁ", full-width letters and a no-break
 * space read as "fi", ASCII and a space), typographic quotes and dashes as plain ones (merchant pages
 * swap them freely), invisible format characters such as a soft hyphen dropped, and every run of
 * whitespace one space. Letter case is left as written, so an excerpt reads as the merchant wrote it;
 * matching folds case instead (the `iu` flags: Unicode case folding, "K" the Kelvin sign is "k").
 */
export function normalText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * A phrase as a regular expression over normalText: the phrase normalised the same way, each character
 * literal, and never part of a longer word or number ("60 days" is not found in "160 days").
 */
export function phrasePattern(phrase: string): RegExp {
  const words = normalText(phrase);
  const escaped = words.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const before = /^[\p{L}\p{N}]/u.test(words) ? '(?<![\\p{L}\\p{N}])' : '';
  const after = /[\p{L}\p{N}]$/u.test(words) ? '(?![\\p{L}\\p{N}])' : '';
  return new RegExp(`${before}${escaped}${after}`, 'giu');
}

/** A number evidence's pattern as it is run: over normalText, every match, case folded. */
export function numberPattern(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, 'giu');
}

/** How many capturing groups a pattern has (a number evidence needs exactly one). */
export function captureGroups(pattern: RegExp): number {
  return new RegExp(`${pattern.source}|`, 'u').exec('')!.length - 1;
}

const excerptReach = 80;

/** The words around text[start, end), cut at word boundaries where it can, with "…" where it was cut. */
export function excerptAround(text: string, start: number, end: number): string {
  let from = Math.max(0, start - excerptReach);
  let to = Math.min(text.length, end + excerptReach);
  if (from > 0) from = text.indexOf(' ', from) + 1 || from;
  if (from > start) from = start;
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    to = space >= end ? space : to;
  }
  return `${from > 0 ? '…' : ''}${text.slice(from, to).trim()}${to < text.length ? '…' : ''}`;
}
