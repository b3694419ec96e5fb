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
