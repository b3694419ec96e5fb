import { stopSharedCluster } from './postgres';

/** Stops the PostgreSQL cluster the global setup started, if it started one. */
export default async function globalTeardown(): Promise<void> {
  await stopSharedCluster();
}
