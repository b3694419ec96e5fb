import { sql, type Kysely } from 'kysely';
import { affiliatePlacements } from '../../shared/affiliate';
import { readShown, type Experiment, type VariantId } from '../../shared/experiments/experiment';
import type { Schema } from '../db/schema';
import { variantConversions } from '../dayCounts/countedConversions';
import type { DayCounts } from '../dayCounts/dayCounts';
import { joinedValue } from '../dayCounts/leaveDimensions';
import { decideExperiment, verdictText, type ExperimentDecision } from './experimentVerdict';

/** One variant's figures over its experiment's life, up to the report's last day. */
export interface VariantReport {
  id: VariantId;
  /** Its words by path ({} for a). */
  words: Record<string, string>;
  /** Its share of visitors, from the weights (0.5 for two equal variants). */
  share: number;
  /** Visitor-days shown it (distinct visitors per day, summed over days, as every visitor count). */
  visitors: number;
  /** Visitor-days that followed an affiliate link from it. */
  clickers: number;
  clicks: number;
  /** Conversions not reversed, credited to it through their click (or a sub-ID without JavaScript). */
  conversions: number;
  /** In the report's currency; other currencies are counted in conversions, not here. */
  revenue: number;
  /** clickers / visitors, conversions / visitors, revenue / visitors; 0 with no visitors. */
  clickRate: number;
  conversionRate: number;
  revenuePerVisitor: number;
  /** The chance its rate (on what the decision is on) is the best, from a Beta posterior per variant. */
  chanceBest: number;
  /** What its leave reports say was seen (docs/reach.md): a wording test tells "fewer clicked" from "fewer saw". */
  reach: VariantReach;
}

/** A variant's reach over its experiment's life, from the 'variantSeen' day counts (server/dayCounts/leaveDimensions.ts). */
export interface VariantReach {
  /** Visitor-days shown it that sent a leave report: the base the placements' figures rest on. */
  leaves: number;
  /** Every affiliate placement, in affiliatePlacements' order. */
  placements: PlacementSeen[];
}

export interface PlacementSeen {
  placement: string;
  /** Visitor-days whose leave report says they saw it by the viewability rule. */
  seen: number;
  /** Of those, the ones whose same report says they followed its link. */
  seenClickers: number;
  /** seenClickers ÷ seen; null when nobody saw it. */
  seenClickThrough: number | null;
}

/** The placements anyone shown the experiment saw, in affiliatePlacements' order: the rows its reach tables list. */
export function placementsSeen(variants: readonly Pick<VariantReport, 'reach'>[]): string[] {
  return affiliatePlacements.filter((placement) => variants.some((variant) => variant.reach.placements.some((row) => row.placement === placement && row.seen > 0)));
}

export interface ExperimentReport {
  id: string;
  /** Set once the experiment has ended (everyone sees this variant now); null while it runs. */
  winner: VariantId | null;
  /** The first and last day with figures, '' when it has none yet. */
  from: string;
  to: string;
  /** conversions per visitor once any conversion is credited to the experiment, else visitors who clicked per visitor. */
  decidedOn: 'conversions' | 'clickers';
  variants: VariantReport[];
  /** One plain sentence: keep running (and about how long), which is better, or no difference found. */
  verdict: string;
  decision: ExperimentDecision;
}

interface DayFigures {
  visitors: number;
  clickers: number;
  clicks: number;
  conversions: number;
  micros: number;
}

const emptyFigures = (): DayFigures => ({ visitors: 0, clickers: 0, clicks: 0, conversions: 0, micros: 0 });

/** A variant's 'variantSeen' values: its base (the empty placement), then each placement. */
const reachValues = (variant: string): string[] => [joinedValue(variant, ''), ...affiliatePlacements.map((placement) => joinedValue(variant, placement))];

/**
 * Every listed experiment's figures per variant, from its first day to `to`: views and clicks from the
 * 'variant' rows of the closed days and of the open days the day counts hold, conversions from their own
 * partial index and the folded ones, and what its leave reports saw from the 'variantSeen' rows (the
 * closed days summed by the database, a row per value). Its cost follows days × variants, never the
 * traffic behind them. Each experiment's whole life is read whatever the report's range, since a
 * sequential test looks at every day in turn (experimentVerdict.ts): the verdict is the same from every
 * range and on every reload.
 */
