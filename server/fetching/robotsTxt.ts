/**
 * robots.txt as RFC 9309 reads it: groups of user-agent lines followed by allow and disallow rules; the
 * group naming this crawler's product token (case-insensitively) applies, else the `*` group, else
 * nothing is disallowed. Of the rules matching a path, the longest wins, and allow wins a tie; `*` matches
 * any characters and a final `$` the end of the path. A pure function of the file's text.
 */
export interface RobotsRules {
  /** Whether the path (with its query) may be fetched. */
  allows(pathAndQuery: string): boolean;
}

interface Rule {
  allow: boolean;
  pattern: string;
  matcher: RegExp;
}

/** Lines read at most, and bytes: RFC 9309 asks crawlers to read at least 500 KiB and may stop there. */
const maximumLines = 20_000;
export const robotsMaximumBytes = 500 * 1024;

export const allowEverything: RobotsRules = { allows: () => true };
export const disallowEverything: RobotsRules = { allows: () => false };

export function parseRobotsTxt(text: string, productToken: string): RobotsRules {
  const token = productToken.toLowerCase();
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.slice(0, robotsMaximumBytes).split(/\r\n|\r|\n/).slice(0, maximumLines)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    if ((key === 'allow' || key === 'disallow') && current) {
      lastWasAgent = false;
      // An empty disallow allows everything: it is no rule at all.
      if (value !== '') current.rules.push(ruleFor(key === 'allow', value));
      continue;
    }
    // Other lines (sitemap, crawl-delay, …) neither start nor end a group's agents.
  }
  const named = groups.filter((group) => group.agents.includes(token));
  const chosen = named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  if (rules.length === 0) return allowEverything;
  return {
    allows(pathAndQuery) {
      const path = normalisePath(pathAndQuery);
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!rule.matcher.test(path)) continue;
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
      }
      return best?.allow ?? true;
    },
  };
}

function ruleFor(allow: boolean, value: string): Rule {
  const pattern = normalisePath(value);
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return { allow, pattern, matcher: new RegExp(`^${body}${anchored ? '$' : ''}`) };
}

/** Paths compared percent-encoded alike: "/caf%C3%A9" and "/café" are one path (RFC 9309 2.2.2). */
function normalisePath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase()).replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
}
