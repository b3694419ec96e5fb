import { isLoopbackHost } from '../lib/hostName';
import { allowEverything, disallowEverything, parseRobotsTxt, robotsMaximumBytes, type RobotsRules } from './robotsTxt';
import { describeFetchError } from './fetchErrors';
import type { HostHolds } from './hostHolds';
import { retryAfterMs } from './retryAfter';

/**
 * Fetching another site's pages as a good citizen (issue 42): a User-Agent naming this site, robots.txt
 * obeyed (RFC 9309), one request at a time per host, conditional requests, Retry-After obeyed, redirects
 * followed (at most 5, never to http:// but on the loopback), TLS verified (fetch's default), a body cap and
 * a timeout. Time is an input (`now`): robots.txt's cache and Retry-After are reckoned on it. Never throws.
 */
export interface PoliteFetcherOptions {
  /** The User-Agent header: the product token, and the site's address, e.g. "AuctionsGuideBot/1.0 (+https://auctions.example.com)". */
  userAgent: string;
  /** The name robots.txt groups are matched against, e.g. "AuctionsGuideBot". */
  productToken: string;
  now?: () => number;
  /** For the whole fetch, redirects and body included; default 15 s. */
  timeoutMs?: number;
  /** Bytes of a body read at most (decoded); the rest is never downloaded. Default 3 MB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** How long a robots.txt is trusted; at most (and by default) 24 h. */
  robotsMaxAgeMs?: number;
  /** Where each host's Retry-After is kept for a restart and other instances; without it, this fetcher alone obeys it. */
  holds?: HostHolds;
}

/** What the last answer of a page carried, sent back so an unchanged page answers 304. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchResult = (
  /** The server answered (any status but 304) and its body, up to the cap, was read (none when not asked for). */
  | { outcome: 'answered'; status: number; body: Buffer; truncated: boolean; validators: Validators; contentType: string }
  /** 304: the page is as it was when it carried the validators sent. */
  | { outcome: 'notModified' }
  /** No answer to read: the reason in one line (robots.txt, a Retry-After still running, network, timeout, redirects). */
  | { outcome: 'failed'; reason: string }
) & {
  url: string;
  /** The last address asked: url itself without a redirect. */
  finalUrl: string;
  /** How many redirects were followed. */
  redirects: number;
};

export interface FetchOptions {
  /** Validators of the last answer: the request is conditional. */
  validators?: Validators;
  /** False: the body is dropped unread (a link check wants only the status). Default true. */
  readBody?: boolean;
}

