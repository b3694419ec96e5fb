import { load, type CheerioAPI } from 'cheerio';
// cheerio's node types: domhandler comes with cheerio, and cheerio's own declarations import it.
import type { AnyNode, Element } from 'domhandler';

/**
 * Server tests read pages as a browser or a bot does, through a real HTML parser (cheerio over parse5),
 * instead of matching markup with regular expressions: attribute order, quoting and entities do not
 * matter, and a failed look-up shows the part of the document it searched (after Fresh's `parseHtml`
 * and `assertSelector`).
 */
export interface HtmlNode {
  /** Tag name in lower case; '#document' for a parsed page. */
  readonly tag: string;
  /**
   * The words a reader sees, whitespace collapsed: this node's, or those of every match of `selector`
   * joined by a space. Block elements separate words, inline ones do not; script, style, template and
   * head are left out unless asked for by name. Fails, showing the DOM, when `selector` matches nothing.
   */
  text(selector?: string): string;
  /** This element's own text nodes only, without its children's words, whitespace collapsed. */
  ownText(): string;
  /** All text as the DOM's textContent has it, untouched: the body of a script or style as sent. */
  textContent(): string;
  /** This element's attribute, entities decoded; undefined when it has none. */
  attr(name: string): string | undefined;
  /** The attribute of the one element matching `selector`; fails, showing the DOM, unless exactly one matches. */
  attr(selector: string, name: string): string | undefined;
  /** Every element below this node that matches `selector`, in document order. */
  all(selector: string): HtmlNode[];
  /** The one element matching `selector`; fails, showing the DOM, when none or several match. */
  one(selector: string): HtmlNode;
  /** Child elements, in order. */
  children(): HtmlNode[];
  /** The markup, one element or text per line, long attribute values and script/style bodies shortened. */
  dump(): string;
}

/** Parses a whole HTML document as a browser would. */
export function parseHtml(html: string): HtmlNode {
  const $ = load(html);
  return wrap($, $.root()[0]!);
}

/** Parses an XML document (a sitemap); names and text read as in `parseHtml`. */
export function parseXml(xml: string): HtmlNode {
  const $ = load(xml, { xml: true });
  return wrap($, $.root()[0]!);
}

/**
 * Asserts that `selector` matches inside `scope` (exactly `count` times when given) and returns the
 * matches. On failure the message holds the scope's markup, so the test shows what was there instead.
 */
export function assertSelector(scope: HtmlNode, selector: string, count?: number): HtmlNode[] {
  const found = scope.all(selector);
  const ok = count === undefined ? found.length > 0 : found.length === count;
  if (!ok) {
    const wanted = count === undefined ? 'at least one match' : `${count} match${count === 1 ? '' : 'es'}`;
    throw failure(`Expected ${wanted} of ${selector} in <${scope.tag}>, found ${found.length}:\n${scope.dump()}`);
  }
  return found;
}

/** Asserts that nothing inside `scope` matches `selector`; on failure the message shows what did. */
export function assertNoSelector(scope: HtmlNode, selector: string): void {
  const found = scope.all(selector);
  if (found.length > 0) {
    throw failure(`Expected no match of ${selector} in <${scope.tag}>, found ${found.length}:\n${found.map((node) => node.dump()).join('\n')}`);
  }
}

/** An error whose stack leaves out this file, so jest's code frame points at the test that asked. */
function failure(message: string): Error {
  const error = new Error(message);
  const frames = error.stack?.slice(message.length + 'Error: '.length).split('\n') ?? [];
  error.stack = `Error: ${message}${frames.filter((frame) => !frame.includes(__filename)).join('\n')}`;
  return error;
}

function isElement(node: AnyNode): node is Element {
  return 'attribs' in node;
}

function wrap($: CheerioAPI, node: AnyNode): HtmlNode {
  const self: HtmlNode = {
    tag: isElement(node) ? node.name : '#document',
    text(selector?: string) {
      if (selector === undefined) return visibleText(node);
      return assertSelector(self, selector)
        .map((match) => match.text())
        .join(' ');
    },
    ownText() {
      const own = 'children' in node ? node.children.map((child) => (child.type === 'text' ? child.data : ' ')) : [];
      return collapse(own.join(''));
    },
    textContent: () => $(node).text(),
    attr(selectorOrName: string, name?: string) {
      if (name === undefined) return isElement(node) ? (node.attribs[selectorOrName] ?? node.attribs[selectorOrName.toLowerCase()]) : undefined;
      return self.one(selectorOrName).attr(name);
    },
    all: (selector) =>
      $(node)
        .find(selector)
        .toArray()
        .map((match) => wrap($, match)),
    one(selector) {
      const [match] = assertSelector(self, selector, 1);
      return match!;
    },
    children: () =>
      $(node)
        .children()
        .toArray()
        .map((child) => wrap($, child)),
    dump: () => truncate(dumpLines(node, 0)).join('\n'),
  };
  // jest prints what toJSON returns, so a failed expectation on nodes shows their markup.
  return Object.assign(self, { toJSON: () => self.dump() });
}

/** Elements that do not break a line of text, so no space is put around them. */
const inline = new Set('a abbr b bdi bdo cite code data del dfn em i ins kbd label mark q s samp small span strong sub sup time u var wbr'.split(' '));
/** Elements whose content a reader never sees as text. */
const unseen = new Set(['head', 'script', 'style', 'template']);

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function visibleText(root: AnyNode): string {
  const parts: string[] = [];
  const walk = (node: AnyNode, isRoot: boolean) => {
    if (node.type === 'text') parts.push(node.data);
    if (!('children' in node)) return;
    if (!isElement(node)) return node.children.forEach((child) => walk(child, false));
    if (!isRoot && unseen.has(node.name)) return;
    const separator = inline.has(node.name) ? '' : ' ';
    parts.push(separator);
    node.children.forEach((child) => walk(child, false));
    parts.push(separator);
  };
  walk(root, true);
  return collapse(parts.join(''));
}

const longest = { attribute: 80, text: 160, dump: 12_000 };
const shorten = (text: string, most: number) => (text.length > most ? `${text.slice(0, most)}… (${text.length} characters)` : text);

function dumpLines(node: AnyNode, depth: number, lines: string[] = []): string[] {
  const indent = '  '.repeat(depth);
  if (node.type === 'text') {
    const words = collapse(node.data);
    if (words) lines.push(indent + shorten(words, longest.text));
  } else if (isElement(node)) {
    const attributes = Object.entries(node.attribs).map(([name, value]) => ` ${name}="${shorten(value, longest.attribute)}"`);
    if (node.name === 'script' || node.name === 'style') {
      const body = node.children.map((child) => (child.type === 'text' ? child.data : '')).join('');
      lines.push(`${indent}<${node.name}${attributes.join('')}>${body ? `…(${body.length} characters)` : ''}</${node.name}>`);
    } else {
      lines.push(`${indent}<${node.name}${attributes.join('')}>`);
      node.children.forEach((child) => dumpLines(child, depth + 1, lines));
    }
  } else if ('children' in node) {
    node.children.forEach((child) => dumpLines(child, depth, lines));
  }
  return lines;
}

/** Keeps a dump of a whole page readable in a test report. */
function truncate(lines: string[]): string[] {
  let size = 0;
  const kept = lines.findIndex((line) => (size += line.length + 1) > longest.dump);
  return kept === -1 ? lines : [...lines.slice(0, kept), `… (${lines.length - kept} more lines)`];
}
