import type { Click } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields, type ConversionReport } from '../../server/conversions/conversionFields';
import type { View } from '../../server/views/viewStore';

/** A click as the click store takes it: the hero's, on 2026-11-20 at noon, by visitor v1; overrides change any field. */
export function click(overrides: Partial<Click> = {}): Click {
  return { at: new Date('2026-11-20T12:00:00Z'), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'v1', via: 'beacon', ...overrides };
}

/** A page view as the view store takes it, at the same moment by the same visitor, a direct visit. */
export function view(overrides: Partial<View> = {}): View {
  return { at: new Date('2026-11-20T12:00:00Z'), page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: 'v1', ...overrides };
}

/** A network's report of a conversion, as the conversion store takes it once a postback's fields are read; throws if they are not valid. */
export function conversion(fields: ConversionFields): ConversionReport {
  const parsed = parseConversion(fields);
  if (parsed.error) throw new Error(parsed.error.message);
  return parsed.report;
}
