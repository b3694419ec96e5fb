import { createContext, useContext } from 'react';
import type { HomeCopy } from './content/homeCopy';
import type { ShownVariant } from './experiments/experiment';

/** What a page render may depend on besides its route: the operator's configuration. */
export interface PageContextValue {
  /** Public origin without a trailing slash, for absolute canonical and Open Graph URLs. */
  siteUrl: string;
  /** The configured affiliate registration address. */
  affiliateUrl: string;
  /** When set, each affiliate link adds PARAM=placement so the network reports which button converts. */
  affiliateSubIdParam?: string;
  /**
   * Click counting (see shared/clickBeacon.ts, shared/viewBeacon.ts and shared/leaveBeacon.ts): where clicks,
   * page views and leave reports are reported, the sub-ID parameter the click reporter puts a click ID into (AFFILIATE_SUBID_PARAM), and
   * how long raw rows are kept; undefined when off.
   */
  clickCounting?: { endpoint: string; viewEndpoint: string; leaveEndpoint: string; subIdParam?: string; retentionDays: number };
  /** Where readers of the policies write to (CONTACT_EMAIL); undefined only on a non-https preview. */
  contactEmail?: string;
  /** The home page's words when an experiment's variant changes them (shared/experiments/); the content's own otherwise. */
  homeCopy?: HomeCopy;
  /** The variants this page shows, which its views and clicks report; none outside every experiment. */
  shown?: readonly ShownVariant[];
  /** Whether an experiment runs (the privacy policy then says that visitors may see different wording). */
  experimentsRunning?: boolean;
}

export const PageContext = createContext<PageContextValue | null>(null);

export function usePageContext(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error('usePageContext needs a PageContext provider (see server/render.tsx)');
  return value;
}
