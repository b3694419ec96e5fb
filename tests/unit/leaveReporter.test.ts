import { engagedAfter, engagedSeconds, viewingAt, type Engagement, type Viewing } from '../../client/leaveReporter';
import { leaveBeaconLimits } from '../../shared/leaveBeacon';

const { idleAfterMs, maxEngagedSeconds, seenMs } = leaveBeaconLimits;

/** Engaged time driven as the reporter drives it: each event brings the count up to its moment first. */
function engagement(events: ReadonlyArray<[number, 'active' | 'visible' | 'hidden' | 'end']>, startVisible = true): Engagement {
  let state: Engagement = { ms: 0, at: 0, visible: startVisible, activeAt: 0 };
  for (const [at, event] of events) {
    state = engagedAfter(state, at);
    if (event === 'active') state = { ...state, activeAt: at };
    if (event === 'visible') state = { ...state, visible: true, activeAt: at };
    if (event === 'hidden') state = { ...state, visible: false };
  }
  return state;
}

describe('engaged time', () => {
  it('counts visible time up to idleAfterMs after the last activity', () => {
    expect(engagement([[10_000, 'end']]).ms).toBe(10_000);
    expect(engagement([[60_000, 'end']]).ms).toBe(idleAfterMs);
  });

  it('counts again from the next activity after an idle gap, not the gap itself', () => {
    expect(engagement([[40_000, 'active'], [45_000, 'end']]).ms).toBe(idleAfterMs + 5_000);
  });

  it('keeps counting while activity keeps coming, however long', () => {
    const events: Array<[number, 'active']> = [];
    for (let at = 10_000; at <= 120_000; at += 10_000) events.push([at, 'active']);
    expect(engagement([...events, [125_000, 'end'] as const]).ms).toBe(125_000);
  });

  it('counts no hidden time, and coming back to the tab counts as activity', () => {
    expect(engagement([[5_000, 'hidden'], [100_000, 'visible'], [103_000, 'end']]).ms).toBe(8_000);
    expect(engagement([[50_000, 'visible'], [52_000, 'end']], false).ms).toBe(2_000);
  });

  it('reports whole seconds, at most maxEngagedSeconds', () => {
    expect(engagedSeconds({ ms: 2_999, at: 0, visible: true, activeAt: 0 })).toBe(2);
    expect(engagedSeconds({ ms: (maxEngagedSeconds + 60) * 1000, at: 0, visible: true, activeAt: 0 })).toBe(maxEngagedSeconds);
  });
});

describe('a placement seen by the viewability rule', () => {
  const drive = (events: ReadonlyArray<[number, boolean]>): Viewing => events.reduce<Viewing>((state, [at, inView]) => viewingAt(state, at, inView), { seen: false });

  it('is seen after seenMs in view without a break', () => {
    expect(drive([[0, true], [seenMs - 1, true]])).toEqual({ seen: false, since: 0 });
    expect(drive([[0, true], [seenMs, true]])).toEqual({ seen: true });
  });

  it('starts over when it leaves the view (or the page is hidden) before seenMs', () => {
    expect(drive([[0, true], [900, false], [1_000, true], [1_900, true]])).toEqual({ seen: false, since: 1_000 });
    expect(drive([[0, true], [900, false], [1_000, true], [2_000, true]])).toEqual({ seen: true });
  });

  it('stays seen once seen', () => {
    expect(drive([[0, true], [seenMs, true], [seenMs + 1, false]])).toEqual({ seen: true });
  });
});
