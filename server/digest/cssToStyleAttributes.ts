/**
 * Moves a small stylesheet into style attributes, for e-mail: Gmail, Outlook and most webmail drop a
 * <style> element or rewrite its selectors, while an element's own style attribute survives.
 *
 * Why not juice (Automattic's inliner, the ecosystem's usual answer): it parses any HTML and CSS with
 * cheerio, mensch and slick and can fetch remote stylesheets (web-resource-inliner), about a dozen
 * packages in the server's bundle for a job that here is narrow: the markup is React's own
 * (renderToStaticMarkup: attributes in double quotes, text escaped, void elements closed with "/>", no
 * script or style), and the stylesheet is ours (server/admin/adminStyles.ts and the digest's few rules),
 * written with type, class, universal and :first-child selectors joined by spaces. This file handles
 * exactly that, in one pass over the tags, and says which rules it could not apply (at-rules such as
 * @media, pseudo-classes such as :focus-visible) instead of guessing: those matter on an interactive page,
 * not in an e-mail. A test holds the list, so a new kind of selector in adminStyles.ts cannot slip by.
 */

interface Compound {
  tag: string | undefined;
  classes: string[];
  firstChild: boolean;
}

interface Rule {
  /** Right to left: the element's own compound first, then its ancestors'. */
  compounds: Compound[];
  /** Classes and pseudo-classes, then types: enough for selectors without ids. */
  specificity: [number, number];
  order: number;
  declarations: [string, string][];
}

export interface Stylesheet {
  rules: Rule[];
  /** Rules (or a selector of a list) this inliner cannot apply, as written. */
  skipped: string[];
}

const compoundPattern = /^(\*|[a-z][a-z0-9-]*)?((?:\.[A-Za-z_][\w-]*)*)(:first-child)?$/;

function parseSelector(selector: string): Compound[] | undefined {
  const compounds: Compound[] = [];
  for (const part of selector.trim().split(/\s+/)) {
    const match = compoundPattern.exec(part);
    if (!match || part === '') return undefined;
    const [, tag, classes, firstChild] = match;
    compounds.push({ tag: tag === '*' ? undefined : tag, classes: classes ? classes.slice(1).split('.') : [], firstChild: firstChild !== undefined });
  }
  return compounds.reverse();
}

function parseDeclarations(block: string): [string, string][] {
  return block
    .split(';')
    .map((declaration) => declaration.trim())
    .filter((declaration) => declaration.includes(':'))
    .map((declaration) => {
      const colon = declaration.indexOf(':');
      // Single quotes inside a double-quoted attribute need no escaping, which some mail clients mishandle.
      return [declaration.slice(0, colon).trim().toLowerCase(), declaration.slice(colon + 1).trim().replaceAll('"', "'")];
    });
}

