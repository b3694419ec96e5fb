import { load, type CheerioAPI } from 'cheerio';
// cheerio's node types: domhandler comes with cheerio, and cheerio's own declarations import it.
import type { AnyNode, Element } from 'domhandler';
import { normalText } from './normalText';

/**
 * One merchant page, parsed once (by cheerio over parse5, as a browser parses it) for every evidence
 * item that names it: its visible words, the words inside a CSS selector, and its JSON-LD scripts.
 */
export interface MerchantPage {
  /** The page's visible words, normalised (normalText). */
  text(): string;
  /** The words of every element `selector` matches, joined by a space; undefined when it matches nothing (or cannot be read). */
  textIn(selector: string): string | undefined;
  /** The bodies of its `application/ld+json` scripts, as sent. */
  jsonLdScripts(): string[];
}

export function parseMerchantPage(html: string): MerchantPage {
  const $ = load(html);
  let text: string | undefined;
  return {
    text: () => (text ??= normalText(visibleText($.root().toArray()))),
    textIn(selector) {
      const matches = selectAll($, selector);
      return matches === undefined || matches.length === 0 ? undefined : normalText(visibleText(matches));
    },
    jsonLdScripts: () =>
      $('script')
        .toArray()
        .filter((script) => /^\s*application\/ld\+json\s*(;|$)/i.test(script.attribs.type ?? ''))
        .map((script) => $(script).text()),
  };
}

/** A selector cheerio cannot read is a broken evidence item, not a page fault: it matches nothing. */
function selectAll($: CheerioAPI, selector: string): AnyNode[] | undefined {
  try {
    return $(selector).toArray();
  } catch {
    return undefined;
  }
}

/** Elements that do not break a line of text, so no space is put around them ("<b>60</b>-day" stays "60-day"). */
const inline = new Set('a abbr b bdi bdo cite code data del dfn em font i ins kbd label mark q s samp small span strike strong sub sup time tt u var wbr'.split(' '));
/** Elements whose content a reader never sees as text. */
const unseen = new Set(['head', 'script', 'style', 'template', 'noscript', 'svg']);

function isElement(node: AnyNode): node is Element {
  return 'attribs' in node;
}

/**
 * The words a reader sees under the given nodes: block elements separate words, inline ones do not.
 * Walked with a stack of its own, so a page nested thousands deep cannot exhaust the call stack.
 */
function visibleText(roots: readonly AnyNode[]): string {
  const parts: string[] = [];
  const stack: (AnyNode | string)[] = [...roots].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    if (item.type === 'text') parts.push(item.data);
    if (!('children' in item)) continue;
    if (isElement(item) && unseen.has(item.name)) continue;
    const separator = isElement(item) && !inline.has(item.name) ? ' ' : '';
    parts.push(separator);
    stack.push(separator);
    for (let at = item.children.length - 1; at >= 0; at--) stack.push(item.children[at]!);
  }
  return parts.join('');
}
