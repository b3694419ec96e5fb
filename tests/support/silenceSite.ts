import { dayCountCap, silenceSpanMs, silenceVerdict, usualDays, type SilenceFacts } from '../../server/alerts/rules/silenceRule';
import { seededRandom } from '../../server/experiments/seededRandom';
import { watchPeriodMs } from '../../server/alerts/watch';
import { dayMs } from '../../server/lib/utcDay';
import { countAtMost } from './countAtMost';

/**
 * A seeded site whose views (or clicks) come as a Poisson process whose rate follows the hours of the day,
 * run through the real silence rule (silenceRule.ts: silenceVerdict) at the watch's cadence, a look every
 * watchPeriodMs, with the facts readSilenceFacts reads (the last 60 minutes, counted to 1; the same 60
 * minutes of each of the 14 days before, each counted up to dayCountCap) taken from a sorted array of
 * moments instead of rows.
 */

export interface SilenceSiteSettings {
  seed: number;
  days: number;
  /** The mean count an hour at each UTC hour, 24 values. */
  perHour: readonly number[];
  /** From this moment (ms after the start) nothing is recorded any more: the site is down. */
  stopAt?: number;
}

const start = Date.parse('2026-01-01T00:00:00Z');
const hourMs = 3_600_000;


/** The alerts opened (ms after the start) and the looks made, from day usualDays on. */
export function runSilenceSite(settings: SilenceSiteSettings): { openings: number[]; looks: number } {
  const random = seededRandom(settings.seed);
  const peak = Math.max(...settings.perHour);
  const end = start + settings.days * dayMs;
  const moments: number[] = [];
  // Thinning: candidates at the peak rate, each kept with the hour's share of it.
  for (let at = start + (-Math.log(1 - random()) * hourMs) / peak; at < end; at += (-Math.log(1 - random()) * hourMs) / peak) {
    if (settings.stopAt !== undefined && at >= start + settings.stopAt) break;
    const hour = Math.floor((at - start) / hourMs) % 24;
    if (random() * peak < settings.perHour[hour]!) moments.push(at);
  }
  const sorted = Float64Array.from(moments);
  const count = (from: number, to: number) => countAtMost(sorted, to) - countAtMost(sorted, from - 1e-6);
  const openings: number[] = [];
  let open = false;
  let looks = 0;
  for (let now = start + usualDays * dayMs; now < end; now += watchPeriodMs) {
    looks += 1;
    const recent = Math.min(1, count(now - silenceSpanMs, now));
    const earlier = recent > 0 ? [] : Array.from({ length: usualDays }, (_, index) => Math.min(dayCountCap, count(now - (index + 1) * dayMs - silenceSpanMs, now - (index + 1) * dayMs)));
    const facts: SilenceFacts = { recent, earlier };
    const verdict = silenceVerdict('views', facts, now);
    if (!verdict) continue;
    if (verdict.wrong && !open) {
      open = true;
      openings.push(now - start);
    } else if (!verdict.wrong) open = false;
  }
  return { openings, looks };
}
