import helmet from 'helmet';
import type { RequestHandler } from 'express';

const permissionsPolicy =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()';

/**
 * Security headers. The CSP allows only this origin: every script, image and font is ours, islands
 * hydrate from external module files, and the one inline stylesheet is allowed by its hash alone.
 *
 * A built script or stylesheet (`isBuiltAsset`: a file of dist/assets that exists) is no document, so the
 * policies that only a document obeys (CSP, framing, opener, referrer, permissions and the old X- ones:
 * about 800 bytes) are left off it; it keeps what a subresource obeys: nosniff, Cross-Origin-Resource-Policy
 * and, on https, HSTS. Every page, error page and API answer gets them all.
 */
export function securityHeaders(
  { siteUrl }: { siteUrl: string },
  inlineStyleHashes: readonly string[] = [],
  isBuiltAsset: (path: string) => boolean = () => false,
): RequestHandler[] {
  const https = siteUrl.startsWith('https:');
  // HSTS only means something over https; on a plain-http origin it would be ignored or, behind
  // a TLS proxy that forwards to us, pin the wrong scheme.
  const strictTransportSecurity = https ? { maxAge: 63072000, includeSubDomains: true } : false;
  const crossOriginResourcePolicy = { policy: 'same-origin' } as const;
  const documentHeaders = helmet({
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
    strictTransportSecurity,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy,
  });
  const assetHeaders = helmet({
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    strictTransportSecurity,
    crossOriginResourcePolicy,
  });
  return [
    (req, res, next) => {
      if (isBuiltAsset(req.path)) return assetHeaders(req, res, next);
      res.set('Permissions-Policy', permissionsPolicy);
      documentHeaders(req, res, next);
    },
  ];
}
