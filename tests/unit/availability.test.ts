import { createAvailability, recoveryQuietMs, type DatabaseOperation } from '../../server/db/availability';
import { operationOf } from '../../server/db/availabilityDialect';
import { CompiledQuery } from 'kysely';

/** A logger that keeps its lines. */
function lines() {
  const logged: string[] = [];
  const keep = (level: string) => (message: string) => logged.push(`${level} ${message}`);
  return { logged, logger: { info: keep('info'), warning: keep('warning'), error: keep('error') } };
}

/** Runs operations through watch(): each succeeds or fails as told. */
async function run(availability: ReturnType<typeof createAvailability>, steps: readonly [DatabaseOperation, 'ok' | 'fail'][]) {
  for (const [kind, outcome] of steps) {
    await availability.watch(outcome === 'ok' ? Promise.resolve() : Promise.reject(new Error('SQLITE_FULL: database or disk is full')), kind).catch(() => undefined);
  }
}

describe('one line per outage', () => {
  it('logs a full disk once and its end once, though connections and reads go on succeeding in between', async () => {
    const { logged, logger } = lines();
    let clock = 0;
    const availability = createAvailability('CLICKS_DB x.sqlite', logger, () => clock);
    availability.opened();
    // 700 refused reports: each takes a connection (fine), reads (fine) and fails to write.
    for (let i = 0; i < 700; i++) await run(availability, [['connect', 'ok'], ['read', 'ok'], ['write', 'fail']]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^error the database stopped answering \(CLICKS_DB x\.sqlite\): .*disk is full/);
    expect(availability.available).toBe(false);
    // A write that still fits succeeds now and then between the refused ones: not the end of the outage.
    clock = 1_000;
    await run(availability, [['write', 'ok'], ['write', 'fail'], ['write', 'ok']]);
    expect(logged).toHaveLength(1);
    // Freed: the first write answered recoveryQuietMs after the last failure ends it, once.
    clock = 1_000 + recoveryQuietMs - 1;
    await run(availability, [['connect', 'ok'], ['read', 'ok'], ['write', 'ok']]);
    expect(availability.available).toBe(false);
    clock = 15_000;
    await run(availability, [['write', 'ok'], ['write', 'ok']]);
    expect(logged.slice(1)).toEqual(['info the database answers again (CLICKS_DB x.sqlite) after 15 s; counting resumed']);
    expect(availability.available).toBe(true);
  });

  it('ends an outage that began elsewhere (a refused connection) at the first answered read, never at a connection alone', async () => {
    const { logged, logger } = lines();
    let clock = 0;
    const availability = createAvailability('DATABASE_URL', logger, () => clock);
    availability.opened();
    await run(availability, [['connect', 'fail'], ['connect', 'fail'], ['connect', 'ok']]);
    expect(availability.available).toBe(false);
    clock = recoveryQuietMs;
    await run(availability, [['read', 'ok']]);
    expect(availability.available).toBe(true);
    expect(logged.map((line) => line.split(' ')[0])).toEqual(['error', 'info']);
  });

  it('tells writes from reads by their statement', () => {
    const kind = (text: string) => operationOf(CompiledQuery.raw(text));
    expect(['insert into clicks values (1)', '  UPDATE x set a = 1', 'delete from views', 'create table t (a int)', 'with moved as (delete from a returning *) insert into b select * from moved'].map(kind)).toEqual(['write', 'write', 'write', 'write', 'write']);
    expect(['select 1', 'select * from clicks where day > ?', 'pragma integrity_check', 'with recent as (select 1) select * from recent'].map(kind)).toEqual(['read', 'read', 'read', 'read']);
  });
});
