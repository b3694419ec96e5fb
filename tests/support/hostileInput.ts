import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { createStatsStores } from '../../server/statsStores';
import { createHttpServer } from '../../server/httpServer';
import type { Logger } from '../../server/lib/logger';
import type { TestEngineDatabase } from './engines';
import { createTestApp } from './testApp';
import { postgresWork, processWork, type WorkClock } from './workTime';

/**
 * Whatever anyone sends to what the site takes from outside (/admin, npm run stats, /api/conversions and
 * both beacons), it answers: never a 5xx, never a crash, each answer within 1 s of work (issue 16). fast-check
 * draws the requests. When a property fails it prints the smallest failing case and how to replay it,
 * `{ seed: -1734414438, path: "8:24:0", endOnFailure: true }`: pass those as the second argument of that
 * property's fc.assert (with its numRuns) to run exactly that case again. Runs are few on purpose, so the
 * files (tests/server/*.hostileInput.test.ts) take seconds; the raw-socket hostile requests (traversal, framing,
 * odd methods) are in app.hostileRequests.test.ts. What those files share is here.
 */

/**
 * The issue's bound on every answer, held on the CPU time the answer costs (tests/support/workTime.ts): the
 * app's process and, on PostgreSQL, the database's backends. On a machine of its own that is the time the
 * answer takes; on a busy one the wall time also holds the waits for a core, which are not the code's.
 */
export const answerWithinMs = 1000;
/**
 * A request that has not been answered by then fails its property as a hang (fast-check's own timeout), with a
 * seed. Wall time: a hang costs no work. Ten times the bound, so a loaded machine's waits never reach it.
 */
export const hangMs = 10 * answerWithinMs;
export const siteOrigin = 'http://127.0.0.1';

/** A logger that keeps what the app logs as an error: a 500 from the app's error handler always logs one. */
function errorRecordingLogger(): { logger: Logger; errors: string[] } {
  const errors: string[] = [];
  return { logger: { info: () => {}, warning: () => {}, error: (message, error) => errors.push(`${message} ${String(error)}`) }, errors };
}

export interface Listening {
  url: string;
  errors: string[];
  /** What the app's answers cost: this process's CPU time, and its database's backends' on PostgreSQL. */
  work: WorkClock;
  close(): Promise<void>;
}

/** The app on the given database behind the real HTTP server (its timeouts included), on an ephemeral loopback port. */
export async function listen(database: TestEngineDatabase, env: Record<string, string>): Promise<Listening> {
  const { logger, errors } = errorRecordingLogger();
  const app = await createTestApp({ SITE_URL: siteOrigin, ...env }, { stores: createStatsStores(database.database), logger });
  const server: Server = createHttpServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const work = database.url === undefined ? processWork : await postgresWork(database.url);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    errors,
    work,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await work.close();
    },
  };
}

/**
 * Sends the request to the server and checks the answer: a status below 500, for at most answerWithinMs of
 * work. A body over the route's limit is refused before it is read and the connection closed, so a client
 * still writing it may see the connection reset instead of the answer: allowed only for such a body (`oversize`).
 */
export async function answered(server: Listening, pending: request.Test, { oversize = false } = {}): Promise<request.Response | 'reset'> {
  const started = await server.work.read();
  let response: request.Response;
  try {
    response = await pending;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (oversize && (code === 'ECONNRESET' || code === 'EPIPE')) return 'reset';
    throw error;
  }
  const ms = (await server.work.read()) - started;
  if (response.status >= 500) throw new Error(`answered ${response.status}: ${response.text.slice(0, 300)}`);
  if (ms >= answerWithinMs) throw new Error(`answered ${response.status} for ${Math.round(ms)} ms of work`);
  return response;
}

/** answered, for requests whose body is within every limit: an answer is required. */
export async function answer(server: Listening, pending: request.Test): Promise<request.Response> {
  return (await answered(server, pending)) as request.Response;
}

/** After a property: the app logged no failure and still answers. */
export async function expectStillServing(server: Listening): Promise<void> {
  expect(server.errors).toEqual([]);
  await answer(server, request(server.url).get('/healthz').expect(200));
}

/** Characters a client can put in a header value (Node refuses the rest before sending): tab, printable ASCII and Latin-1. */
export const headerText = (maxLength = 60) =>
  fc.string({ unit: fc.integer({ min: 0x09, max: 0xff }).filter((code) => code === 0x09 || (code >= 0x20 && code !== 0x7f)).map((code) => String.fromCharCode(code)), maxLength });

/** Every byte value percent-encoded, as a client that escapes nothing of its own would send it. */
const percentEncodedBytes = fc.uint8Array({ maxLength: 40 }).map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''));

/** Dates and day counts of every shape: in and near the span, far outside it, leap days, signs, non-dates. */
export const dayText = fc.oneof(
  { arbitrary: fc.date({ min: new Date('1999-01-01T00:00:00Z'), max: new Date('2101-12-31T23:59:59Z'), noInvalidDate: true }).map((at) => at.toISOString().slice(0, 10)), weight: 6 },
  fc.date({ noInvalidDate: true }).map((at) => at.toISOString().slice(0, 10)),
  fc.integer({ min: 1990, max: 2110 }).map((year) => `${year}-02-29`),
  fc.constantFrom('9999-12-31', '9999-12-25', '0000-01-01', '0000-12-31', '+010000-01-01', '-000001-01-01', '2000-01-01', '2100-12-31', '1999-12-31', '2101-01-01', '2026-02-30', '2026-13-01', '2026-1-1', ' 2026-01-01', '2026-01-01T00:00:00Z', '20260101', 'today', ''),
);
export const dayCountText = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 3700 }).map(String), weight: 4 },
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.stringMatching(/^0{0,30}\d{1,6}$/),
  fc.constantFrom('0', '3660', '3661', '-1', '+7', '7.0', '1e3', '0x10', 'NaN', 'Infinity', '١٢', '7 ', ''),
);
export const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('%', '%%', '%zz', '%00', '%ff%fe', '%ED%A0%80', '%E2%80%AE', '<script>alert(1)</script>', '../../etc/passwd', '__proto__', 'constructor', '\u0000', '\r\n'),
  fc.nat({ max: 12_000 }).map((length) => 'x'.repeat(length)),
);

/** One query parameter's value as sent: as is (the client escapes only what it must), escaped, or escaped twice. */
const sentValue = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    value,
    value.map(encodeURIComponent),
    value.map((text) => encodeURIComponent(encodeURIComponent(text))),
    percentEncodedBytes,
  );

/** A query string of the names given (and others, and repeated, and in array or object form) with hostile values. */
export function queryString(names: readonly string[], value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...names), weight: 6 },
    fc.constantFrom(...names).map((known) => `${known}[]`),
    fc.constantFrom(...names).map((known) => `${known}[0]`),
    fc.constantFrom(...names).map((known) => known.toUpperCase()),
    fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', '', '&', '='),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const parameter = fc.oneof(
    { arbitrary: fc.tuple(name, sentValue(value)).map(([key, text]) => `${key}=${text}`), weight: 8 },
    name,
    sentValue(hostileText),
  );
  return fc.tuple(fc.array(parameter, { maxLength: 8 }), fc.constantFrom('&', '&&', ';')).map(([parameters, separator]) => parameters.join(separator));
}
