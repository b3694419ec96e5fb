/**
 * Reading a field such as 'MerchantReturnPolicy.merchantReturnDays' out of a page's JSON-LD: every node
 * of that type, wherever it stands (top level, `@graph`, nested in another node, inside arrays), then
 * the property path from it, arrays followed at every step and `{"@value": …}` read as its value.
 */

/** A value found for the field, with the node of the type it was found under (for the excerpt). */
export interface JsonLdFinding {
  value: unknown;
  node: Record<string, unknown>;
}

/** Nodes visited per page at most: a JSON-LD script is small, and a hostile one must not cost more. */
const maximumNodes = 100_000;

export function findJsonLdField(scripts: readonly string[], field: string): JsonLdFinding[] {
  const [typeName, ...propertyPath] = field.split('.');
  if (!typeName || propertyPath.length === 0) return [];
  const found: JsonLdFinding[] = [];
  for (const script of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(script);
    } catch {
      continue; // a script that is not JSON says nothing; another one may
    }
    for (const node of nodesOfType(data, typeName)) {
      for (const value of follow(node, propertyPath)) found.push({ value, node });
    }
  }
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 'Offer', 'schema:Offer' and 'https://schema.org/Offer' name one type. */
function typeNames(node: Record<string, unknown>): string[] {
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
  return types.filter((type): type is string => typeof type === 'string').map((type) => type.replace(/^.*[/:#]/, ''));
}

function nodesOfType(data: unknown, typeName: string): Record<string, unknown>[] {
  const nodes: Record<string, unknown>[] = [];
  const stack: unknown[] = [data];
  for (let visited = 0; stack.length > 0 && visited < maximumNodes; visited++) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (let at = item.length - 1; at >= 0; at--) stack.push(item[at]);
    } else if (isObject(item)) {
      if (typeNames(item).includes(typeName)) nodes.push(item);
      for (const value of Object.values(item).reverse()) if (typeof value === 'object') stack.push(value);
    }
  }
  return nodes;
}

function follow(node: unknown, path: readonly string[]): unknown[] {
  let values: unknown[] = [node];
  for (const property of path) {
    values = values
      .flatMap((value) => (Array.isArray(value) ? value : [value]))
      .flatMap((value) => (isObject(value) && Object.hasOwn(value, property) ? [value[property]] : []));
  }
  return values
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .map((value) => (isObject(value) && Object.hasOwn(value, '@value') ? value['@value'] : value))
    .filter((value) => value !== null && value !== undefined);
}
