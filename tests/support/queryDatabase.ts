import { Client } from 'pg';

/**
 * Runs one query on a connection of its own and closes it: for tests that read what server processes
 * wrote, and that must survive the database being stopped and started between two reads.
 */
export async function queryDatabase<Row extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  // A server that goes down under the query (a test's PANIC) ends the connection: the query's promise
  // rejects with that, and the client's 'error' event, with no listener, would end the test process.
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}
