import { costVerdict } from '../../server/costs/costVerdict';
import { payoutModel } from '../../server/costs/payoutSpread';
import { saleHistory, type SaleHistory } from '../../server/costs/saleHistory';
import { seededRandom } from '../../server/experiments/seededRandom';
import { decideSpend, judgeSpend, type SpendFacts, type SpendJudgement } from '../../server/alerts/rules/spendDecision';
import { arrivedOf, spendWindowDays } from '../../server/alerts/rules/spendRule';
import { watchPeriodMs } from '../../server/alerts/watch';
import { addDays, dayMs } from '../../server/lib/utcDay';

/**
 * A seeded fleet of campaigns run through the real spend and untracked rules' decision (spendDecision.ts:
 * judgeSpend per campaign, decideSpend over all of them) at the watch's real cadence, a look every
 * watchPeriodMs, with the window the rule reads (spendRule.ts: the closed days ending yesterday, the share
 * of sales arrived by arrivedOf). What the database would hold is kept in arrays instead: each day's
 * visitors and cost, and the sales credited to their click's day as they arrive. A campaign's judgement is
 * computed again whenever its facts change: a sale arrived, or a new day (the window moves, and the share
 * arrived is aged at the start of the day). judgeSpend is pure, so reusing it between changes gives exactly
 * what calling it at every look would; decideSpend runs at every look.
 */

export interface CampaignKind {
  /** How many campaigns of this kind. */
  count: number;
  /** Revenue over cost, minus 1: 0 breaks even, −0.3 loses 30 cents of each unit spent. */
  trueReturn: number;
  visitorsPerDay: number;
  /** The conversion rate; default 0.02. */
  rate?: number;
  /** A fixed daily cost (the expected visitors' cost, whatever came) rather than a cost per visitor. */
  fixedDaily?: boolean;
  /** Cost recorded but no visitor (tags that do not match): the untracked alert's case. */
  untracked?: boolean;
  /** The first day it runs: a day index, or a span of days the launches spread over (seeded). */
  launch: number | [number, number];
}

export interface FleetSettings {
  seed: number;
  days: number;
  kinds: CampaignKind[];
  /** Mean payout in units (40), and its coefficient of variation (1: exponential payouts; 0: fixed). */
  payout: number;
  payoutCv: number;
  /** Mean days from click to the sale's arrival (exponential); 0 for at once. */
  delayMeanDays: number;
}

export interface Opening {
  rule: 'spend' | 'untracked';
  campaign: number;
  kind: number;
  /** Days since the campaign's launch at the opening. */
  ageDays: number;
  /** /admin's verdict for the same subject and days at that moment. */
  pageVerdict: SpendFacts['verdict'];
}

export interface FleetRun {
  openings: Opening[];
  /** Per campaign, its launch day index and kind. */
  campaigns: { kind: number; launch: number }[];
  looks: number;
}

const start = Date.parse('2026-01-01T00:00:00Z');
const firstDay = '2026-01-01';
/** Day names by index, made once: the window's days are named on every change. */
const dayNames = Array.from({ length: 1000 }, (_, index) => addDays(firstDay, index));

function poisson(random: () => number, mean: number): number {
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(random)));
  const limit = Math.exp(-mean);
  let k = 0;
  for (let product = random(); product > limit; product *= random()) k += 1;
  return k;
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A payout of the given mean and coefficient of variation: a gamma draw of shape 1/cv² (exponential at 1), in micros. */
function payoutMicros(random: () => number, mean: number, cv: number): number {
  if (cv <= 0) return Math.round(mean * 1_000_000);
  if (cv !== 1) throw new Error('payoutCv is 0 or 1 here');
  return Math.max(1, Math.round(-Math.log(1 - random()) * mean * 1_000_000));
}

