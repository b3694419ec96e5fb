import { createVisitorHasher, forgetOldSalts, saltFor } from '../../server/beacons/visitorSalts';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { engines, useTestDatabase } from '../support/engines';

const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const windowsChrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.each(engines)('on %s', (engine) => {
  const { db } = useTestDatabase(engine);

  describe('the daily visitor salt', () => {
    it('is the same for every caller on one day and different the next', async () => {
      const [first, second] = await Promise.all([saltFor(db(), '2026-11-20'), saltFor(db(), '2026-11-20')]);
      expect(first.equals(second)).toBe(true);
      expect(first).toHaveLength(32);
      expect((await saltFor(db(), '2026-11-21')).equals(first)).toBe(false);
    });

    it('gives two hashers (two instances) the same hash for one visitor, and another one the next day', async () => {
      let now = new Date('2026-11-20T10:00:00Z');
      const one = createVisitorHasher(db(), () => now);
      const two = createVisitorHasher(db(), () => now);
      const hash = await one('203.0.113.9', 'Mozilla/5.0');
      expect(await two('203.0.113.9', 'Mozilla/5.0')).toBe(hash);
      expect(await two('203.0.113.10', 'Mozilla/5.0')).not.toBe(hash);
      now = new Date('2026-11-21T00:00:01Z');
      expect(await one('203.0.113.9', 'Mozilla/5.0')).not.toBe(hash);
    });

    it('is deleted once older than yesterday, so hashes can never be recomputed', async () => {
      for (const day of ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']) await saltFor(db(), day);
      await forgetOldSalts(db(), new Date('2026-11-21T00:10:00Z'));
      expect(await db().selectFrom('visitor_salts').select('day').orderBy('day').execute()).toEqual([{ day: '2026-11-20' }, { day: '2026-11-21' }]);
    });
  });
});

describe('createVisitorHasher', () => {
  // The salt itself, shared by instances through the database, is tested on both engines above.
  let database: AppDatabase;
  beforeEach(async () => {
    database = await openDatabase({ engine: 'sqlite', file: ':memory:' }, { logger: silentLogger });
  });
  afterEach(() => database.close());

  it('gives the same visitor the same hash within a day, and different visitors different hashes', async () => {
    const hash = createVisitorHasher(database.db, () => new Date('2026-11-21T10:00:00Z'));
    expect(await hash('203.0.113.7', iphone)).toBe(await hash('203.0.113.7', iphone));
    expect(await hash('203.0.113.7', iphone)).not.toBe(await hash('203.0.113.8', iphone));
    expect(await hash('203.0.113.7', iphone)).not.toBe(await hash('203.0.113.7', windowsChrome));
  });

  it('changes every hash at UTC midnight, when the day has a new salt', async () => {
    let now = new Date('2026-11-21T23:59:59Z');
    const hash = createVisitorHasher(database.db, () => now);
    const before = await hash('203.0.113.7', iphone);
    now = new Date('2026-11-22T00:00:01Z');
    expect(await hash('203.0.113.7', iphone)).not.toBe(before);
  });

  it('is the same for a restarted process on the same day, since the salt is kept in the database', async () => {
    const day = () => new Date('2026-11-21T10:00:00Z');
    expect(await createVisitorHasher(database.db, day)('203.0.113.7', iphone)).toBe(await createVisitorHasher(database.db, day)('203.0.113.7', iphone));
  });

  it('contains neither the IP address nor the user agent', async () => {
    const hashed = await createVisitorHasher(database.db)('203.0.113.7', iphone);
    expect(hashed).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(hashed).not.toContain('203');
  });
});
