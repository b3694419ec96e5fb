import type { DayCountRow, LeaveDimension } from '../dayCounts/dimensions';
import { bucketQuantile, joinedValue, valueParts } from '../dayCounts/leaveDimensions';
import { pageLayouts } from '../leaves/pageLayout';
import { isPagePath } from '../../shared/routes';

/** A placement's reach over a range, from the leave reports (docs/reach.md). */
export interface PlacementReach {
  /** Visitors who saw it by the viewability rule (distinct per day, summed over days, as every visitor count). */
  seen: number;
  /** Of those, visitors whose same report says they followed its link. */
  seenClickers: number;
  /** seenClickers ÷ seen; null when nobody saw it. */
  seenClickThrough: number | null;
}

/** A page's reach over a range. */
export interface PageReach {
  /** Visitors who sent a leave report from it: the base of its reach curve. */
  leaves: number;
  /** Its sections in page order, each with the share of `leaves` that reached it (0 to 1; 0 without reports). */
  sections: { id: string; reached: number }[];
  /** Engaged seconds per view with a leave report: median and upper quartile, within their bucket; null without reports. */
  engagedSeconds: { median: number | null; p75: number | null };
}

export interface ReachReport {
  /** Leave reports over the range (one per page view at most). */
  leaves: number;
  placements: Map<string, PlacementReach>;
  pages: Map<string, PageReach>;
}

/** The leave dimensions the funnel report reads beside its own (the variants' are the experiments' report's). */
export const reachDimensions: readonly LeaveDimension[] = ['left', 'reached', 'seen', 'engaged'];

/**
 * The placements' and pages' reach over a range (docs/reach.md), from the range's rows of reachDimensions
 * summed per value (read by the funnel report with its other dimensions' values, in one statement).
 */
export function reachReport(rows: ReadonlyMap<LeaveDimension, readonly DayCountRow[]>): ReachReport {
  const placements = new Map<string, PlacementReach>();
  for (const row of rows.get('seen') ?? []) {
    placements.set(row.value, { seen: row.visitors, seenClickers: row.clickers, seenClickThrough: row.visitors === 0 ? null : row.clickers / row.visitors });
  }
  const left = new Map((rows.get('left') ?? []).map((row) => [row.value, row]));
  const reached = new Map((rows.get('reached') ?? []).map((row) => [row.value, row.visitors]));
  const buckets = new Map<string, Map<number, number>>();
  for (const row of rows.get('engaged') ?? []) {
    const [page, bucket] = valueParts(row.value);
    let counts = buckets.get(page);
    if (!counts) buckets.set(page, (counts = new Map()));
    counts.set(Number(bucket), row.views);
  }
  const pages = new Map<string, PageReach>();
  for (const [page, { visitors }] of left) {
    const sections = isPagePath(page) ? pageLayouts[page].sections : [];
    const counts = buckets.get(page) ?? new Map<number, number>();
    pages.set(page, {
      leaves: visitors,
      sections: sections.map((id) => ({ id, reached: visitors === 0 ? 0 : Math.min(1, (reached.get(joinedValue(page, id)) ?? 0) / visitors) })),
      engagedSeconds: { median: bucketQuantile(counts, 0.5), p75: bucketQuantile(counts, 0.75) },
    });
  }
  const leaves = [...left.values()].reduce((sum, row) => sum + row.views, 0);
  return { leaves, placements, pages };
}

/** What a page without leave reports shows. */
export const noPageReach = (page: string): PageReach => ({
  leaves: 0,
  sections: (isPagePath(page) ? pageLayouts[page].sections : []).map((id) => ({ id, reached: 0 })),
  engagedSeconds: { median: null, p75: null },
});