/** The site's sale history the rule would read: 2,000 past sales drawn from the same payouts and delays. */
export function fleetHistory(settings: FleetSettings, random: () => number): SaleHistory {
  const payouts = Array.from({ length: 2000 }, () => payoutMicros(random, settings.payout, settings.payoutCv));
  // As spendHistory.ts measures: from the middle of the click's day.
  const delays = Array.from({ length: 2000 }, () => Math.max(0, -Math.log(1 - random()) * settings.delayMeanDays + random() - 0.5));
  return saleHistory({ payoutsMicros: payouts, delaysDays: delays, sales: 2000, refunded: 0 });
}

export function runFleet(settings: FleetSettings): FleetRun {
  const random = seededRandom(settings.seed);
  const history = fleetHistory(settings, random);
  const { days } = settings;
  const campaigns: ({ kind: number; launch: number } & CampaignDays)[] = [];
  const sales: { at: number; campaign: number; day: number; micros: number }[] = [];
  settings.kinds.forEach((kind, kindIndex) => {
    const rate = kind.rate ?? 0.02;
    const costPerVisitor = (rate * settings.payout * 1_000_000) / (1 + kind.trueReturn);
    for (let n = 0; n < kind.count; n += 1) {
      const launch = typeof kind.launch === 'number' ? kind.launch : kind.launch[0] + Math.floor(random() * (kind.launch[1] - kind.launch[0]));
      const campaign = campaigns.length;
      const row = { kind: kindIndex, launch, visitors: new Float64Array(days), costMicros: new Float64Array(days), revenueMicros: new Float64Array(days), sales: new Float64Array(days), squares: new Float64Array(days) };
      for (let day = launch; day < days; day += 1) {
        const visitors = poisson(random, kind.visitorsPerDay);
        row.visitors[day] = kind.untracked ? 0 : visitors;
        row.costMicros[day] = Math.round(kind.fixedDaily ? kind.visitorsPerDay * costPerVisitor : visitors * costPerVisitor);
        const converted = poisson(random, visitors * rate);
        for (let k = 0; k < converted; k += 1) {
          const click = start + (day + random()) * dayMs;
          const delay = settings.delayMeanDays > 0 ? -Math.log(1 - random()) * settings.delayMeanDays * dayMs : 0;
          sales.push({ at: click + delay, campaign, day, micros: payoutMicros(random, settings.payout, settings.payoutCv) });
        }
      }
      campaigns.push(row);
    }
  });
  sales.sort((a, b) => a.at - b.at);

  const judgements: SpendJudgement[] = campaigns.map((_, index) => ({ subject: String(index), kind: 'small' }));
  const facts: (SpendFacts | undefined)[] = campaigns.map(() => undefined);
  const dirty = new Set<number>();
  const open = { spend: new Set<string>(), untracked: new Set<string>() };
  const openings: Opening[] = [];
  let next = 0;
  let today = -1;
  let sitePayouts: SitePayouts = { payoutMicros: settings.payout * 1_000_000, payoutSpread: 1 };
  let looks = 0;
  for (let at = start; at < start + days * dayMs; at += watchPeriodMs) {
    looks += 1;
    for (; next < sales.length && sales[next]!.at <= at; next += 1) {
      const sale = sales[next]!;
      const row = campaigns[sale.campaign]!;
      row.revenueMicros[sale.day] = row.revenueMicros[sale.day]! + sale.micros;
      row.sales[sale.day] = row.sales[sale.day]! + 1;
      row.squares[sale.day] = row.squares[sale.day]! + (sale.micros / 1_000_000) ** 2;
      dirty.add(sale.campaign);
    }
    const day = Math.floor((at - start) / dayMs);
    if (day !== today) {
      today = day;
      campaigns.forEach((_, index) => dirty.add(index));
      sitePayouts = windowPayouts(campaigns, day) ?? sitePayouts;
    }
    for (const index of dirty) {
      facts[index] = factsOf(campaigns[index]!, index, day, history, sitePayouts);
      judgements[index] = judgeSpend(facts[index]!, history);
    }
    dirty.clear();
    for (const decision of decideSpend(judgements)) {
      const set = open[decision.rule];
      if (decision.wrong && !set.has(decision.subject)) {
        set.add(decision.subject);
        const campaign = Number(decision.subject);
        const row = campaigns[campaign]!;
        openings.push({ rule: decision.rule, campaign, kind: row.kind, ageDays: (at - start) / dayMs - row.launch, pageVerdict: facts[campaign]?.verdict ?? null });
      } else if (!decision.wrong) set.delete(decision.subject);
    }
  }
  return { openings, campaigns: campaigns.map(({ kind, launch }) => ({ kind, launch })), looks };
}