export async function readExperimentReports(
  db: Kysely<Schema>,
  dayCounts: DayCounts,
  to: string,
  currency: string,
  experiments: readonly Experiment[],
): Promise<ExperimentReport[]> {
  if (experiments.length === 0) return [];
  const values = experiments.flatMap((experiment) => experiment.variants.map((variant) => `${experiment.id}:${variant.id}`));
  const closedTo = dayCounts.lastClosed < to ? dayCounts.lastClosed : to;
  const seenValues = values.flatMap(reachValues);
  const [closed, open, conversions, folded, closedSeen] = await Promise.all([
    db.selectFrom('daily_counts').select(['day', 'value', 'visitors', 'clicks', 'clickers']).where('dimension', '=', 'variant').where('day', '<=', closedTo).where('value', 'in', values).execute(),
    (dayCounts.open.get('variant') ?? []).filter((row) => row.day <= to && row.day > closedTo),
    variantConversions(db)
      .where(sql`coalesce(click_day, day)`, '<=', to)
      .execute(),
    db.selectFrom('daily_variant_conversions').select(['day', 'variants', 'currency', 'conversions', sql<number>`payout_micros`.as('micros')]).where('day', '<=', to).execute(),
    db
      .selectFrom('daily_counts')
      .select(['value', sql<number>`sum(visitors)`.as('visitors'), sql<number>`sum(clickers)`.as('clickers')])
      .where('dimension', '=', 'variantSeen')
      .where('day', '<=', closedTo)
      .where('value', 'in', seenValues)
      .groupBy('value')
      .execute(),
  ]);
  // Visitors and those who clicked by 'variantSeen' value, closed days and open ones together.
  const seen = new Map<string, { visitors: number; clickers: number }>();
  const openSeen = (dayCounts.open.get('variantSeen') ?? []).filter((row) => row.day <= to && row.day > closedTo);
  for (const row of [...closedSeen, ...openSeen]) {
    const sums = seen.get(row.value) ?? { visitors: 0, clickers: 0 };
    sums.visitors += Number(row.visitors);
    sums.clickers += Number(row.clickers);
    seen.set(row.value, sums);
  }
  // Figures by variant value ('hero-words:b'), then day.
  const figures = new Map<string, Map<string, DayFigures>>();
  const at = (value: string, day: string) => {
    let days = figures.get(value);
    if (!days) figures.set(value, (days = new Map()));
    let dayFigures = days.get(day);
    if (!dayFigures) days.set(day, (dayFigures = emptyFigures()));
    return dayFigures;
  };
  for (const row of [...closed, ...open]) {
    const dayFigures = at(row.value, row.day);
    dayFigures.visitors += Number(row.visitors);
    dayFigures.clicks += Number(row.clicks);
    dayFigures.clickers += Number(row.clickers);
  }
  for (const row of [...conversions, ...folded]) {
    for (const { experiment, variant } of readShown(row.variants, experiments)) {
      const dayFigures = at(`${experiment}:${variant}`, String(row.day));
      dayFigures.conversions += Number(row.conversions);
      if (row.currency.trim() === currency) dayFigures.micros += Number(row.micros);
    }
  }
  return experiments.map((experiment) => experimentReport(experiment, figures, seen, to));
}

function variantReach(variant: string, seen: ReadonlyMap<string, { visitors: number; clickers: number }>): VariantReach {
  return {
    leaves: seen.get(joinedValue(variant, ''))?.visitors ?? 0,
    placements: affiliatePlacements.map((placement) => {
      const { visitors, clickers } = seen.get(joinedValue(variant, placement)) ?? { visitors: 0, clickers: 0 };
      return { placement, seen: visitors, seenClickers: clickers, seenClickThrough: visitors === 0 ? null : clickers / visitors };
    }),
  };
}

function experimentReport(
  experiment: Experiment,
  figures: ReadonlyMap<string, ReadonlyMap<string, DayFigures>>,
  seen: ReadonlyMap<string, { visitors: number; clickers: number }>,
  to: string,
): ExperimentReport {
  const byVariant = experiment.variants.map((variant) => figures.get(`${experiment.id}:${variant.id}`) ?? new Map<string, DayFigures>());
  const days = [...new Set(byVariant.flatMap((variantDays) => [...variantDays.keys()]))].sort();
  const totals = byVariant.map((variantDays) => {
    const total = emptyFigures();
    for (const day of variantDays.values()) for (const key of Object.keys(total) as (keyof DayFigures)[]) total[key] += day[key];
    return total;
  });
  const decidedOn = totals.some((total) => total.conversions > 0) ? 'conversions' : 'clickers';
  const decision = decideExperiment(
    experiment.variants.map((variant, index) => ({
      id: variant.id,
      days: days.map((day) => {
        const dayFigures = byVariant[index]!.get(day);
        return { visitors: dayFigures?.visitors ?? 0, successes: dayFigures?.[decidedOn] ?? 0 };
      }),
    })),
  );
  const weights = experiment.variants.map((variant) => variant.weight ?? 1);
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const per = (part: number, visitors: number) => (visitors === 0 ? 0 : part / visitors);
  const ended = experiment.winner === undefined ? '' : `ended: everyone sees ${experiment.winner}; when it ended, `;
  return {
    id: experiment.id,
    winner: experiment.winner ?? null,
    from: days[0] ?? '',
    to: days.length === 0 ? '' : to,
    decidedOn,
    variants: experiment.variants.map((variant, index) => {
      const total = totals[index]!;
      const revenue = total.micros / 1_000_000;
      return {
        id: variant.id,
        words: { ...(variant.words as Record<string, string> | undefined) },
        share: weights[index]! / weightSum,
        visitors: total.visitors,
        clickers: total.clickers,
        clicks: total.clicks,
        conversions: total.conversions,
        revenue,
        clickRate: per(total.clickers, total.visitors),
        conversionRate: per(total.conversions, total.visitors),
        revenuePerVisitor: per(revenue, total.visitors),
        chanceBest: decision.chanceBest[index] ?? 0,
        reach: variantReach(`${experiment.id}:${variant.id}`, seen),
      };
    }),
    verdict: ended + verdictText(decision),
    decision,
  };
}
