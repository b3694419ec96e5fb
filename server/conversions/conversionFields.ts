import { affiliatePlacements, placementCodes, readClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { experiments as contentExperiments } from '../../shared/content/experiments';
import { formatShown, readVariantSubId, type Experiment } from '../../shared/experiments/experiment';

/**
 * One conversion's fields, read and checked in one place for both ways in: the postback route and the
 * CSV import. Every message is one line that starts with the field's name and never repeats the value.
 */

export const conversionStatuses = ['sale', 'refund', 'chargeback'] as const;
export type ConversionStatus = (typeof conversionStatuses)[number];

/** The fields a report may carry, by our names (the route and the import map the networks' names onto them). */
export const conversionFieldNames = ['txid', 'subid', 'payout', 'currency', 'status'] as const;
export type ConversionFieldName = (typeof conversionFieldNames)[number];
export type ConversionFields = Partial<Record<ConversionFieldName, string>>;

export interface ConversionReport {
  /** The network's transaction ID. */
  txid: string;
  /** The sub-ID as sent; null when none was. */
  subid: string | null;
  /** The click ID the sub-ID carries; null when it carries none. */
  clickId: string | null;
  /** The placement the sub-ID names; null when it names none. */
  placement: AffiliatePlacement | null;
  /** The experiments' variants a sub-ID without JavaScript names (shared/experiments/experiment.ts), formatted; '' for none. */
  variants: string;
  /** Whole millionths of the currency unit; null when the network sent no payout. */
  payoutMicros: number | null;
  /** ISO 4217, upper case. */
  currency: string;
  status: ConversionStatus;
}

export interface FieldError {
  field: string;
  /** One line naming the field, e.g. "payout must be a decimal number ...". */
  message: string;
}

export type ParsedConversion = { report: ConversionReport; error?: undefined } | { report?: undefined; error: FieldError };

/** A network's own status names (lower case) and what they mean here, e.g. approved → sale, reversed → refund. */
export type StatusMap = ReadonlyMap<string, ConversionStatus>;

export const defaultCurrency = 'USD';
const maxTxidLength = 128;
/** The longest sub-ID the networks documented here pass back (Impact's SubId1, ShareASale's afftrack). */
const maxSubidLength = 255;
/** No one conversion pays more; it keeps every payout, and sums of millions of them, exact as JavaScript numbers. */
const maxPayout = 1_000_000;
const payoutDecimals = 6;
const microsPerUnit = 10 ** payoutDecimals;

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;
/** {ActionId}, [tid], !!transID!!, !!!clickRef!!!, #s2#, %SUBID%: a macro the network left unfilled. */
const unfilledMacro = /^(\{[^{}]*\}|\[[^[\]]*\]|!{2,3}[^!]*!{2,3}|#[^#]*#|%[^%]*%)$/;

/** ISO 4217 codes as this Node's ICU knows them (XXX and other non-currencies excluded). */
const currencyCodes = new Set(Intl.supportedValuesOf('currency'));

const fail = (field: string, message: string): ParsedConversion => ({ error: { field, message: `${field} ${message}` } });

export function parseConversion(fields: ConversionFields, statusMap: StatusMap = new Map(), experiments: readonly Experiment[] = contentExperiments): ParsedConversion {
  const txid = fields.txid?.trim() ?? '';
  if (txid === '') return fail('txid', "is required: the network's transaction ID");
  if (txid.length > maxTxidLength || controlCharacters.test(txid)) {
    return fail('txid', `must be at most ${maxTxidLength} characters without control characters`);
  }
  if (unfilledMacro.test(txid)) return fail('txid', 'is a macro the network did not fill in: check the macro name in the postback URL');

  const subid = fields.subid?.trim() || null;
  if (subid !== null && (subid.length > maxSubidLength || controlCharacters.test(subid))) {
    return fail('subid', `must be at most ${maxSubidLength} characters without control characters`);
  }

  const payout = fields.payout?.trim() ?? '';
  const payoutMicros = payout === '' ? null : parsePayoutMicros(payout);
  if (payoutMicros === undefined) {
    return fail('payout', `must be a decimal number from 0 to ${maxPayout} with at most ${payoutDecimals} decimal places, such as 12.50`);
  }

  const currency = fields.currency?.trim().toUpperCase() || defaultCurrency;
  if (!currencyCodes.has(currency)) return fail('currency', 'must be an ISO 4217 currency code such as USD or EUR');

  const statusName = fields.status?.trim().toLowerCase() || 'sale';
  const status = statusMap.get(statusName) ?? (conversionStatuses as readonly string[]).find((name) => name === statusName);
  if (!status) {
    return fail('status', 'must be sale, refund or chargeback, or a status the postback maps with sale_status, refund_status or chargeback_status');
  }

  return { report: { txid, subid, ...readSubid(subid, experiments), payoutMicros, currency, status: status as ConversionStatus } };
}

/**
 * What a sub-ID says: a click ID (a placement code and 20 random characters, shared/affiliate.ts) names
 * its click and placement (the click's row then says its variants); a bare placement name (a link
 * without JavaScript sends "hero") names the placement; on a page in an experiment a link without
 * JavaScript sends the placement's code and the variants (he9k3xqb, shared/experiments/experiment.ts).
 * All are matched without case, because ClickBank upper-cases its tracking IDs. Anything else is kept as
 * the sub-ID only: unattributed, never dropped.
 */
function readSubid(subid: string | null, experiments: readonly Experiment[]): Pick<ConversionReport, 'clickId' | 'placement' | 'variants'> {
  if (subid === null) return { clickId: null, placement: null, variants: '' };
  const click = readClickId(subid);
  if (click) return { ...click, variants: '' };
  const inExperiment = readVariantSubId(subid, experiments);
  if (inExperiment) {
    const placement = affiliatePlacements.find((name) => placementCodes[name] === inExperiment.placementCode);
    return { clickId: null, placement: placement ?? null, variants: formatShown(inExperiment.shown) };
  }
  const placement = affiliatePlacements.find((name) => name === subid.toLowerCase());
  return { clickId: null, placement: placement ?? null, variants: '' };
}

/** "12.5" → 12500000, without floating point; undefined when it is not a decimal from 0 to maxPayout. */
export function parsePayoutMicros(text: string): number | undefined {
  const match = /^(\d{1,7})(?:\.(\d{0,6}))?$|^\.(\d{1,6})$/.exec(text);
  if (!match) return undefined;
  const whole = Number(match[1] ?? '0');
  const fraction = Number((match[2] ?? match[3] ?? '').padEnd(payoutDecimals, '0'));
  const micros = whole * microsPerUnit + fraction;
  return micros <= maxPayout * microsPerUnit ? micros : undefined;
}

/** 12500000 → "12.50": at least two decimals, more only when the network sent them. */
export function formatPayout(micros: number): string {
  const whole = Math.floor(micros / microsPerUnit);
  const fraction = String(micros % microsPerUnit).padStart(payoutDecimals, '0').replace(/0{1,4}$/, '');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

export type StatusMapResult = { map: StatusMap; error?: undefined } | { map?: undefined; error: string };

/** One map from (network name, our status) pairs; the name of the first invalid or doubly-meant one otherwise. */
function buildStatusMap(entries: ReadonlyArray<readonly [string, ConversionStatus]>): { map: Map<string, ConversionStatus>; bad?: undefined } | { map?: undefined; bad: string } {
  const map = new Map<string, ConversionStatus>();
  for (const [name, status] of entries) {
    const key = name.trim().toLowerCase();
    if (key.length > 40 || controlCharacters.test(key) || (map.has(key) && map.get(key) !== status)) return { bad: status };
    if (key !== '') map.set(key, status);
  }
  return { map };
}

/**
 * A network's status names for each of ours, as the postback URL lists them (Keitaro's convention):
 * sale_status=approved,pending&refund_status=reversed. Names are matched without case.
 */
export function statusMapFromLists(lists: Partial<Record<ConversionStatus, string>>): StatusMapResult {
  const entries = conversionStatuses.flatMap((status) => (lists[status] ?? '').split(',').map((name) => [name, status] as const));
  const { map, bad } = buildStatusMap(entries);
  return map ? { map } : { error: `${bad}_status must list status names of at most 40 characters, separated by commas, that no other *_status list names` };
}

/** The import's --status-map "Locked=sale,Reversed=refund": the same map, written as pairs. */
export function statusMapFromPairs(pairs: string): StatusMapResult {
  const usage = '--status-map must be pairs such as "Locked=sale,Reversed=refund,Disputed=chargeback", each name given one meaning';
  const entries: Array<readonly [string, ConversionStatus]> = [];
  for (const pair of pairs.split(',').filter((text) => text.trim() !== '')) {
    const equals = pair.lastIndexOf('=');
    const status = pair.slice(equals + 1).trim().toLowerCase();
    if (equals <= 0 || pair.slice(0, equals).trim() === '' || !(conversionStatuses as readonly string[]).includes(status)) return { error: usage };
    entries.push([pair.slice(0, equals), status as ConversionStatus]);
  }
  const { map } = buildStatusMap(entries);
  return map ? { map } : { error: usage };
}
