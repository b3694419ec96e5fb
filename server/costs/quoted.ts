/**
 * A value from the file as a reason may quote it: only when it is short and made of letters, digits and
 * plain punctuation; anything else (control characters, markup, quotes, long text) is described, never shown.
 */
export function quoted(value: string): string {
  return /^[\p{L}\p{N} .,:/|$€£¥₹()+\-_']{1,40}$/u.test(value) ? `"${value}"` : `a value of ${value.length} characters`;
}
