/**
 * Shared shapes for the site's copy. Content is plain data (strings only, no markup);
 * components decide how it is laid out.
 */

/** A visible label for a link or button whose target is decided by the component. */
export interface LinkLabel {
  label: string;
}

/**
 * When a piece of copy is shown: only while the server counts affiliate clicks (CLICK_STATS), or only
 * while it does not, so a page never describes records that are not kept.
 */
/** When a block or section shows: with click counting on or off, or while a split test of the home page's words runs. */
export type ContentCondition = 'clickCounting' | 'noClickCounting' | 'experiments';

/**
 * One block of long-form text: a paragraph, or a bulleted list of plain strings. Text may name an
 * operator setting as `{clickRetentionDays}` or `{contactEmail}` (see ProsePage); any other `{name}`
 * stops the page from rendering, so a placeholder can never show on the site.
 */
export type TextBlock = ({ kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] }) & { when?: ContentCondition };

/** A headed section of a long-form page. `id` is a URL-safe slug, unique within its page. */
export interface ProseSection {
  id: string;
  heading: string;
  blocks: TextBlock[];
  when?: ContentCondition;
}

/** A static long-form page such as the privacy policy, the terms or the about page. */
export interface ProsePage {
  path: string;
  title: string;
  description: string;
  heading: string;
  lastUpdated?: string;
  intro: TextBlock[];
  sections: ProseSection[];
}
