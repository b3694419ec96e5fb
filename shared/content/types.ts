/**
 * Shared shapes for the site's copy. Content is plain data (strings only, no markup);
 * components decide how it is laid out.
 */

/** A visible label for a link or button whose target is decided by the component. */
export interface LinkLabel {
  label: string;
}

/** One block of long-form text: a paragraph, or a bulleted list of plain strings. */
export type TextBlock = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/** A headed section of a long-form page. `id` is a URL-safe slug, unique within its page. */
export interface ProseSection {
  id: string;
  heading: string;
  blocks: TextBlock[];
  /** Shown only while the server counts affiliate clicks (CLICK_STATS), so the policy never describes what is off. */
  onlyWithClickCounting?: boolean;
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
