import { campaignSeparator, type LeaveDimension } from './dimensions';

/*
 * The leave reports' dimensions of the day counts (issue 29, docs/reach.md), counted from the leaves table
 * beside the views and clicks and closed with them. Each holds the visitors who sent a report in `visitors`
 * and the reports themselves in `views`:
 * - 'left': per page, the visitors who sent a leave report from it: the base of its reach curve.
 * - 'reached': per page and section (joined by campaignSeparator), those who got that far down.
 * - 'seen': per placement, those who saw it, with those who also followed its link in `clickers` (and
 *   their reports in `clicks`): click-through among those who saw it, from the same reports.
 * - 'engaged': per page and engaged-time bucket (engagedBuckets), the reports in it: a median and upper
 *   quartile of any range, since buckets add up over days where a median does not.
 * - 'variantSeen': 'seen' per experiment variant ('hero-words:b' and the placement), and per variant with
 *   an empty placement every report of that variant: its base.
 */

/** A leave report as the day counts read it (server/db/schema.ts, LeavesTable). */
export interface LeaveRow {
  day: string;
  visitor: string;
  page: string;
  variants: string;
  /** Space-separated section ids, placements seen and placements clicked. */
  sections: string;
  seen: string;
  clicked: string;
  engaged_seconds: number;
}

/**
 * Where the engaged-time buckets start, in seconds: a second apart at first, wider as reading gets longer,
 * up to the cap (shared/leaveBeacon.ts). A median read from them is within its bucket, a few seconds for
 * the times a page like this one sees.
 */
export const engagedBuckets = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 90, 120, 150, 180, 240, 300, 420, 600, 900, 1200, 1800] as const;

/** The bucket of an engaged time: the start of the last bucket at or below it. */
export function engagedBucket(seconds: number): number {
  let bucket = 0;
  for (const start of engagedBuckets) if (start <= seconds) bucket = start;
  return bucket;
}

/** Two parts of a value, joined as campaigns' are (dimensions.ts): page and section, page and bucket, variant and placement. */
export const joinedValue = (first: string, second: string): string => `${first}${campaignSeparator}${second}`;

/** A joined value's two parts. */
export function valueParts(value: string): [string, string] {
  const at = value.indexOf(campaignSeparator);
  return at < 0 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
}

const words = (text: string) => (text === '' ? [] : text.split(' '));

/** A report's values in a leave dimension, each with whether it counts as a click there (a placement followed). */
export function leaveValues(dimension: LeaveDimension, row: LeaveRow): [value: string, clicked: boolean][] {
  switch (dimension) {
    case 'left':
      return [[row.page, false]];
    case 'reached':
      return words(row.sections).map((section) => [joinedValue(row.page, section), false]);
    case 'seen': {
      const clicked = words(row.clicked);
      return words(row.seen).map((placement) => [placement, clicked.includes(placement)]);
    }
    case 'engaged':
      return [[joinedValue(row.page, String(engagedBucket(Number(row.engaged_seconds)))), false]];
    case 'variantSeen': {
      if (row.variants === '') return [];
      const clicked = words(row.clicked);
      return row.variants.split(',').flatMap((variant) => [
        [joinedValue(variant, ''), false] as [string, boolean],
        ...words(row.seen).map((placement): [string, boolean] => [joinedValue(variant, placement), clicked.includes(placement)]),
      ]);
    }
  }
}

/**
 * The q-quantile (0.5: the median) of engaged times counted per bucket start, placed within its bucket by
 * straight-line interpolation (the last bucket is the cap itself); null without reports. Whole seconds,
 * rounded to one decimal.
 */
export function bucketQuantile(counts: ReadonlyMap<number, number>, q: number): number | null {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (const [index, start] of engagedBuckets.entries()) {
    const count = counts.get(start) ?? 0;
    if (count === 0) continue;
    if (below + count >= rank) {
      const end = engagedBuckets[index + 1] ?? start;
      return Math.round((start + ((rank - below) / count) * (end - start)) * 10) / 10;
    }
    below += count;
  }
  return engagedBuckets.at(-1)!;
}
