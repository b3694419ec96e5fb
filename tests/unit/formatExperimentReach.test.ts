import { affiliatePlacements } from '../../shared/affiliate';
import { experimentReachLines } from '../../server/experiments/formatExperimentReach';
import type { VariantReport } from '../../server/experiments/experimentReport';

type Seen = Record<string, [seen: number, seenClickers: number]>;
const variant = (id: string, visitors: number, leaves: number, figures: Seen) =>
  ({
    id,
    visitors,
    reach: {
      leaves,
      placements: affiliatePlacements.map((placement) => {
        const [seen, seenClickers] = figures[placement] ?? [0, 0];
        return { placement, seen, seenClickers, seenClickThrough: seen === 0 ? null : seenClickers / seen };
      }),
    },
  }) as VariantReport;

describe('experimentReachLines', () => {
  it('writes a row per variant and placement anyone saw, with the leave reports the figures rest on', () => {
    const lines = experimentReachLines({ variants: [variant('a', 3, 2, { hero: [2, 0], bonus: [1, 0] }), variant('b', 4, 4, { hero: [3, 1], bonus: [2, 1] })] });
    expect(lines.join('\n')).toBe(
      [
        'Buttons seen, from leave reports:',
        '  variant a: 2 leave reports, 67% of its visitors',
        '  variant b: 4 leave reports, 100% of its visitors',
        'Variant  Placement  Saw  Clicked  CTR seen',
        'a        hero         2        0        0%',
        'a        bonus        1        0        0%',
        'b        hero         3        1       33%',
        'b        bonus        2        1       50%',
      ].join('\n'),
    );
  });

  it('says so in one line when no leave report came from its visitors', () => {
    expect(experimentReachLines({ variants: [variant('a', 3, 0, {}), variant('b', 4, 0, {})] })).toEqual(['Buttons seen: no leave report from its visitors yet.']);
  });

  it('gives the leave reports alone when they saw no button', () => {
    expect(experimentReachLines({ variants: [variant('a', 1, 1, {}), variant('b', 0, 0, {})] })).toEqual(['Buttons seen, from leave reports:', '  variant a: 1 leave report, 100% of its visitors', '  variant b: 0 leave reports, – of its visitors']);
  });
});
