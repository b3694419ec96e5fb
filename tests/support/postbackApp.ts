import type { Express } from 'express';
import request from 'supertest';
import { readConversionTotals } from '../../server/conversions/conversionStore';
import type { Engine } from '../../server/db/databaseSettings';
import type { Logger } from '../../server/lib/logger';
import { createStatsStores } from '../../server/statsStores';
import { openTestDatabase, type TestEngineDatabase } from './engines';
import { createTestApp } from './testApp';

/** The CONVERSIONS_KEY of the apps usePostbackApp makes, another key, and the network's address. */
export const key = 'c0nv3rs10ns-k3y-0123456789abcdef0123';
export const wrongKey = 'wr0ng-k3y-0123456789abcdef0123456789';
export const network = '203.0.113.50';

function capturingLogger() {
  const lines: string[] = [];
  const logger: Logger = { info: (line) => lines.push(line), warning: (line) => lines.push(line), error: (message, error) => lines.push(`${message} ${String(error)}`) };
  return { logger, lines };
}

export type Fields = Record<string, string | number>;
const query = (fields: Fields) => new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString();

/**
 * For each test, an app with CONVERSIONS_KEY on a fresh database of the engine (TRUST_PROXY=1, so
 * X-Forwarded-For names the sender), the lines it logs, and postbacks sent to it from the network's address.
 */
export function usePostbackApp(engine: Engine) {
  let opened: TestEngineDatabase;
  let app: Express;
  let logged: ReturnType<typeof capturingLogger>;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    logged = capturingLogger();
    const stores = createStatsStores(opened.database);
    app = await createTestApp({ CONVERSIONS_KEY: key, TRUST_PROXY: '1' }, { stores, logger: logged.logger });
  });
  afterEach(() => opened.close().catch(() => {}));

  const db = () => opened.database.db;
  return {
    get app() {
      return app;
    },
    get opened() {
      return opened;
    },
    get logged() {
      return logged;
    },
    db,
    conversions: () => db().selectFrom('conversions').selectAll().orderBy('id').execute(),
    events: () => db().selectFrom('conversion_events').select(['txid', 'status', 'outcome', 'via']).orderBy('id').execute(),
    totals: () => readConversionTotals(db()),
    get: (fields: Fields, from = network) => request(app).get(`/api/conversions?${query(fields)}`).set('X-Forwarded-For', from),
    postForm: (fields: Fields) => request(app).post('/api/conversions').set('X-Forwarded-For', network).type('form').send(query(fields)),
    postJson: (body: unknown, path = '/api/conversions') => request(app).post(path).set('X-Forwarded-For', network).send(body as object),
  };
}
