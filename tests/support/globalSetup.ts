import { build, buildIsFresh } from '../../build';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { prepareTemplateDatabase, startSharedCluster, stopSharedCluster } from './postgres';

/** Opens a PostgreSQL database as the server does, which brings it to the current schema, and closes it. */
async function migrate(url: string): Promise<void> {
  await (await openDatabase({ engine: 'postgres', url }, { logger: silentLogger })).close();
}

/**
 * Builds the client once for the whole run (server tests read its manifest, browser tests load its files),
 * unless dist/ was built from the sources as they are (its stamp, as `npm start` checks: a run again after
 * a change to tests only, or each run of `npm run test:repeat`, builds nothing). Unless TEST_DATABASE_URL
 * names a server, starts one throwaway PostgreSQL cluster whose URL the test files find in TEST_DATABASE_URL;
 * on either, makes a database at the current schema that the tests' migrated databases copy
 * (prepareTemplateDatabase). Both at once: the cluster starts while esbuild works.
 */
export default async function globalSetup(): Promise<void> {
  const [built, cluster] = await Promise.allSettled([
    buildIsFresh() ? Promise.resolve() : build(),
    startSharedCluster().then(() => prepareTemplateDatabase(migrate)),
  ]);
  // jest runs no global teardown when the setup fails, so a cluster that did start is stopped here.
  if (built.status === 'rejected') {
    await stopSharedCluster();
    throw built.reason;
  }
  if (cluster.status === 'rejected') {
    await stopSharedCluster();
    throw cluster.reason;
  }
}
