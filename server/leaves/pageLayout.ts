import { affiliatePlacements, type AffiliatePlacement } from '../../shared/affiliate';
import { about } from '../../shared/content/about';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { terms } from '../../shared/content/terms';
import type { ProsePage } from '../../shared/content/types';
import { paths, type PagePath } from '../../shared/routes';

/**
 * What each page holds for the leave reports (issue 29): its counted sections in page order (each marked
 * `data-reach` in the HTML, shared/leaveBeacon.ts) and the affiliate placements in it. A report naming
 * anything else carries more than the page has and is refused. tests/server/pageLayout.test.ts checks
 * these lists against the rendered pages, so a section added to a page cannot be left out here.
 */
export interface PageLayout {
  sections: readonly string[];
  placements: readonly AffiliatePlacement[];
}

/** The home page's sections, in the order shared/pages/HomePage.tsx renders them. */
const homeSections = ['hero', 'what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus'] as const;

// A text page's titled sections, those shown only under some settings included (a report can only name fewer).
const prose = (page: ProsePage): PageLayout => ({ sections: page.sections.map((section) => section.id), placements: [] });

export const pageLayouts: Readonly<Record<PagePath, PageLayout>> = {
  [paths.home]: { sections: homeSections, placements: affiliatePlacements },
  [paths.privacyPolicy]: prose(privacyPolicy),
  [paths.terms]: prose(terms),
  [paths.about]: prose(about),
};

/**
 * Names as a page orders them, each once: undefined when one of them is not the page's (or names repeat
 * past the page's count), so a report can never carry more than the page has.
 */
export function inPageOrder(names: unknown, known: readonly string[]): string[] | undefined {
  if (!Array.isArray(names) || names.length > known.length) return undefined;
  const given = new Set<unknown>(names);
  if (given.size !== names.length || names.some((name) => typeof name !== 'string' || !known.includes(name))) return undefined;
  return known.filter((name) => given.has(name));
}
