import { dropTemplateDatabase, stopSharedCluster } from './postgres';

/** Drops the template database and stops the PostgreSQL cluster the global setup started, if it started one. */
export default async function globalTeardown(): Promise<void> {
  try {
    await dropTemplateDatabase();
  } finally {
    await stopSharedCluster();
  }
}
