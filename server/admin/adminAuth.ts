import type { RequestHandler } from 'express';
import { clientKey } from '../limits/clientKey';
import { createWrongSecretThrottle, secretMatcher, type WrongSecretThrottleOptions } from '../limits/wrongSecretThrottle';

/** How wrong tokens are throttled: by default 10 in a row per address, then one every 6 s (see wrongSecretThrottle.ts). */
export type AdminThrottleOptions = WrongSecretThrottleOptions;

/** Headers every /admin answer carries, the 401 and 429 included: never cached, never indexed. */
export function setPrivateHeaders(res: Parameters<RequestHandler>[1]): void {
  res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });
}

/** The token a request offers: HTTP Basic (any user name, the token as password) or a Bearer token. */
function offeredToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme = '', credentials = ''] = authorization.trim().split(/\s+/, 2);
  if (scheme.toLowerCase() === 'bearer') return credentials;
  if (scheme.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

/**
 * Lets a request through only with the admin token. Browsers ask for it with their own sign-in
 * prompt (Basic); scripts can send `Authorization: Bearer <token>`.
 *
 * Wrong tokens are throttled per client address (`req.ip`, so behind a proxy TRUST_PROXY must be set):
 * 10 in a row, then one every 6 s. Ten covers an operator mistyping a few times, and a minute's wait
 * after that costs them little; a script is held to 10 guesses a minute per address instead of
 * hundreds a second. A long random token (`openssl rand -hex 24`) is what keeps /admin safe; the
 * throttle makes a weak one slow to guess and keeps guessing from costing the server work. While an
 * address is held back every /admin request from it gets 429 with Retry-After and its token is not
 * even compared, so a held-back guesser learns nothing. The right token is never counted, and works
 * at once from any other address. A request offering no token is the browser's first visit (it asks
 * for one on the 401) and is not counted either.
 */
export function requireAdminToken(token: string, options: AdminThrottleOptions = {}): RequestHandler {
  const matches = secretMatcher(token);
  const throttle = createWrongSecretThrottle(options);
  return (req, res, next) => {
    const key = clientKey(req.ip);
    const waitMs = throttle.waitMs(key);
    if (waitMs > 0) {
      setPrivateHeaders(res);
      res
        .status(429)
        .set('Retry-After', String(Math.ceil(waitMs / 1000)))
        .type('text/plain')
        .send('Too many wrong admin tokens from this address; try again after Retry-After seconds.\n');
      return;
    }
    const offered = offeredToken(req.get('authorization'));
    if (offered !== undefined && matches(offered)) {
      next();
      return;
    }
    if (offered !== undefined) throttle.fail(key);
    setPrivateHeaders(res);
    res
      .status(401)
      .set('WWW-Authenticate', 'Basic realm="Auctions Guide admin", charset="UTF-8", Bearer realm="Auctions Guide admin"')
      .type('text/plain')
      .send('This page needs the admin token (ADMIN_TOKEN).\n');
  };
}
