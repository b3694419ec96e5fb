import type { Engine } from '../../server/db/databaseSettings';
import { createClickStore, type Click, type ClickStore } from '../../server/clicks/clickStore';
import type { ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore, type ConversionStore } from '../../server/conversions/conversionStore';
import { readFunnelReport, type FunnelReport } from '../../server/funnelReport/funnelReport';
import { createViewStore, type View, type ViewStore } from '../../server/views/viewStore';
import { newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { openTestDatabase, type TestEngineDatabase } from './engines';
import { conversion } from './storeRows';

/** Each source's figures summed over the days' source rows are the range's figures of that source. */
export function expectDaysToAddUp(report: FunnelReport): void {
  const summed = new Map<string, { visitors: number; clicks: number; clickers: number; conversions: number }>();
  for (const row of report.days.flatMap((entry) => entry.sources)) {
    const total = summed.get(row.source) ?? { visitors: 0, clicks: 0, clickers: 0, conversions: 0 };
    summed.set(row.source, { visitors: total.visitors + row.visitors, clicks: total.clicks + row.clicks, clickers: total.clickers + row.clickers, conversions: total.conversions + row.conversions });
  }
  expect(Object.fromEntries(summed)).toEqual(
    Object.fromEntries(report.sources.map(({ source, visitors, clicks, clickers, conversions }) => [source, { visitors, clicks, clickers, conversions }])),
  );
}

/** The utm_campaign and utm_content (the ad) of a visit's landing. */
export interface AdTags {
  campaign?: string;
  content?: string;
}

export interface FunnelRecording {
  /** The current test's database, and its click and conversion stores. */
  readonly opened: TestEngineDatabase;
  readonly clicks: ClickStore;
  readonly conversions: ConversionStore;
  read(from: string, to: string): Promise<FunnelReport>;
  view(at: string, visitor: string, source: string | null, page?: string, ad?: AdTags): Promise<unknown>;
  /** Records a click with a fresh click ID and resolves to that ID, for the conversion that names it. */
  click(at: string, placement: AffiliatePlacement, visitor: string, source: string | null, ad?: AdTags): Promise<string>;
  sale(at: string, fields: ConversionFields): Promise<unknown>;
}

/** A fresh database of the engine for each test, and views, clicks and sales recorded into it through the stores, for readFunnelReport to read. */
export function useFunnelRecording(engine: Engine): FunnelRecording {
  let opened: TestEngineDatabase;
  let clicks: ClickStore;
  let views: ViewStore;
  let conversions: ConversionStore;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    clicks = createClickStore(opened.database.db);
    views = createViewStore(opened.database.db);
    conversions = createConversionStore(opened.database.db);
  });
  afterEach(() => opened.close());
  return {
    get opened() {
      return opened;
    },
    get clicks() {
      return clicks;
    },
    get conversions() {
      return conversions;
    },
    read: (from, to) => readFunnelReport(opened.database.db, { from, to }),
    view: (at, visitor, source, page = '/', ad = {}) =>
      views.record({ at: new Date(at), page, referrerHost: null, source, medium: null, campaign: ad.campaign ?? null, content: ad.content ?? null, device: 'mobile', visitor } satisfies View),
    async click(at, placement, visitor, source, ad = {}) {
      const clickId = newClickId(placement);
      await clicks.record({ at: new Date(at), placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', clickId, source, campaign: ad.campaign ?? null, content: ad.content ?? null } satisfies Click);
      return clickId;
    },
    sale: (at, fields) => conversions.record(conversion(fields), 'postback', new Date(at)),
  };
}
