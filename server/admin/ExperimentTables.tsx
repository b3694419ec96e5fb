import type { FunnelReport } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import { amountText, rate, share } from '../dayCounts/reportNumbers';
import { placementsSeen, type ExperimentReport } from '../experiments/experimentReport';
import { Caption, ScrollBox } from './ScrollBox';
import { ColumnHeads } from './ColumnHeads';

/** A variant's words, as the operator wrote them: "a: the words as they are", "b: hero.primaryCtaLabel “Start now”". */
function wordsText(words: Record<string, string>): string {
  const entries = Object.entries(words);
  if (entries.length === 0) return 'the words as they are';
  return entries.map(([path, text]) => `${path.replace(/^home\./, '')} “${text}”`).join('; ');
}

/**
 * What each variant's visitors saw, from their leave reports (docs/reach.md): a row per placement anyone in
 * the experiment saw, a column per variant (two or three, so it fits a phone), each cell the visitors who
 * saw it, their share of the variant's leave reports and the click-through of those who saw it, one a line
 * (short, so two variants fit 375 px without scrolling).
 */
function ReachTable({ experiment }: { experiment: ExperimentReport }) {
  const shown = placementsSeen(experiment.variants);
  if (experiment.variants.every((variant) => variant.reach.leaves === 0)) {
    return <p className="muted">No leave report from this experiment’s visitors yet, so nothing on which buttons each variant’s visitors saw.</p>;
  }
  return (
    <ScrollBox label={`Experiment ${experiment.id}: buttons seen by variant`}>
      <table>
        <Caption>Experiment {experiment.id}: who saw each button, and the click-through of those who saw it, by variant</Caption>
        <ColumnHeads columns={[{ label: 'Placement', className: 'name' }, ...experiment.variants.map((variant) => variant.id)]} />
        <tbody>
          <tr>
            <th scope="row" className="name">
              Leave reports
              <span className="muted description">share of visitors</span>
            </th>
            {experiment.variants.map((variant) => (
              <td key={variant.id}>
                {countText(variant.reach.leaves)}
                <span className="muted description">{share(variant.reach.leaves, variant.visitors)}</span>
              </td>
            ))}
          </tr>
          {shown.map((placement) => (
            <tr key={placement}>
              <th scope="row" className="name">
                {placement}
              </th>
              {experiment.variants.map((variant) => {
                const seen = variant.reach.placements.find((row) => row.placement === placement)!;
                return (
                  <td key={variant.id}>
                    {countText(seen.seen)}
                    <span className="muted description">{share(seen.seen, variant.reach.leaves)} saw</span>
                    <span className="muted description">{rate(seen.seenClickers, seen.seen)} clicked</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function ExperimentTable({ experiment, currency }: { experiment: ExperimentReport; currency: string }) {
  const span = experiment.from === '' ? 'no figures yet' : `${experiment.from} to ${experiment.to}`;
  return (
    <section aria-labelledby={`experiment-${experiment.id}`}>
      <h3 id={`experiment-${experiment.id}`}>
        {experiment.id}
        {experiment.winner !== null && <span className="muted"> (ended: everyone sees {experiment.winner})</span>}
      </h3>
      <p className="verdict">
        <strong>{experiment.verdict[0]!.toUpperCase() + experiment.verdict.slice(1)}.</strong>
      </p>
      <ScrollBox label={`Experiment ${experiment.id} by variant`}>
        <table>
          <Caption>
            Experiment {experiment.id} by variant, {span}
          </Caption>
          <ColumnHeads
            columns={['Variant', 'Visitors', 'Clicked', 'Clicks', 'Conversions', 'Revenue', 'Click-through', 'Conversion rate', 'Revenue per visitor', 'Chance best']}
          />
          <tbody>
            {experiment.variants.map((variant) => (
              <tr key={variant.id}>
                <th scope="row">
                  {variant.id}
                  <span className="muted description"> {wordsText(variant.words)}</span>
                </th>
                <td>{countText(variant.visitors)}</td>
                <td>{countText(variant.clickers)}</td>
                <td>{countText(variant.clicks)}</td>
                <td>{countText(variant.conversions)}</td>
                <td>{amountText(variant.revenue, currency)}</td>
                <td>{rate(variant.clickers, variant.visitors)}</td>
                <td>{rate(variant.conversions, variant.visitors)}</td>
                <td>{variant.visitors === 0 ? '–' : amountText(variant.revenuePerVisitor, currency)}</td>
                <td>{variant.visitors === 0 ? '–' : share(variant.chanceBest, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <ReachTable experiment={experiment} />
    </section>
  );
}

/**
 * Each experiment of shared/content/experiments.ts over its whole life (whatever the range above), per
 * variant, with the chance each is best and the sequential test's verdict (server/experiments/).
 */
export function ExperimentTables({ experiments, currency, to }: Pick<FunnelReport, 'experiments' | 'currency' | 'to'>) {
  if (experiments.length === 0) {
    return (
      <p className="muted">
        No experiment is listed. Add one to <code>shared/content/experiments.ts</code> to test other words on the home page (see docs/experiments.md).
      </p>
    );
  }
  return (
    <>
      {experiments.map((experiment) => (
        <ExperimentTable key={experiment.id} experiment={experiment} currency={currency} />
      ))}
      <p className="muted">
        Each experiment since its first visitor, up to {to}. Visitors: visitors shown the variant, once a day. Clicked: those who followed
        an affiliate link. Rates are per visitor. The verdict is on conversions per visitor once any conversion is credited to the
        experiment, else on visitors who clicked; it comes from a sequential test that looks at every day in turn, so it stays valid however
        often this page is read. Chance best: how likely each variant’s rate is the highest, given the figures so far.
      </p>
      <p className="muted">
        Buttons seen, from the reports pages send when left (docs/reach.md). Leave reports: the variant’s visitors who sent one, and
        their share of its visitors. Under each button: how many saw it (at least half of it in view for a second); saw: their share of
        the variant’s leave reports; clicked: the share of those who saw it that followed its link. A variant whose visitors click less
        because fewer reach the button shows it here, not only in its click-through.
      </p>
    </>
  );
}
