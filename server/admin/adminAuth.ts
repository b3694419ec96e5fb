import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Headers every /admin answer carries, the 401 included: never cached, never indexed. */
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

/** Hashing both sides first gives equal lengths, so the comparison takes the same time whatever is offered. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Lets a request through only with the admin token. Browsers ask for it with their own sign-in
 * prompt (Basic); scripts can send `Authorization: Bearer <token>`.
 */
export function requireAdminToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    const offered = offeredToken(req.get('authorization'));
    if (offered !== undefined && timingSafeEqual(digest(offered), expected)) {
      next();
      return;
    }
    setPrivateHeaders(res);
    res
      .status(401)
      .set('WWW-Authenticate', 'Basic realm="Auctions Guide admin", charset="UTF-8", Bearer realm="Auctions Guide admin"')
      .type('text/plain')
      .send('This page needs the admin token (ADMIN_TOKEN).\n');
  };
}
