import { errorCode, fieldsOf, firstLine, messageOf } from '../lib/errorText';

const networkErrors: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed (temporary DNS failure)',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed before an answer',
};

/**
 * Why a fetch got no answer, in a few words the operator reads in a log or on /admin (the polite fetcher's and
 * the link check's). fetch reports every network failure as TypeError("fetch failed"); the useful part is in its cause.
 */
export function describeFetchError(error: unknown): string {
  const source = fieldsOf(error).cause ?? error;
  const code = errorCode(source);
  if (code !== undefined && networkErrors[code]) return networkErrors[code];
  if (code !== undefined && /CERT|TLS|SSL/.test(code)) return `TLS certificate problem (${code})`;
  return firstLine(messageOf(source)) || 'request failed';
}
