/** Turning errors of any origin into one plain line for people: log lines and start-up messages. */

/**
 * Read by shape, not instanceof: Node's own fetch makes its errors in another realm than code run
 * in a vm context (as jest runs tests), where instanceof Error is false.
 */
export function fieldsOf(error: unknown): { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown } {
  return typeof error === 'object' && error !== null ? error : {};
}

/** An error's message, or the value itself as text. */
export function messageOf(error: unknown): string {
  const { message } = fieldsOf(error);
  return typeof message === 'string' ? message : String(error);
}

/** A failed connect to a name with several addresses is an AggregateError whose code may sit on its members. */
export function errorCode(error: unknown): string | undefined {
  const { code, errors } = fieldsOf(error);
  if (typeof code === 'string' && code) return code;
  return Array.isArray(errors) ? errorCode(errors[0]) : undefined;
}

/** The first line of a text, trimmed. */
export function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.trim() ?? '';
}

/** The first line of an error's message (never a stack or a query's text), else its code. */
export function errorSummary(error: unknown): string {
  return firstLine(messageOf(error)) || errorCode(error) || 'unknown error';
}

/** Control characters (C0, DEL, C1) and the invisible marks that reorder text on screen. */
const unprintable = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text as a terminal may show it: every control character (a line break included) and bidirectional
 * mark written out as \xNN or \uNNNN, so a value read from a file or a network can neither break the
 * line it is quoted in nor drive the terminal (colours, cursor moves, a title, a bell).
 */
export function printable(text: string): string {
  return text.replace(unprintable, (char) => {
    const code = char.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
