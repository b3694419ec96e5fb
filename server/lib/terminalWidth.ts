import { eastAsianWidth } from 'get-east-asian-width';

/*
 * How many columns a terminal gives a text, as string-width reckons it: a user-perceived character
 * (grapheme, by Intl.Segmenter) is 2 columns when it is an emoji (RGI, so 👍🏽 and 🇯🇵 are one) or East
 * Asian wide or fullwidth (漢字, ｶ's fullwidth kin), nothing when it is only combining marks, controls or
 * format characters (a zero-width joiner), else 1; a base with its combining marks (é as e and U+0301)
 * counts as its base. Ambiguous characters count 1, as Unicode advises where the context is unknown.
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
// The v flag (Node 20 and later) knows RGI_Emoji, sequences included; built from a string for the compiler's older target.
const emoji = new RegExp('^\\p{RGI_Emoji}$', 'v');
const zeroWidth = /^[\p{Mark}\p{Control}\p{Format}\p{Default_Ignorable_Code_Point}]+$/u;
/** Plain ASCII needs no segmenting: the common case of the stats' tables stays a length. */
const printableAscii = /^[\x20-\x7e]*$/;

function graphemeWidth(grapheme: string): number {
  if (zeroWidth.test(grapheme)) return 0;
  if (emoji.test(grapheme)) return 2;
  return eastAsianWidth(grapheme.codePointAt(0)!);
}

export function terminalWidth(text: string): number {
  if (printableAscii.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** text and the spaces after (or before) it that make it `width` columns wide. */
export function padEndTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - terminalWidth(text)));
}

export function padStartTo(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - terminalWidth(text))) + text;
}
