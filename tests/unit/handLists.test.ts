import { alertRules } from '../../server/alerts/rules/allRules';
import { leaveDimensions, rowDimensions } from '../../server/dayCounts/dimensions';
import { islandRegistry } from '../../shared/islands/registry.generated';
import { sourceComments, typeScriptSources } from '../support/projectFiles';

/**
 * What the code can list itself is never listed again by hand in a comment: the alert rules
 * (server/alerts/rules/allRules.ts), the dimensions (server/dayCounts/dimensions.ts) and the islands (the
 * folders of shared/islands/). Adding one is "one file and one line" (docs/architecture.md), and a comment
 * that lists them by hand goes stale at that line without a word: schema.ts named six rules of seven.
 *
 * The rule: no comment outside the defining file holds a list ("a, b and c") of all or all but one of a
 * set's names, and no comment counts them ("six rules"): a comment points at the list. Shorter lists are
 * about the ones they name (the cost levels source, campaign and ad), as are the docs' counts of a group
 * they name ("the four dimensions a browser can fill with anything"). The migrations are history and say
 * what was true at their step.
 */

const sets: { name: string; members: readonly string[]; definedIn: string }[] = [
  { name: 'alert rules', members: alertRules.map((rule) => rule.name), definedIn: 'server/alerts/rules/allRules.ts' },
  { name: 'row dimensions', members: rowDimensions.filter((dimension) => dimension !== 'all'), definedIn: 'server/dayCounts/dimensions.ts' },
  { name: 'leave dimensions', members: leaveDimensions, definedIn: 'server/dayCounts/dimensions.ts' },
  { name: 'islands', members: Object.keys(islandRegistry), definedIn: 'build.ts' },
];

const sources = [...typeScriptSources(['server', 'shared', 'client', 'scripts']), 'build.ts'].filter(
  (file) => !file.startsWith('server/db/migrations/') && !file.endsWith('.generated.ts'),
);

/** The comment's words on one line: stars, slashes and line breaks gone. */
const flat = (comment: string) => comment.replace(/^\s*(\/\/|\/\*+|\*+\/?)/gm, ' ').replace(/\s+/g, ' ');

/** The lists in `text` whose items are all members, with at least `least` distinct members. */
export function handLists(text: string, members: readonly string[], least: number): string[] {
  const name = `\\b(?:${members.join('|')})\\b`;
  const list = new RegExp(`${name}(?:(?:,? and |,? or |, )${name})+`, 'g');
  return [...text.matchAll(list)].map((match) => match[0]).filter((found) => new Set(found.match(new RegExp(name, 'g'))).size >= least);
}

const countWords = 'two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\\d+';
/** Counts of a set in words or figures ("six rules", "the 9 dimensions"); two is a pair the sentence names. */
export function handCounts(text: string): string[] {
  return [...text.matchAll(new RegExp(`\\b(?:${countWords}) (?:alert )?(?:rules|dimensions|islands)\\b`, 'gi'))]
    .map((match) => match[0])
    .filter((found) => !/^two\b/i.test(found));
}

describe('no comment lists by hand what the code lists', () => {
  it.each(sets)('no comment lists the $name by hand', ({ members, definedIn }) => {
    const least = Math.max(2, members.length - 1);
    const found = sources
      .filter((file) => file !== definedIn)
      .flatMap((file) => sourceComments(file).flatMap((comment) => handLists(flat(comment), members, least).map((list) => `${file}: ${list}`)));
    expect(found).toEqual([]);
  });

  it('no comment counts the rules, dimensions or islands', () => {
    const found = sources.flatMap((file) => sourceComments(file).flatMap((comment) => handCounts(flat(comment)).map((count) => `${file}: ${count}`)));
    expect(found).toEqual([]);
  });

  it('holds a list or a count written by hand to account (the rule itself)', () => {
    const rules = ['link', 'sales', 'views', 'clicks', 'spend', 'untracked', 'database'];
    expect(handLists('its name: link, sales, views, clicks, spend or database (allRules.ts)', rules, 6)).toEqual(['link, sales, views, clicks, spend or database']);
    expect(handLists('the views, clicks and sales rules', rules, 6)).toEqual([]);
    expect(handLists('TopBar and ReviewCarousel hydrate', ['TopBar', 'ReviewCarousel'], 2)).toEqual(['TopBar and ReviewCarousel']);
    expect(handCounts('six rules, six placements')).toEqual(['six rules']);
    expect(handCounts('The 7 alert rules; the two rules share a test')).toEqual(['7 alert rules']);
  });
});
