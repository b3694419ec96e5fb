import autocannon from 'autocannon';
import { visitorAddresses } from '../../tests/support/visitorAddresses';

/** POST a beacon's body to `endpoint` for 10 s over 10 connections, each request from an address of its own. */
export function postBeacons(base: string, endpoint: string, body: string) {
  const nextAddress = visitorAddresses();
  return autocannon({
    url: `${base}${endpoint}`,
    connections: 10,
    duration: 10,
    requests: [
      {
        method: 'POST',
        body,
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'Mozilla/5.0 (bench) Mobile', 'x-forwarded-for': nextAddress() },
        }),
      },
    ],
  });
}

/**
 * A view and then its leave report, over and over for 10 s on 10 connections: each pair from an address of
 * its own, so each leave names the view just recorded (server/leaves/), as a visitor's browser sends them.
 */
export function postViewsAndLeaves(base: string, viewEndpoint: string, viewBody: string, leaveEndpoint: string, leaveBody: string) {
  const nextAddress = visitorAddresses();
  const headers = (req: autocannon.Request, address: string) => ({
    ...req.headers,
    'content-type': 'text/plain;charset=UTF-8',
    'user-agent': 'Mozilla/5.0 (bench) Mobile',
    'x-forwarded-for': address,
  });
  return autocannon({
    url: base,
    connections: 10,
    duration: 10,
    requests: [
      {
        method: 'POST',
        path: viewEndpoint,
        body: viewBody,
        setupRequest: (req, context) => {
          const address = nextAddress();
          (context as { address?: string }).address = address;
          return { ...req, headers: headers(req, address) };
        },
      },
      { method: 'POST', path: leaveEndpoint, body: leaveBody, setupRequest: (req, context) => ({ ...req, headers: headers(req, (context as { address?: string }).address ?? '') }) },
    ],
  });
}
