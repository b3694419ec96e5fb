/**
 * The "Last updated" date of both policy pages, /privacy-policy and /terms-conditions (the spec fixes
 * October 2025). Change it here when you change either policy; a page whose date must differ from the
 * other's sets its own `lastUpdated` in its file instead.
 */
export const policiesLastUpdated = 'October 2025';
