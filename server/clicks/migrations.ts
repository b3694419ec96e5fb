/**
 * The click database's schema, one step per version. A step is never edited once released: a change
 * is a new step. The version applied is kept in SQLite's own `user_version`, so a copy of the file
 * always says which steps it has had.
 */
export const migrations: readonly string[] = [
  // 1: raw clicks, and the daily totals they are folded into once older than the retention period.
  `
  CREATE TABLE clicks (
    id            INTEGER PRIMARY KEY,
    at            INTEGER NOT NULL,  -- milliseconds since the epoch
    day           TEXT    NOT NULL,  -- UTC date, YYYY-MM-DD
    placement     TEXT    NOT NULL,
    page          TEXT    NOT NULL,
    referrer_host TEXT,              -- where the visitor came from; NULL when direct, unknown or this site
    device        TEXT    NOT NULL,  -- mobile, tablet or desktop
    visitor       TEXT    NOT NULL,  -- salted daily hash of IP and user agent; neither is stored
    via           TEXT    NOT NULL   -- beacon (JavaScript) or ping (the link's ping attribute)
  );
  CREATE INDEX clicks_by_day ON clicks (day, placement);

  -- placement '*' holds all placements together, since unique visitors cannot be summed across placements.
  CREATE TABLE daily_totals (
    day       TEXT    NOT NULL,
    placement TEXT    NOT NULL,
    clicks    INTEGER NOT NULL,
    visitors  INTEGER NOT NULL,
    PRIMARY KEY (day, placement)
  ) WITHOUT ROWID;
  `,
];
