import type { Kysely } from 'kysely';
import { utcDay } from '../lib/utcDay';
import type { Schema } from '../db/schema';

import type { DeviceClass } from '../beacons/requestKind';
/** How the click reached us: JavaScript's sendBeacon, or the link's own ping attribute without it. */
export type ClickChannel = 'beacon' | 'ping';

export interface Click {
  at: Date;
  placement: string;
  page: string;
  referrerHost: string | null;
  device: DeviceClass;
  visitor: string;
  via: ClickChannel;
  /** The click ID put into the sub-ID (shared/affiliate.ts), lower case; absent or null without one. */
  clickId?: string | null;
  /** What brought the visitor (see shared/trafficSource.ts); absent or null when not known. */
  source?: string | null;
  /** utm_campaign and utm_content (the ad) of the visit's landing; absent or null when none or not known. */
  campaign?: string | null;
  content?: string | null;
  /** The experiments' variants the page showed (shared/experiments/experiment.ts, formatShown); absent or '' for none. */
  variants?: string;
}

export interface ClickStore {
  /**
   * Writes one click; when the promise resolves, the click is committed. Resolves to false, writing
   * nothing, when its click ID is already recorded (a replayed report, on whichever instance): a click
   * ID is counted once. A click without a click ID is always written.
   */
  record(click: Click): Promise<boolean>;
}

/** The clicks table of either engine. The database is opened and closed by whoever made it (server/main.ts). */
export function createClickStore(db: Kysely<Schema>): ClickStore {
  return {
    async record(click) {
      const inserted = await db
        .insertInto('clicks')
        .values({
          at: click.at.getTime(),
          day: utcDay(click.at),
          placement: click.placement,
          page: click.page,
          referrer_host: click.referrerHost,
          device: click.device,
          visitor: click.visitor,
          via: click.via,
          click_id: click.clickId ?? null,
          source: click.source ?? null,
          campaign: click.campaign ?? null,
          content: click.content ?? null,
          variants: click.variants ?? '',
        })
        // The unique index on click_id (migration 6) decides, so instances sharing PostgreSQL agree.
        .onConflict((conflict) => conflict.column('click_id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
