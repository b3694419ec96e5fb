/** /admin's sections, by the id the section index links to, with the heading each card carries (issue 30). */
export const adminSections = {
  chart: 'Over time',
  placements: 'By placement',
  sources: 'By source',
  spend: 'Spend and profit',
  pages: 'By page',
  reach: 'Reach by page',
  devices: 'Devices and referrers',
  experiments: 'Experiments',
  releases: 'Releases',
  'not-counted': 'Not counted, and why',
  'every-day': 'Day by day',
  claims: 'Claims',
  alerts: 'Alerts',
  'link-health': 'Link health',
} as const;
