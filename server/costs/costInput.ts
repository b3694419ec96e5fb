import { isCampaignValue } from '../../shared/trafficSource';
import { addDays, isDay, utcDay } from '../lib/utcDay';
import { firstReportDay } from '../dayCounts/reportRange';
import type { CostRow } from './costRow';

const microsPerUnit = 1_000_000;
/** The largest amount a cost row may give, in whole units: far above any day's ads, and its micros stay exact in a double. */
export const maxCostUnits = 1_000_000_000;

/**
 * "12.5" (or the number 12.5) → 12500000, without floating point; undefined unless it is a decimal from 0
 * to `maxUnits` with at most six decimals. A number is read as JavaScript writes it, so 1e-7 is refused
 * rather than rounded.
 */
export function parseCostMicros(value: unknown, maxUnits = maxCostUnits): number | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = /^(\d{1,10})(?:\.(\d{0,6}))?$|^\.(\d{1,6})$/.exec(text.trim());
  if (!match) return undefined;
  const micros = Number(match[1] ?? '0') * microsPerUnit + Number((match[2] ?? match[3] ?? '').padEnd(6, '0'));
  return micros <= maxUnits * microsPerUnit ? micros : undefined;
}

/** 12500000 → "12.50": at least two decimals, more only where the amount has them. */
export function formatCostMicros(micros: number): string {
  const whole = Math.floor(micros / microsPerUnit);
  const fraction = String(micros % microsPerUnit).padStart(6, '0').replace(/0{1,4}$/, '');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/** Three letters, as ISO 4217 writes a currency; given in any case, kept upper case. */
export function parseCurrency(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value.trim()) ? value.trim().toUpperCase() : undefined;
}

/**
 * A source, campaign or ad name as views record them: at most 100 characters, none of them a control
 * character, spaces around it dropped. Undefined when it is not one.
 */
export function parseCostName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return isCampaignValue(name) && !name.includes('\uFFFD') ? name : undefined;
}

/** A day a cost may be for: a real YYYY-MM-DD from 2000 on, no later than tomorrow (UTC), so a report from a time zone ahead of UTC still fits. */
export function costDayProblem(value: unknown, now: Date): string | undefined {
  if (typeof value !== 'string' || !isDay(value)) return 'day must be a real date written YYYY-MM-DD';
  if (value < firstReportDay) return `day must be ${firstReportDay} or later`;
  if (value > addDays(utcDay(now), 1)) return 'day must not be later than tomorrow (UTC)';
  return undefined;
}

export type ParsedCostRow = { row: CostRow; reason?: undefined } | { row?: undefined; reason: string };

/**
 * One row as scripts send it ({ day, source, campaign?, content?, cost, currency }) checked field by
 * field; the reason names the first field that is wrong and never quotes its value.
 */
export function parseCostRow(input: unknown, now: Date): ParsedCostRow {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { reason: 'row must be an object' };
  const fields = input as Record<string, unknown>;
  const dayProblem = costDayProblem(fields.day, now);
  if (dayProblem !== undefined) return { reason: dayProblem };
  const source = parseCostName(fields.source);
  if (source === undefined || source === '') return { reason: 'source must be text of 1 to 100 characters, without control characters' };
  const names: Record<'campaign' | 'content', string> = { campaign: '', content: '' };
  for (const name of ['campaign', 'content'] as const) {
    if (fields[name] === undefined || fields[name] === null) continue;
    const parsed = parseCostName(fields[name]);
    if (parsed === undefined) return { reason: `${name} must be text of at most 100 characters, without control characters` };
    names[name] = parsed;
  }
  const amountMicros = parseCostMicros(fields.cost);
  if (amountMicros === undefined) return { reason: `cost must be a decimal from 0 to ${maxCostUnits} with at most 6 decimals, such as "12.50"` };
  const currency = parseCurrency(fields.currency);
  if (currency === undefined) return { reason: 'currency must be three letters, such as USD' };
  return { row: { day: fields.day as string, source, ...names, amountMicros, currency } };
}
