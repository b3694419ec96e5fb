import { describeStatus } from '../linkHealth/checkLink';
import type { FetchResult, Validators } from '../fetching/politeFetcher';
import { parseMerchantPage, type MerchantPage } from './merchantPage';

/**
 * What one fetch of a merchant page gives the claims that name it:
 * - `read`: a page to match evidence against (cut at the fetcher's cap when `truncated`);
 * - `unchanged`: the server answered 304, so every item on it keeps its last outcome and the page is not parsed;
 * - `unreadable`: nothing that could be read as the merchant's words (no answer, robots.txt, a Retry-After,
 *   a status other than 2xx, a challenge or block page, a page with almost no text). Never a changed claim.
 */
export type PageReading =
  | { kind: 'read'; url: string; page: MerchantPage; body: Buffer; truncated: boolean; validators: Validators }
  | { kind: 'unchanged'; url: string }
  | { kind: 'unreadable'; url: string; reason: string };

/** Fewer visible characters than this, and no JSON-LD: a shell, a challenge or a block page, not the merchant's words. */
export const minimumTextLength = 64;

/** The words of the usual bot checks (Cloudflare, Akamai, hCaptcha, …) that stand in for the page a visitor would see. */
const challengeWords = /just a moment\.\.\.|checking your browser|verify you are (?:a )?human|attention required|enable javascript and cookies to continue|are you a robot|access denied/i;

export function readPage(result: FetchResult): PageReading {
  const url = result.url;
  if (result.outcome === 'failed') return { kind: 'unreadable', url, reason: result.reason };
  if (result.outcome === 'notModified') return { kind: 'unchanged', url };
  if (result.status < 200 || result.status > 299) return { kind: 'unreadable', url, reason: `the page answered ${describeStatus(result.status)}` };
  const page = parseMerchantPage(result.body.toString('utf8'));
  const text = page.text();
  if (text.length < minimumTextLength && page.jsonLdScripts().length === 0) {
    return { kind: 'unreadable', url, reason: `the page has almost no text (${text.length} characters): a shell, a challenge or a block page` };
  }
  if (text.length < 2000 && challengeWords.test(text)) return { kind: 'unreadable', url, reason: 'the page is a bot check or block page, not the merchant’s page' };
  return { kind: 'read', url, page, body: result.body, truncated: result.truncated, validators: result.validators };
}
