/**
 * An address as messages and logs may show it: scheme, host and port only, with "/…" standing for
 * whatever follows. A webhook's path and query are its secret (Slack's
 * https://hooks.slack.com/services/T…/B…/<secret>, Discord's /api/webhooks/<id>/<token>), and an SMTP
 * URL carries a password, so neither the path, the query, the fragment nor the user ever appears.
 */
export function redactSecretUrl(value: string): string {
  if (!URL.canParse(value)) return '(an address that cannot be read as a URL)';
  const url = new URL(value);
  if (!url.host) return url.href.startsWith(`${url.protocol}//`) ? `${url.protocol}//…` : `${url.protocol}…`;
  const hidden = url.username || url.password ? '…@' : '';
  const rest = url.pathname.replace(/^\/$/, '') || url.search || url.hash ? '/…' : '';
  return `${url.protocol}//${hidden}${url.host}${rest}`;
}
