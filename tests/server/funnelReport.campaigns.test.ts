import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { adValue, campaignParts, campaignValue, maxValuesPerDay, othersValue } from '../../server/dayCounts/dimensions';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

const now = new Date('2026-11-21T15:00:00Z');
const day = '2026-11-20';

interface Visit {
  visitor: string;
  source: string | null;
  campaign: string | null;
  content: string | null;
}

async function addViews(db: Kysely<Schema>, visits: Visit[]): Promise<void> {
  const values = visits.map((visit, index) => ({
    at: Date.parse(`${day}T10:00:00Z`) + index,
    day,
    page: '/',
    referrer_host: null,
    source: visit.source,
    medium: null,
    campaign: visit.campaign,
    content: visit.content,
    device: 'mobile',
    visitor: visit.visitor,
  }));
  for (let start = 0; start < values.length; start += 200) await db.insertInto('views').values(values.slice(start, start + 200)).execute();
}

async function addClicks(db: Kysely<Schema>, visits: Visit[]): Promise<void> {
  const values = visits.map((visit, index) => ({
    at: Date.parse(`${day}T11:00:00Z`) + index,
    day,
    placement: 'hero',
    page: '/',
    referrer_host: null,
    device: 'mobile',
    visitor: visit.visitor,
    via: 'beacon',
    source: visit.source,
    campaign: visit.campaign,
    content: visit.content,
  }));
  for (let start = 0; start < values.length; start += 200) await db.insertInto('clicks').values(values.slice(start, start + 200)).execute();
}

const visits: Visit[] = [
  { visitor: 'a', source: 'google', campaign: 'spring', content: 'banner-a' },
  { visitor: 'b', source: 'google', campaign: 'spring', content: 'banner-b' },
  { visitor: 'c', source: 'google', campaign: 'spring', content: null },
  { visitor: 'd', source: 'newsletter', campaign: 'spring', content: 'banner-a' },
  { visitor: 'e', source: 'google', campaign: null, content: null },
  { visitor: 'f', source: 'direct', campaign: null, content: 'orphan' },
];

const byValue = (rows: { value: string; views: number | string; visitors: number | string; clicks: number | string; clickers: number | string }[]) =>
  Object.fromEntries(rows.map((row) => [row.value, [Number(row.views), Number(row.visitors), Number(row.clicks), Number(row.clickers)]]));

const expectedCampaigns = {
  [campaignValue('google', 'spring')]: [3, 3, 3, 3],
  [campaignValue('newsletter', 'spring')]: [1, 1, 1, 1],
};
const expectedAds = {
  [adValue('google', 'spring', 'banner-a')]: [1, 1, 1, 1],
  [adValue('google', 'spring', 'banner-b')]: [1, 1, 1, 1],
  [adValue('newsletter', 'spring', 'banner-a')]: [1, 1, 1, 1],
  [adValue('direct', '', 'orphan')]: [1, 1, 0, 0],
};

describe('campaign and ad values', () => {
  it('join source, campaign and content with a control character no recorded value has, and split back', () => {
    expect(campaignParts(campaignValue('google', 'spring'))).toEqual(['google', 'spring']);
    expect(campaignParts(adValue(null, 'spring', 'banner-a'))).toEqual(['', 'spring', 'banner-a']);
    expect(campaignValue('a', 'b')).not.toBe(campaignValue('a\u001fb', ''));
  });
});

describe.each(engines)('campaigns and ads as dimensions on %s', (engine) => {
  let opened: TestEngineDatabase;
  const db = () => opened.database.db;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
  });
  afterEach(() => opened.close());

  const closedRows = (dimension: string) =>
    db().selectFrom('daily_counts').where('day', '=', day).where('dimension', '=', dimension).select(['value', 'views', 'visitors', 'clicks', 'clickers', 'distinct_values']).execute();

  it('counts views and clicks under their campaign and ad on an open day, and the same once the day is closed', async () => {
    await addViews(db(), visits);
    // Visitors a, b, c and d click: each click carries its visit's source, campaign and content.
    await addClicks(db(), visits.filter((visit) => ['a', 'b', 'c', 'd'].includes(visit.visitor)));
    const open = await readRawDayCounts(db(), day);
    expect(byValue(open.get('campaign')!)).toEqual(expectedCampaigns);
    expect(byValue(open.get('ad')!)).toEqual(expectedAds);

    await closeFinishedDays(db(), (closing) => readRawDayCounts(db(), closing), now);
    expect(byValue(await closedRows('campaign'))).toEqual(expectedCampaigns);
    expect(byValue(await closedRows('ad'))).toEqual(expectedAds);
    // The source dimension is unchanged by the new ones.
    expect(byValue(await closedRows('source'))[`google`]).toEqual([4, 4, 3, 3]);
  });

  it(`keeps at most ${maxValuesPerDay} campaigns and ads a day, the rest in one row, with a flood of 2,000 distinct ones`, async () => {
    const flood = Array.from({ length: 2000 }, (_, index) => ({ visitor: `v${index}`, source: 'spam', campaign: `c${index}`, content: `ad${index}` }));
    await addViews(db(), flood);
    const open = await readRawDayCounts(db(), day);
    for (const dimension of ['campaign', 'ad'] as const) {
      const rows = open.get(dimension)!;
      expect(rows).toHaveLength(maxValuesPerDay + 1);
      expect(rows.at(-1)).toMatchObject({ value: othersValue, views: 2000 - maxValuesPerDay, distinctValues: 2000 - maxValuesPerDay });
    }

    await closeFinishedDays(db(), (closing) => readRawDayCounts(db(), closing), now);
    for (const dimension of ['campaign', 'ad']) {
      const rows = await closedRows(dimension);
      expect(rows).toHaveLength(maxValuesPerDay + 1);
      expect(rows.reduce((total, row) => total + Number(row.views), 0)).toBe(2000);
      expect(rows.find((row) => row.value === othersValue)).toMatchObject({ distinct_values: expect.anything() });
      expect(Number(rows.find((row) => row.value === othersValue)!.distinct_values)).toBe(2000 - maxValuesPerDay);
    }
  }, 60_000);
});
