/**
 * The leave report's wire format (issue 29): one per page view, sent when the visitor leaves the page,
 * hides it, or goes on to another page in place. It tells how far down the page the visitor got, which
 * affiliate placements they saw and how long they read, sent by client/leaveReporter.ts to
 * server/leaves/leaveRoute.ts. The visitor is known as for the view itself: by the server's daily hash.
 */
export const leaveEndpoint = '/api/leaves';

export const leaveBeaconLimits = {
  /** A page, its variants and a few dozen section ids and placement names. */
  maxBytes: 2048,
  /**
   * Engaged time is counted up to 30 minutes a view: longer is a tab left open beside other work, not
   * reading, and one such view must not move a page's figures.
   */
  maxEngagedSeconds: 1800,
  /**
   * The viewability rule (IAB/MRC display ads): at least half of a placement in view for at least one
   * continuous second, with the page visible.
   */
  seenShare: 0.5,
  seenMs: 1000,
  /** The visitor counts as active until this long after their last input or scroll. */
  idleAfterMs: 15_000,
};

/**
 * The marker of a section whose reach is counted: `data-reach="<id>"`, on each of the home page's
 * sections and each titled section of the text pages, in page order (server/leaves/pageLayout.ts lists them).
 */
export const reachAttribute = 'data-reach';

export interface LeaveBeaconBody {
  /** The page's path, one of the site's routes. */
  page: string;
  /** The variants the page showed, as its view report sent them; absent or '' outside every experiment. */
  variants?: string;
  /** The ids of the page's sections that came into view (any part of them), each once. */
  sections: string[];
  /** The affiliate placements seen by the viewability rule above, each once. */
  seen: string[];
  /**
   * The affiliate placements whose link the visitor followed on this view, each once (a click counts as
   * seen too): the seen placements' click-through is read from these reports alone, so that "clicked" and
   * "saw" are counted among the same visitors. Absent in reports from scripts built before it (counted as none).
   */
  clicked?: string[];
  /** Whole seconds the page was visible and the visitor active, at most maxEngagedSeconds. */
  engagedSeconds: number;
}
