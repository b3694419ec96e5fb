import type { Engine } from '../../server/db/databaseSettings';
import type { LinkMonitor } from '../../server/linkHealth/linkMonitor';
import { createStatsStores } from '../../server/statsStores';
import { openTestDatabase } from './engines';
import { createTestApp } from './testApp';

/** The ADMIN_TOKEN of the apps openAdminApp makes. */
export const adminToken = 'test-admin-token-0123456789abcdef';
/** An Authorization header of HTTP Basic credentials: any user name, the given password. */
export const basicAuth = (password: string) => `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;

/** An app with ADMIN_TOKEN on a fresh database of the engine (SQLite unless named), showing the link checks of the monitor given. */
export async function openAdminApp(options: { linkHealth?: LinkMonitor; engine?: Engine } = {}) {
  const store = await openTestDatabase(options.engine ?? 'sqlite');
  const monitor = options.linkHealth;
  const app = await createTestApp(
    { ADMIN_TOKEN: adminToken },
    { stores: createStatsStores(store.database), linkHealth: monitor && (() => monitor.state()) },
  );
  return { store, app };
}