export const defaultFetchTimeoutMs = 15_000;
export const defaultMaxBytes = 3 * 1024 * 1024;
export const defaultMaxRedirects = 5;
export const robotsMaxAgeMs = 24 * 60 * 60_000;
/** An unreachable robots.txt (5xx, no answer) disallows everything, and is asked again after this rather than a day. */
const robotsUnreachableAgeMs = 15 * 60_000;
/** A 429 or 503 without a usable Retry-After still holds the host back this long. */
const defaultBackoffMs = 60_000;
/** A Retry-After is obeyed up to this; a longer one is read as this (a server cannot silence the watch for a year). */
const maximumBackoffMs = 24 * 60 * 60_000;
/** Bounds of the per-host maps: a fetcher is given a handful of hosts, never visitors' input. */
const maximumHosts = 1000;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export class PoliteFetcher {
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly robotsAgeMs: number;
  /** The tail of each host's queue: one request at a time per host. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Each origin's robots.txt, and until when it is trusted. */
  private readonly robots = new Map<string, RobotsReading & { until: number }>();
  /** Each host's Retry-After: no request to it before this time. */
  private readonly waits = new Map<string, number>();

  constructor(private readonly options: PoliteFetcherOptions) {
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? defaultFetchTimeoutMs;
    this.maxBytes = options.maxBytes ?? defaultMaxBytes;
    this.maxRedirects = options.maxRedirects ?? defaultMaxRedirects;
    this.robotsAgeMs = Math.min(options.robotsMaxAgeMs ?? robotsMaxAgeMs, robotsMaxAgeMs);
  }

  /** When the host may be asked again (a Retry-After running, read here or kept in holds), or undefined when it may be now. */
  async waitingUntil(url: string): Promise<number | undefined> {
    const host = hostOf(url);
    if (host === undefined) return undefined;
    const kept = await this.options.holds?.until(host).catch(() => undefined);
    const until = Math.max(this.waits.get(host) ?? 0, kept ?? 0);
    return until > this.now() ? until : undefined;
  }

  /** GETs url (validators make it conditional), following redirects under the rules above. */
  async fetch(url: string, { validators = {}, readBody = true }: FetchOptions = {}): Promise<FetchResult> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let current = url;
    let redirects = 0;
    const failed = (reason: string): FetchResult => ({ outcome: 'failed', url, finalUrl: current, redirects, reason });
    try {
      for (;; redirects += 1) {
        const refusal = addressRefusal(current);
        if (refusal) return failed(refusal);
        const parsed = new URL(current);
        const hop = await this.exclusive(parsed.host, async (): Promise<FetchResult | { location: string }> => {
          const waiting = await this.waitingUntil(current);
          if (waiting !== undefined) return failed(askedToWait(waiting));
          const { rules, unreachable } = await this.robotsFor(parsed, signal);
          if (unreachable !== undefined) return failed(unreachable);
          if (!rules.allows(parsed.pathname + parsed.search)) return failed(`robots.txt of ${parsed.origin} disallows ${parsed.pathname}${parsed.search}`);
          // Reading robots.txt may itself have been answered with a Retry-After.
          const waitingAfterRobots = this.waits.get(parsed.host);
          if (waitingAfterRobots !== undefined && waitingAfterRobots > this.now()) return failed(askedToWait(waitingAfterRobots));
          const response = await fetch(current, { redirect: 'manual', signal, headers: this.headers(validators) });
          await this.noteRetryAfter(parsed.host, response);
          const location = response.headers.get('location');
          if (redirectStatuses.has(response.status) && location !== null) {
            await response.body?.cancel().catch(() => {});
            return { location };
          }
          if (response.status === 304) {
            await response.body?.cancel().catch(() => {});
            return { outcome: 'notModified', url, finalUrl: current, redirects };
          }
          if (!readBody) await response.body?.cancel().catch(() => {});
          const { body, truncated } = readBody ? await readCapped(response, this.maxBytes) : { body: Buffer.alloc(0), truncated: false };
          const etag = response.headers.get('etag');
          const lastModified = response.headers.get('last-modified');
          return {
            outcome: 'answered',
            url,
            finalUrl: current,
            redirects,
            status: response.status,
            body,
            truncated,
            validators: { ...(etag === null ? {} : { etag }), ...(lastModified === null ? {} : { lastModified }) },
            contentType: response.headers.get('content-type') ?? '',
          };
        });
        if (!('location' in hop)) return hop;
        if (redirects >= this.maxRedirects) return failed(`too many redirects (more than ${this.maxRedirects})`);
        if (!URL.canParse(hop.location, current)) return failed(`redirected to an address that cannot be read: ${hop.location}`);
        current = new URL(hop.location, current).href;
      }
    } catch (error) {
      return failed(signal.aborted ? `timed out after ${this.timeoutMs} ms` : describeFetchError(error));
    }
  }

  private headers(validators: Validators): Record<string, string> {
    return {
      'user-agent': this.options.userAgent,
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      ...(validators.etag ? { 'if-none-match': validators.etag } : {}),
      ...(validators.lastModified ? { 'if-modified-since': validators.lastModified } : {}),
    };
  }

  /** The origin's robots.txt, fetched when not known or older than its age; called inside the host's turn. */
  private async robotsFor(url: URL, signal: AbortSignal): Promise<RobotsReading> {
    const known = this.robots.get(url.origin);
    if (known && known.until > this.now()) return known;
    const { ageMs, ...reading } = await this.readRobots(url, signal);
    bounded(this.robots, maximumHosts);
    this.robots.set(url.origin, { ...reading, until: this.now() + ageMs });
    return reading;
  }

  /**
   * RFC 9309 2.3.1: a 2xx is read; a 4xx (no robots.txt) allows everything; a 5xx, a 429 or no answer
   * disallows everything, and is asked again after robotsUnreachableAgeMs. Its redirects are followed (at most 5) on the same origin's rules of address.
   */
  private async readRobots(url: URL, signal: AbortSignal): Promise<RobotsReading & { ageMs: number }> {
    let current = new URL('/robots.txt', url.origin).href;
    for (let redirects = 0; redirects <= defaultMaxRedirects; redirects += 1) {
      let response: Response;
      try {
        response = await fetch(current, { redirect: 'manual', signal, headers: this.headers({}) });
      } catch (error) {
        if (signal.aborted) throw error;
        // The host does not answer: its robots.txt is unreachable, and so is the page; the network's reason says most.
        return { rules: disallowEverything, unreachable: describeFetchError(error), ageMs: robotsUnreachableAgeMs };
      }
      await this.noteRetryAfter(url.host, response);
      const location = response.headers.get('location');
      if (redirectStatuses.has(response.status) && location !== null && URL.canParse(location, current)) {
        await response.body?.cancel().catch(() => {});
        const next = new URL(location, current).href;
        if (addressRefusal(next)) break;
        current = next;
        continue;
      }
      if (response.status >= 200 && response.status < 300) {
        const { body } = await readCapped(response, robotsMaximumBytes);
        return { rules: parseRobotsTxt(body.toString('utf8'), this.options.productToken), ageMs: this.robotsAgeMs };
      }
      await response.body?.cancel().catch(() => {});
      // A 429 is a server asking for time, not a missing file: read as unreachable, as 5xx (Google reads it so too).
      if (response.status >= 400 && response.status < 500 && response.status !== 429) return { rules: allowEverything, ageMs: this.robotsAgeMs };
      return {
        rules: disallowEverything,
        unreachable: `robots.txt of ${url.origin} answered ${response.status}, which disallows everything until it answers (RFC 9309)`,
        ageMs: robotsUnreachableAgeMs,
      };
    }
    // RFC 9309: more than five redirects may be read as unavailable (4xx), so as allowing everything.
    return { rules: allowEverything, ageMs: this.robotsAgeMs };
  }

  private async noteRetryAfter(host: string, response: Response): Promise<void> {
    if (response.status !== 429 && response.status !== 503) return;
    const header = response.headers.get('retry-after');
    const waitMs = Math.min(maximumBackoffMs, (header === null ? undefined : retryAfterMs(header, this.now())) ?? defaultBackoffMs);
    bounded(this.waits, maximumHosts);
    const until = Math.max(this.waits.get(host) ?? 0, this.now() + waitMs);
    this.waits.set(host, until);
    // Kept for a restart and the other instances; this process obeys its own copy if that fails.
    await this.options.holds?.hold(host, until).catch(() => {});
  }

  private async exclusive<T>(host: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(host) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    this.queues.set(host, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.queues.get(host) === tail) this.queues.delete(host);
    }
  }
}

/** robots.txt as read: its rules, and why it could not be read (a 5xx, a 429, no answer), when it could not. */
interface RobotsReading {
  rules: RobotsRules;
  unreachable?: string;
}

/** Why an address is not fetched: not http(s), or http:// off the loopback. */
function addressRefusal(url: string): string | undefined {
  if (!URL.canParse(url)) return `not an http:// or https:// address: ${url}`;
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return undefined;
  if (parsed.protocol === 'http:') return `refused to fetch an http:// address off the loopback: ${url}`;
  return `not an http:// or https:// address: ${url}`;
}

function askedToWait(until: number): string {
  return `the site asked to wait (Retry-After) until ${new Date(until).toISOString()}`;
}

function hostOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).host : undefined;
}

/** Reads the body up to maxBytes and drops the rest unread, so a huge page costs the cap, not its size. */
async function readCapped(response: Response, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!response.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(chunks, length), truncated: false };
    const room = maxBytes - length;
    if (value.byteLength > room) {
      chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
      length += room;
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(chunks, length), truncated: true };
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    length += value.byteLength;
  }
}

function bounded(map: Map<string, unknown>, size: number): void {
  if (map.size < size) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}
