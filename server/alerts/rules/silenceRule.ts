import { dayMs, formatMoment } from '../../lib/utcDay';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../../db/schema';
import { chanceOfNone, expectedThreshold, formatChance, noneIsUnlikely } from './chanceOfNone';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import type { RuleVerdict } from './ruleVerdict';

/** How long without a single view (or click) counts as silence. */
export const silenceSpanMs = 60 * 60_000;
/** How many earlier days' same span make the usual count. */
export const usualDays = 14;
/**
 * Of those days, how many must have had at least one: "usually". It keeps one day's burst (a launch, a
 * link shared once) from making an hour look busy that is quiet on every other day.
 */
export const usualDaysWithSome = 10;
/** The two silence rules' false-alarm budget (issue 41): together, at most one false alert per this many days… */
export const silenceBudgetDays = 56;
/** …kept within this share of it, since the usual count is itself an average of 14 days. */
export const silenceBudgetShare = 0.25;

/**
 * The count expected in the span past which none alerts. An hour that expects e events holds about e
 * waits between them, each longer than the span with chance e^(−e), so looking at every span of the budget's
 * days (56 × 24 of 60 minutes) finds about spans × e × e^(−e) silences by chance alone. The line is the least
 * e, and at least ln 100, that keeps the two rules' sum within silenceBudgetShare of one: e − ln e ≥
 * ln(2 × spans ÷ share). For 60-minute spans it is 11.75 (before issue 41 it was ln 100 ≈ 4.6, which a
 * small site's evening hours crossed about 4 times in 8 weeks: tests/unit/silenceRule.simulation.test.ts).
 */
export const silenceLine = lineFor((silenceBudgetDays * dayMs) / silenceSpanMs);

function lineFor(spans: number): number {
  const target = Math.log((2 * spans) / silenceBudgetShare);
  let line = expectedThreshold;
  while (line - Math.log(line) < target) line = Math.round((line + 0.01) * 100) / 100;
  return line;
}

/**
 * Each earlier day's count stops here: one day at this count already makes the average pass the line, so
 * counting further could not change the verdict, and a busy day costs no more than a quiet one.
 */
export const dayCountCap = Math.floor(usualDays * silenceLine) + 1;

export type SilenceRule = 'views' | 'clicks';

const nouns: Record<SilenceRule, string> = { views: 'page views', clicks: 'clicks' };

/** What the silence rule reads about views or clicks. */
export interface SilenceFacts {
  /** Recorded in the span up to now, counted to 1 (only none or some matters). */
  recent: number;
  /** The same span of each of the usualDays days before, newest first, each counted up to dayCountCap. */
  earlier: readonly number[];
}

/**
 * Views (or clicks) gone silent: none in the last 60 minutes, while the same 60 minutes of the 14 days
 * before averaged more than silenceLine (11.75: none has a chance under 0.001%, and the looks of 8 weeks
 * stay within the budget) and had some on at least 10 of them. Some in the span is fine. Otherwise no
 * verdict: an hour that is usually quiet says nothing.
 */
export function silenceVerdict<Rule extends SilenceRule>(rule: Rule, { recent, earlier }: SilenceFacts, now: number): RuleVerdict<Rule> | undefined {
  const texts = silenceRules[rule];
  if (recent > 0) return { rule, subject: '', wrong: false, recovery: texts.recoveryText(now) };
  if (earlier.length === 0 || !Number.isFinite(recent)) return undefined;
  const counts = earlier.map((value) => (Number.isFinite(value) && value > 0 ? Math.min(value, dayCountCap) : 0));
  const expected = counts.reduce((sum, value) => sum + value, 0) / counts.length;
  const daysWithSome = counts.filter((value) => value > 0).length;
  if (!(noneIsUnlikely(expected) && expected > silenceLine) || daysWithSome < Math.min(usualDaysWithSome, counts.length)) return undefined;
  return { rule, subject: '', wrong: true, summary: texts.alertText(now, counts, expected, daysWithSome) };
}

const capitalized = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/** Rows of the table with `at` in [from, to), counted up to `cap` on its time index (views_by_time, clicks_by_time). */
async function countCapped(db: Kysely<Schema>, table: SilenceRule, from: number, to: number, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom(table).select(sql<number>`1`.as('one')).where('at', '>=', from).where('at', '<', to).limit(cap).as('span'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Reads the facts: 1 + 14 capped counts on the time index, at most 1 + 14 × 65 rows whatever the table's size. */
export async function readSilenceFacts(db: Kysely<Schema>, table: SilenceRule, now: number): Promise<SilenceFacts> {
  const recent = await countCapped(db, table, now - silenceSpanMs, now + 1, 1);
  if (recent > 0) return { recent, earlier: [] };
  const earlier: number[] = [];
  for (let day = 1; day <= usualDays; day += 1) {
    const end = now + 1 - day * dayMs;
    earlier.push(await countCapped(db, table, end - silenceSpanMs - 1, end, dayCountCap));
  }
  return { recent, earlier };
}

export async function readSilenceVerdict<Rule extends SilenceRule>(db: Kysely<Schema>, table: Rule, now: number): Promise<RuleVerdict<Rule> | undefined> {
  return silenceVerdict(table, await readSilenceFacts(db, table, now), now);
}

/** Page views (or clicks) gone silent: one rule per table, read from the database. */
function silenceRuleOf<Rule extends SilenceRule>(rule: Rule) {
  const noun = nouns[rule];
  const minutes = silenceSpanMs / 60_000;
  return {
    name: rule,
    title: () => `${noun} gone silent`,
    read: async ({ db }, now) => [await readSilenceVerdict(db, rule, now)],
    /** counts: each earlier day's, capped; expected: their average. */
    alertText: (now: number, counts: readonly number[], expected: number, daysWithSome: number) =>
      `No ${noun} recorded in the ${minutes} minutes up to ${formatMoment(now)}, though the same ${minutes} minutes of the ${counts.length} days before had ` +
      `${counts.some((value) => value >= dayCountCap) ? 'at least ' : ''}${expected.toFixed(1)} on average (some on ${daysWithSome} of them): the chance of none is ${formatChance(chanceOfNone(expected))}. ` +
      `The site may be down, or its ${rule === 'views' ? 'page-view reporting' : 'click reporting'} broken (after a release?).`,
    recoveryText: (now: number) => `${capitalized(noun)} are recorded again: some in the ${minutes} minutes up to ${formatMoment(now)}.`,
  } satisfies AlertRuleDefinition<Rule>;
}

export const viewsSilenceRule = silenceRuleOf('views');
export const clicksSilenceRule = silenceRuleOf('clicks');
const silenceRules = { views: viewsSilenceRule, clicks: clicksSilenceRule };
