import { assertSelector, type HtmlNode } from './html';

/** The table row whose header's own words (without the placement's description) are `name`. */
export function rowHeaded(page: HtmlNode, name: string): HtmlNode {
  const row = assertSelector(page, 'tr').find((candidate) => candidate.all('th[scope="row"]')[0]?.ownText() === name);
  if (!row) throw new Error(`No table row is headed ${name}:\n${page.all('table').map((table) => table.dump()).join('\n')}`);
  return row;
}

/** A row's data cells, as a reader sees them. */
export const cells = (row: HtmlNode) => row.all('td').map((cell) => cell.text());

/** The table whose caption starts with `words`. */
export function tableCaptioned(page: HtmlNode, words: string): HtmlNode {
  const table = page.all('table').find((candidate) => candidate.all('caption')[0]?.text().startsWith(words));
  if (!table) throw new Error(`No table's caption starts with ${words}:\n${page.all('caption').map((caption) => caption.dump()).join('\n')}`);
  return table;
}
