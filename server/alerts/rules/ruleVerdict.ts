/**
 * What a rule concluded about one subject (a placement, or '' for the site): something is wrong (an
 * incident opens, with summary as the alert's text), or it is fine (an open incident closes, with
 * recovery as its text). A subject the rule cannot judge (too little data) gets no verdict, and whatever
 * is open about it stays open.
 */
export type RuleVerdict<Rule extends string = string> =
  | { rule: Rule; subject: string; wrong: true; summary: string }
  | { rule: Rule; subject: string; wrong: false; recovery: string };
