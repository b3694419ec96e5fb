import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

const click = (at: string, source: string): Click => ({ at: new Date(at), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: at, via: 'beacon', source });

describe.each(engines)('readFunnelReport daySourceDays on %s', (engine) => {
  let opened: TestEngineDatabase;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    const store = createClickStore(opened.database.db);
    // Three days with clicks, and an empty day between two of them.
    for (const [at, source] of [['2026-11-17T08:00:00Z', 'old'], ['2026-11-19T08:00:00Z', 'middle'], ['2026-11-20T08:00:00Z', 'new']] as const) {
      await store.record(click(at, source));
    }
  });
  afterEach(() => opened.close());

  const sourcesPerDay = async (daySourceDays?: number) =>
    (await readFunnelReport(opened.database.db, { from: '2026-11-16', to: '2026-11-20' }, { daySourceDays })).days.map((entry) => [entry.day, entry.sources.map((row) => row.source)]);

  it('lists every day’s sources unless told otherwise', async () => {
    expect(await sourcesPerDay()).toEqual([['2026-11-16', []], ['2026-11-17', ['old']], ['2026-11-18', []], ['2026-11-19', ['middle']], ['2026-11-20', ['new']]]);
  });

  it('lists sources for the newest days with anything in them only, counting days with nothing not at all', async () => {
    expect(await sourcesPerDay(2)).toEqual([['2026-11-16', []], ['2026-11-17', []], ['2026-11-18', []], ['2026-11-19', ['middle']], ['2026-11-20', ['new']]]);
  });

  it('keeps the range’s figures whatever the days listed', async () => {
    const all = await readFunnelReport(opened.database.db, { from: '2026-11-16', to: '2026-11-20' });
    const two = await readFunnelReport(opened.database.db, { from: '2026-11-16', to: '2026-11-20' }, { daySourceDays: 2 });
    expect({ ...two, days: two.days.map(({ sources: _, otherSources: __, ...rest }) => rest) }).toEqual({ ...all, days: all.days.map(({ sources: _, otherSources: __, ...rest }) => rest) });
  });
});
