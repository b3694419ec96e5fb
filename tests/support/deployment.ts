import { startListeningMain, stopMain, type ListeningMain } from './listeningMain';
import { freePort } from './mainProcess';
import { startNginx, type RunningNginx } from './nginx';
import { createTestDatabase, type TestDatabase } from './postgres';

/**
 * A deployment of several instances for browser tests: one fresh PostgreSQL database, two built app
 * processes and nginx round-robin in front, all on loopback (tests/e2e/severalInstances.test.ts,
 * tests/e2e/experiments.test.ts).
 */

export const adminToken = 'several-instances-admin-token-0123456789';
/** Unreachable here (no network): a partner tab fails to load; only the click report matters. */
export const affiliateUrl = 'https://partner.example.net/join?aff=guide';
/** Headless Chromium names itself in its user agent and is (rightly) not counted; these tests play a person. */
export const personUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

export interface Deployment {
  database: TestDatabase;
  nginx: RunningNginx;
  /** Sorted by port. */
  instances: ListeningMain[];
}

export type OnCleanup = (step: () => Promise<unknown>) => void;

/**
 * Everything a describe starts, undone in reverse order in its afterAll: registered as soon as each
 * piece exists, so a start that fails half-way still leaves nothing running.
 */
export function useCleanup(): OnCleanup {
  const steps: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    const failures: unknown[] = [];
    for (const step of steps.reverse()) {
      await step().catch((error: unknown) => failures.push(error));
    }
    steps.length = 0;
    if (failures.length > 0) throw new AggregateError(failures, 'cleaning up failed');
  }, 60_000);
  return (step) => void steps.push(step);
}

/**
 * A fresh database, nginx on a free port, and two instances on it behind nginx (nginx is started first
 * because the instances need its address as SITE_URL; it only connects to them when asked). `env` is
 * added to (or overrides) the instances' settings.
 */
export async function deploy(onCleanup: OnCleanup, env: Record<string, string>): Promise<Deployment> {
  const database = await createTestDatabase();
  onCleanup(() => database.drop());
  const ports = [await freePort(), await freePort()];
  const nginx = await startNginx({ upstreams: ports });
  onCleanup(() => nginx.stop());
  const instances: ListeningMain[] = [];
  onCleanup(() => Promise.all(instances.map((instance) => stopMain(instance))));
  // Both at once: the schema steps run under PostgreSQL's advisory lock, so the second waits for the first.
  // allSettled, so an instance still starting when the other fails is registered for cleanup too.
  const starts = await Promise.allSettled(
    ports.map(async (port) => {
      const instance = await startListeningMain({
        DATABASE_URL: database.url,
        PORT: String(port),
        TRUST_PROXY: '1',
        SITE_URL: nginx.url,
        CLICK_STATS: 'on',
        ADMIN_TOKEN: adminToken,
        AFFILIATE_URL: affiliateUrl,
        ...env,
      });
      instances.push(instance);
    }),
  );
  const failed = starts.find((start) => start.status === 'rejected');
  if (failed) throw failed.reason;
  instances.sort((a, b) => a.port - b.port);
  return { database, nginx, instances };
}
