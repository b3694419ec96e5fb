import { claimList } from '../../shared/content/claims';
import type { Claim } from '../../shared/content/claimTypes';
import type { MerchantAnswer } from './testMerchant';

/** The merchant path an evidence page names ('' is the home page, '/'). */
function pathOf(page: string): string {
  return page === '' ? '/' : page;
}

/** Each merchant page of the registry, built from its items' examples: a page on which every claim is verified. */
export function merchantPagesFromExamples(claims: readonly Claim[] = claimList): Record<string, string> {
  const pages: Record<string, string[]> = {};
  for (const claim of claims) {
    for (const evidence of claim.evidence) {
      if (evidence.page.startsWith('https://')) continue;
      (pages[pathOf(evidence.page)] ??= []).push(evidence.example);
    }
  }
  return Object.fromEntries(
    Object.entries(pages).map(([path, examples]) => [path, `<!doctype html><html><head><title>Merchant</title></head><body><main>${examples.join('\n')}</main></body></html>`]),
  );
}

/** The same pages as the test merchant's answers, each with an ETag of its content so a repeated fetch may answer 304. */
export function merchantAnswersFromExamples(pages: Record<string, string> = merchantPagesFromExamples()): Record<string, MerchantAnswer> {
  return Object.fromEntries(Object.entries(pages).map(([path, body]) => [path, withEtag(body)]));
}

/** A page answered with an ETag of its body, and 304 to a request that names it. */
export function withEtag(body: string): MerchantAnswer {
  const etag = `"${Buffer.from(body).length}-${[...body].reduce((hash, character) => (hash * 31 + character.charCodeAt(0)) >>> 0, 7)}"`;
  return (request, response) => {
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
  };
}
