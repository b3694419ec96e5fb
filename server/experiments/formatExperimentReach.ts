import { counted, rate, share } from '../dayCounts/reportNumbers';
import { countText } from '../lib/numberFormat';
import { placementsSeen, type ExperimentReport } from './experimentReport';
import { table } from '../lib/textTable';

/** How `npm run stats` (and the digest, if it wants) writes what each variant's visitors saw; /admin has server/admin/ExperimentTables.tsx. */

/**
 * One experiment's reach per variant (docs/reach.md): the leave reports each variant's figures rest on,
 * then a row per variant and placement that anyone in the experiment saw: who saw it, who of them followed
 * it, and that click-through. One line when no leave report came from the experiment's visitors.
 */
export function experimentReachLines(experiment: Pick<ExperimentReport, 'variants'>): string[] {
  const { variants } = experiment;
  const shown = placementsSeen(variants);
  if (variants.every((variant) => variant.reach.leaves === 0)) return ['Buttons seen: no leave report from its visitors yet.'];
  const rows: string[][] = [['Variant', 'Placement', 'Saw', 'Clicked', 'CTR seen']];
  for (const variant of variants) {
    for (const placement of shown) {
      const seen = variant.reach.placements.find((row) => row.placement === placement)!;
      rows.push([variant.id, placement, countText(seen.seen), countText(seen.seenClickers), rate(seen.seenClickers, seen.seen)]);
    }
  }
  // A line a variant, so two or three still fit a terminal's 90 columns.
  const leaves = variants.map((variant) => `  variant ${variant.id}: ${counted(variant.reach.leaves, 'leave report')}, ${share(variant.reach.leaves, variant.visitors)} of its visitors`);
  return ['Buttons seen, from leave reports:', ...leaves, ...(shown.length === 0 ? [] : [table(rows, 2)])];
}
