import { Client } from 'pg';

/**
 * Runs one query on a connection of its own and closes it: for tests that read what server processes
 * wrote, and that must survive the database being stopped and started between two reads.
 */
export async function queryDatabase<Row extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}
