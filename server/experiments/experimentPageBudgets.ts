import { clickEndpoint } from '../../shared/clickBeacon';
import { isRunning, type Experiment } from '../../shared/experiments/experiment';
import type { PageContextValue } from '../../shared/pageContext';
import { viewEndpoint } from '../../shared/viewBeacon';
import { leaveEndpoint } from '../../shared/leaveBeacon';
import { renderAllPages } from '../pages';
import type { PageAssets } from '../render';

/** The home page's HTML, brotli-compressed, fits the first round trip (tests/server/budgets.test.ts holds every page to it). */
export const homeHtmlBudget = 14 * 1024;

/**
 * A configuration as a public site runs it (https, a sub-ID parameter, statistics on): the largest
 * pages the words will be in.
 */
const publicSite: PageContextValue = {
  siteUrl: 'https://auctions-guide.example.com',
  affiliateUrl: 'https://www.example.com/register?ref=auctions-guide-operator-id',
  affiliateSubIdParam: 'subid',
  clickCounting: { endpoint: clickEndpoint, viewEndpoint, leaveEndpoint, subIdParam: 'subid', retentionDays: 400 },
  contactEmail: 'privacy@auctions-guide.example.com',
};

/**
 * The home pages of the running experiments' variants over the page budget, one line each naming the
 * experiments whose words are on it: the build refuses them (build.ts). A page of only variants 'a'
 * is the site's own page, held to the budget by the tests.
 */
export function experimentPageProblems(experiments: readonly Experiment[], assets: PageAssets): string[] {
  if (!experiments.some(isRunning)) return [];
  const rendered = renderAllPages(publicSite, assets, experiments);
  const problems: string[] = [];
  for (const [key, entry] of rendered.homeVariants) {
    const bytes = (entry.br ?? entry.identity).body.length;
    const changed = key.split(',').filter((item) => !item.endsWith(':a'));
    if (bytes <= homeHtmlBudget || changed.length === 0) continue;
    const names = changed.map((item) => `experiment ${JSON.stringify(item.split(':')[0])} (variant ${item.split(':')[1]})`).join(' with ');
    problems.push(`${names}: the home page with its words is ${(bytes / 1024).toFixed(1)} KB compressed, over its ${homeHtmlBudget / 1024} KB budget`);
  }
  return problems;
}
