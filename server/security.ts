import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * Security headers. The CSP allows only this origin: every script, image and font is ours, islands
 * hydrate from external module files, and the one inline stylesheet is allowed by its hash alone.
 */
export function securityHeaders({ siteUrl }: { siteUrl: string }, inlineStyleHashes: readonly string[] = []): RequestHandler[] {
  const https = siteUrl.startsWith('https:');
  return [
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", ...inlineStyleHashes],
          imgSrc: ["'self'"],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // HSTS only means something over https; on a plain-http origin it would be ignored or, behind
      // a TLS proxy that forwards to us, pin the wrong scheme.
      strictTransportSecurity: https ? { maxAge: 63072000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
    }),
    (_req, res, next) => {
      res.set(
        'Permissions-Policy',
        'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()',
      );
      next();
    },
  ];
}
