import type { Claim } from '../../shared/content/claimTypes';
import type { ClaimStore } from './claimStore';
import { decidingItem, withStaleness, type ClaimVerdict } from './claimVerdict';

/** One claim as /admin shows it: plain data, so it crosses to the report worker as it is. */
export interface ClaimOverview {
  id: string;
  says: string;
  /** Unknown (never checked) when the watch has no state for it. */
  verdict: ClaimVerdict;
  checkedAt?: number;
  verifiedAt?: number;
  /** The page of the deciding item, and what it says there (the excerpt, or why there is none). */
  url?: string;
  excerpt?: string;
}

export interface ClaimsOverview {
  claims: ClaimOverview[];
  /** Why the server does not check them, when it does not (claimsCheckOff). */
  off?: string;
}

/** Each claim's last state from the store, its staleness reckoned at now: a read of one row per claim. */
export async function readClaimsOverview(store: ClaimStore, claims: readonly Claim[], now: number, off?: string): Promise<ClaimsOverview> {
  const states = await store.states();
  return {
    claims: claims.map((claim): ClaimOverview => {
      const state = states.get(claim.id);
      if (!state) return { id: claim.id, says: claim.says, verdict: 'unknown' };
      const deciding = decidingItem(state.items);
      const excerpt = deciding?.excerpt ?? deciding?.reason;
      return {
        id: claim.id,
        says: claim.says,
        verdict: withStaleness(state.verdict, { lastVerifiedAt: state.verifiedAt, firstCheckedAt: state.firstCheckedAt, now, maxAgeDays: claim.maxAgeDays }),
        checkedAt: state.checkedAt,
        ...(state.verifiedAt === undefined ? {} : { verifiedAt: state.verifiedAt }),
        ...(deciding ? { url: deciding.url } : {}),
        ...(excerpt === undefined ? {} : { excerpt }),
      };
    }),
    ...(off === undefined ? {} : { off }),
  };
}
