import { quoted } from './quoted';

/**
 * The dates of the ad platforms' reports (issue 27, issue 43): which forms are read, and the order of
 * slash dates with the year last, which a file has to show (or the operator to say) before any is read.
 */

/** Slash dates with the year last: month first (M/D/YYYY) or day first (D/M/YYYY). */
export type DateOrder = 'mdy' | 'dmy';

const dateOrders: readonly string[] = ['mdy', 'dmy'];

export const isDateOrder = (value: string): value is DateOrder => dateOrders.includes(value);

const isoDay = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]00:00(?::00)?)?$/;
const yearFirstSlash = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;
const yearLastSlash = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const monthNameDay = /^([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/;
/** Microsoft Advertising's TimePeriod of an hourly report: "3/15/2020 12:00:00 AM|7", or "2020-03-15|7" in format 2.0. */
const hourOfDay = /^[\d/: -]+(?:[AP]M)?\|\d{1,2}$/;

const acceptedDays = 'YYYY-MM-DD, YYYY/MM/DD, M/D/YYYY or D/M/YYYY, or "Nov 3, 2026"';

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const fullMonthNames = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A month's name in English, full or in three letters (Sept too), as 1–12. */
function monthOf(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = lower === 'sept' ? 8 : Math.max(monthNames.indexOf(lower), fullMonthNames.indexOf(lower));
  return index === -1 ? undefined : index + 1;
}

/** YYYY-MM-DD when the numbers make a real day of 2000–2099, else undefined. */
function calendarDay(year: number, month: number, day: number): string | undefined {
  if (year < 2000 || year > 2099 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined;
  return date.toISOString().slice(0, 10);
}

const orderNames: Record<DateOrder, string> = { mdy: 'month first (M/D/YYYY)', dmy: 'day first (D/M/YYYY)' };

/**
 * The day a date cell names. A slash date with the year last is read in the file's order, which
 * slashDateOrder decided before any row was read (a file without such dates has none, and needs none).
 */
export function parseDay(cell: string, order: DateOrder | undefined): { day: string } | { error: string } {
  let parts: [number, number, number] | undefined;
  let match = isoDay.exec(cell) ?? yearFirstSlash.exec(cell);
  if (match) parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = yearLastSlash.exec(cell))) {
    const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if ((order === 'mdy' && first > 12) || (order === 'dmy' && second > 12)) return { error: `the date ${quoted(cell)} is not ${orderNames[order]}, as the file's other dates are` };
    parts = order === 'dmy' ? [year, second, first] : [year, first, second];
  } else if ((match = monthNameDay.exec(cell))) {
    const month = monthOf(match[1]!);
    if (month !== undefined) parts = [Number(match[3]), month, Number(match[2])];
  } else if (hourOfDay.test(cell)) {
    return { error: `${quoted(cell)} is an hour, not a day: request the report with daily aggregation` };
  }
  if (!parts) return { error: `${quoted(cell)} is not a date (${acceptedDays})` };
  const day = calendarDay(...parts);
  return day ? { day } : { error: `${quoted(cell)} is no day of 2000–2099` };
}

export const looksLikeDate = (cell: string) => [isoDay, yearFirstSlash, yearLastSlash, monthNameDay].some((form) => form.test(cell));

export interface DateCell {
  cell: string;
  line: number;
}

/**
 * The order of a file's slash dates with the year last. Given (--dates), it is used. Otherwise one
 * date whose first number is above 12 (25/11/2026) makes the file day first, one whose second is
 * (11/25/2026) month first; a file with both is refused, and so is a file whose every such date could
 * be either (3/11/2026: 11 March or 3 November), since reading it in the wrong order would put every
 * cost on another day without a word. Dates whose two numbers are equal read the same either way.
 */
export function slashDateOrder(cells: readonly DateCell[], column: string, given?: DateOrder): { order?: DateOrder } | { error: string } {
  if (given) return { order: given };
  let dayFirst: DateCell | undefined;
  let monthFirst: DateCell | undefined;
  let ambiguous: DateCell | undefined;
  for (const date of cells) {
    const match = yearLastSlash.exec(date.cell);
    if (!match) continue;
    const [first, second] = [Number(match[1]), Number(match[2])];
    if (first > 12 && second <= 12) dayFirst ??= date;
    else if (second > 12 && first <= 12) monthFirst ??= date;
    else if (first <= 12 && second <= 12 && first !== second) ambiguous ??= date;
  }
  const cite = (date: DateCell) => `${quoted(date.cell)} on line ${date.line}`;
  if (dayFirst && monthFirst) {
    return { error: `column "${column}" writes dates both day first (${cite(dayFirst)}) and month first (${cite(monthFirst)}); export dates as YYYY-MM-DD` };
  }
  if (dayFirst) return { order: 'dmy' };
  if (monthFirst) return { order: 'mdy' };
  if (ambiguous) {
    return {
      error:
        `every date in column "${column}" could be month first or day first (the first, ${cite(ambiguous)}, could be either): ` +
        'say which with --dates mdy (month first, as English (US) exports write them) or --dates dmy (day first), or export dates as YYYY-MM-DD',
    };
  }
  return {};
}
