/** A CSV field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a quote, a comma or a line break. */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
