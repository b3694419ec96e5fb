import BetterSqlite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { keepingStatements } from '../../server/db/keptStatements';

/** The SQLite connection that keeps its prepared statements (server/db/keptStatements.ts). */
describe('keepingStatements', () => {
  function open(limit?: number) {
    const database = new BetterSqlite(':memory:');
    const prepared: string[] = [];
    const prepare = database.prepare.bind(database);
    database.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof database.prepare;
    return { database, prepared, kept: keepingStatements(database, limit) };
  }

  it('prepares a statement once and runs it again with new parameters', () => {
    const { kept, prepared } = open();
    expect(kept.prepare('select ? + 1 as n').all([1])).toEqual([{ n: 2 }]);
    expect(kept.prepare('select ? + 1 as n').all([41])).toEqual([{ n: 42 }]);
    expect(prepared).toEqual(['select ? + 1 as n']);
  });

  it('keeps at most its limit, dropping the least recently used', () => {
    const { kept, prepared } = open(2);
    for (const source of ['select 1', 'select 2', 'select 1', 'select 3', 'select 1', 'select 2']) kept.prepare(source).all([]);
    // select 2 was the least recently used when select 3 came, so it is prepared again; select 1 never is.
    expect(prepared).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
  });

  it('answers as before after the schema changes under a kept statement', async () => {
    const { kept } = open();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: kept }) });
    await sql`create table t (a integer)`.execute(db);
    await sql`insert into t (a) values (1)`.execute(db);
    expect((await sql`select * from t`.execute(db)).rows).toEqual([{ a: 1 }]);
    await sql`alter table t add column b integer default 7`.execute(db);
    expect((await sql`select * from t`.execute(db)).rows).toEqual([{ a: 1, b: 7 }]);
    // A transaction's begin and commit are kept statements too.
    await db.transaction().execute(async (trx) => sql`insert into t (a) values (2)`.execute(trx));
    await db.transaction().execute(async (trx) => sql`insert into t (a) values (3)`.execute(trx));
    expect((await sql`select count(*) as n from t`.execute(db)).rows).toEqual([{ n: 3 }]);
    await db.destroy();
  });
});