interface CampaignDays {
  visitors: Float64Array;
  costMicros: Float64Array;
  revenueMicros: Float64Array;
  sales: Float64Array;
  /** The sum of the day's payouts squared, in units². */
  squares: Float64Array;
}

/** The site's payouts as the report's costs reckon with them (sourceCosts.ts, payoutSpread.ts). */
interface SitePayouts {
  payoutMicros: number;
  payoutSpread: number;
}

/** The window's first day index at `day`: the spendWindowDays closed days ending yesterday. */
const windowFrom = (day: number) => day - spendWindowDays;

/**
 * The site's payouts over the window, as the report's costs reckon with them: the mean of its paid sales
 * (raised by its margin) and their spread, floor included (every sale here is paid above 0, and the window's are fewer than the
 * report's sample of paidSampleRows only at its start: the spread is from all of them).
 */
function windowPayouts(campaigns: readonly CampaignDays[], day: number): SitePayouts | undefined {
  let micros = 0;
  let sales = 0;
  let squares = 0;
  for (const row of campaigns) {
    for (let d = Math.max(0, windowFrom(day)); d < day; d += 1) {
      micros += row.revenueMicros[d]!;
      sales += row.sales[d]!;
      squares += row.squares[d]!;
    }
  }
  const model = payoutModel({ sales, micros, squares });
  return model.reckonedMicros === undefined ? undefined : { payoutMicros: model.reckonedMicros, payoutSpread: model.spread };
}

/** The facts the rule reads about one campaign on day `day`, /admin's verdict computed as the report does (sourceCosts.ts). */
function factsOf(row: CampaignDays, index: number, day: number, history: SaleHistory, { payoutMicros, payoutSpread }: SitePayouts): SpendFacts {
  let visitors = 0;
  let costMicros = 0;
  let revenueMicros = 0;
  let sales = 0;
  const visits: { day: string; visitors: number }[] = [];
  for (let d = Math.max(0, windowFrom(day)); d < day; d += 1) {
    visitors += row.visitors[d]!;
    costMicros += row.costMicros[d]!;
    revenueMicros += row.revenueMicros[d]!;
    sales += row.sales[d]!;
    if (row.visitors[d]! > 0) visits.push({ day: dayNames[d]!, visitors: row.visitors[d]! });
  }
  const verdict = costMicros > 0 ? costVerdict({ visitors, conversions: sales, revenueMicros, costMicros, payoutMicros, payoutSpread }) : undefined;
  const arrived = arrivedOf(visits, history, dayNames[day]!);
  return {
    subject: String(index),
    currency: 'USD',
    from: dayNames[Math.max(0, windowFrom(day))]!,
    to: dayNames[Math.max(0, day - 1)]!,
    cost: costMicros > 0 ? costMicros / 1_000_000 : null,
    revenue: revenueMicros / 1_000_000,
    profit: costMicros > 0 ? (revenueMicros - costMicros) / 1_000_000 : null,
    visitors,
    conversions: sales,
    chanceProfitable: verdict?.chanceProfitable ?? null,
    verdict: verdict?.verdict ?? null,
    visitorsToKnow: verdict?.visitorsToKnow ?? null,
    arrived,
  };
}
