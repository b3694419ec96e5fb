import type { Kysely } from 'kysely';
import { utcDay } from '../lib/utcDay';
import type { DeviceClass } from '../beacons/requestKind';
import type { Schema } from '../db/schema';

export interface View {
  at: Date;
  page: string;
  referrerHost: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  /** utm_content (the ad); null when none. */
  content?: string | null;
  device: DeviceClass;
  visitor: string;
  /** The experiments' variants the page showed (shared/experiments/experiment.ts, formatShown); absent or '' for none. */
  variants?: string;
}

export interface ViewStore {
  /** Writes one page view; when the promise resolves, it is committed. */
  record(view: View): Promise<void>;
}

/** The views table of either engine. */
export function createViewStore(db: Kysely<Schema>): ViewStore {
  return {
    async record(view) {
      await db
        .insertInto('views')
        .values({
          at: view.at.getTime(),
          day: utcDay(view.at),
          page: view.page,
          referrer_host: view.referrerHost,
          source: view.source,
          medium: view.medium,
          campaign: view.campaign,
          content: view.content ?? null,
          device: view.device,
          visitor: view.visitor,
          variants: view.variants ?? '',
        })
        .execute();
    },
  };
}
