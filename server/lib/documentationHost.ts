/** A host on a domain reserved for documentation (RFC 2606: example.com, .test, …): no business answers there, so nothing is fetched from it. */
export function isDocumentationHost(hostname: string): boolean {
  return /(^|\.)example\.(com|net|org)$|\.(example|test|invalid)$/.test(hostname);
}