/** Reads a stylesheet of plain rules; at-rules (with their blocks) and selectors it cannot match are listed in `skipped`. */
export function parseStylesheet(css: string): Stylesheet {
  const rules: Rule[] = [];
  const skipped: string[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  let position = 0;
  while (position < text.length) {
    const open = text.indexOf('{', position);
    if (open === -1) break;
    const prelude = text.slice(position, open).trim();
    if (prelude.startsWith('@')) {
      // Skip the at-rule's whole block, nested braces and all.
      let depth = 1;
      let index = open + 1;
      for (; index < text.length && depth > 0; index++) {
        if (text[index] === '{') depth++;
        else if (text[index] === '}') depth--;
      }
      skipped.push(prelude);
      position = index;
      continue;
    }
    const close = text.indexOf('}', open);
    const end = close === -1 ? text.length : close;
    const declarations = parseDeclarations(text.slice(open + 1, end));
    for (const selector of prelude.split(',').map((part) => part.trim())) {
      const compounds = parseSelector(selector);
      if (!compounds) {
        skipped.push(selector);
        continue;
      }
      const classes = compounds.reduce((sum, compound) => sum + compound.classes.length + Number(compound.firstChild), 0);
      const types = compounds.filter((compound) => compound.tag !== undefined).length;
      rules.push({ compounds, specificity: [classes, types], order: rules.length, declarations });
    }
    position = end + 1;
  }
  return { rules, skipped };
}

interface OpenElement {
  tag: string;
  classes: string[];
  firstChild: boolean;
  /** Element children seen so far: the next one is a first child when this is 0. */
  children: number;
}

const matchesCompound = (compound: Compound, element: OpenElement) =>
  (compound.tag === undefined || compound.tag === element.tag) &&
  (!compound.firstChild || element.firstChild) &&
  compound.classes.every((name) => element.classes.includes(name));

/** Descendant combinators only, so matching each ancestor compound at the nearest ancestor that fits is exact. */
function matches(rule: Rule, element: OpenElement, ancestors: readonly OpenElement[]): boolean {
  if (!matchesCompound(rule.compounds[0]!, element)) return false;
  let level = ancestors.length - 1;
  for (const compound of rule.compounds.slice(1)) {
    while (level >= 0 && !matchesCompound(compound, ancestors[level]!)) level--;
    if (level < 0) return false;
    level--;
  }
  return true;
}

const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** The document's frame and head take no style: nothing there is drawn. */
const unstyled = new Set(['html', 'head', 'meta', 'title', 'link', 'base']);

const attributeOf = (attributes: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];

/** The declarations an element gets: by specificity, then order; a later value of a property replaces the earlier one in place of the last. */
function styleFor(stylesheet: Stylesheet, element: OpenElement, ancestors: readonly OpenElement[]): string {
  const matched = stylesheet.rules
    .filter((rule) => matches(rule, element, ancestors))
    .sort((a, b) => a.specificity[0] - b.specificity[0] || a.specificity[1] - b.specificity[1] || a.order - b.order);
  const properties = new Map<string, string>();
  for (const rule of matched) {
    for (const [property, value] of rule.declarations) {
      // Deleted first so a longhand after a shorthand (border, then border-bottom) keeps its order.
      properties.delete(property);
      properties.set(property, value);
    }
  }
  return [...properties].map(([property, value]) => `${property}:${value}`).join(';');
}

const tagPattern = /<!--[\s\S]*?-->|<![^>]*>|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*(\/?)>/g;

/**
 * The HTML with the stylesheet's rules written into each element's style attribute (before any style
 * the element already had, which wins as it would in a browser). The stylesheet is read once per call;
 * a digest has a few hundred elements and a few dozen rules.
 */
export function cssToStyleAttributes(html: string, css: string | Stylesheet): string {
  const stylesheet = typeof css === 'string' ? parseStylesheet(css) : css;
  const root: OpenElement = { tag: '', classes: [], firstChild: false, children: 0 };
  const open: OpenElement[] = [];
  let inHead = false;
  return html.replace(tagPattern, (whole, closing: string | undefined, tag: string | undefined, attributes: string = '', selfClosing: string = '') => {
    if (closing !== undefined) {
      const name = closing.toLowerCase();
      const index = open.findLastIndex((element) => element.tag === name);
      if (index !== -1) open.length = index;
      if (name === 'head') inHead = false;
      return whole;
    }
    if (tag === undefined) return whole;
    const name = tag.toLowerCase();
    const parent = open.at(-1) ?? root;
    const element: OpenElement = { tag: name, classes: (attributeOf(attributes, 'class') ?? '').split(/\s+/).filter(Boolean), firstChild: parent.children === 0, children: 0 };
    parent.children++;
    if (name === 'head') inHead = true;
    const style = inHead || unstyled.has(name) ? '' : styleFor(stylesheet, element, open);
    if (!voidElements.has(name) && selfClosing === '') open.push(element);
    if (style === '') return whole;
    // The element's own style is already written as an attribute (escaped); only the stylesheet's part needs escaping.
    const own = attributeOf(attributes, 'style');
    const escaped = style.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
    const rest = attributes.replace(/\sstyle="[^"]*"/, '');
    return `<${tag}${rest} style="${own ? `${escaped};${own}` : escaped}"${selfClosing}>`;
  });
}
