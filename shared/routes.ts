/**
 * The route table: the one place that names the site's pages. Server and client both read it,
 * so it holds only plain data (page components live in shared/pages and are server-only).
 */
/** The pages by name: every internal link takes its path from here, so no path is written twice. */
export const paths = {
  home: '/',
  privacyPolicy: '/privacy-policy',
  terms: '/terms-conditions',
  about: '/about-us',
} as const;

export const pagePaths = [paths.home, paths.privacyPolicy, paths.terms, paths.about] as const;

export type PagePath = (typeof pagePaths)[number];

export function isPagePath(path: string): path is PagePath {
  return (pagePaths as readonly string[]).includes(path);
}

/**
 * The canonical page for a path that differs only by letter case or trailing slashes
 * ("/About-Us/" → "/about-us"), or undefined when there is none.
 */
export function canonicalPagePath(path: string): PagePath | undefined {
  const folded = path.toLowerCase().replace(/\/+$/, '') || '/';
  return isPagePath(folded) ? folded : undefined;
}
