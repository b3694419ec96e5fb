import { build } from '../../build';
import { startSharedCluster, stopSharedCluster } from './postgres';

/**
 * Builds the client once for the whole run (server tests read its manifest, browser tests load its files)
 * and, unless TEST_DATABASE_URL names a server, starts one throwaway PostgreSQL cluster whose URL the
 * test files find in TEST_DATABASE_URL. Both at once: the cluster starts while esbuild works.
 */
export default async function globalSetup(): Promise<void> {
  const [built, cluster] = await Promise.allSettled([build(), startSharedCluster()]);
  // jest runs no global teardown when the setup fails, so a cluster that did start is stopped here.
  if (built.status === 'rejected') {
    await stopSharedCluster();
    throw built.reason;
  }
  if (cluster.status === 'rejected') throw cluster.reason;
}
