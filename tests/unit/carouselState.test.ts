import {
  carouselReducer,
  carouselTiming,
  initialCarouselState,
  isLocked,
  isRotating,
  nextWakeAt,
  type CarouselEvent,
  type CarouselState,
} from '../../shared/islands/ReviewCarousel/carouselState';

const { autoAdvanceMs, fadeMs, manualPauseMs } = carouselTiming;

/**
 * Drives the state machine the way the component does: a fake clock, and a timer set for the next
 * wake-up that delivers a tick when it fires.
 */
class Driver {
  state: CarouselState;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Starts the machine as the island does at hydration, with what the page says at that moment. */
  constructor(start: { reducedMotion?: boolean; hovering?: boolean; focused?: boolean } = {}) {
    this.state = initialCarouselState(6);
    this.send({ type: 'start', now: Date.now(), reducedMotion: false, hovering: false, focused: false, ...start });
  }

  send(event: CarouselEvent) {
    this.state = carouselReducer(this.state, event);
    clearTimeout(this.timer);
    const wake = nextWakeAt(this.state, Date.now());
    if (wake !== null) this.timer = setTimeout(() => this.send({ type: 'tick', now: Date.now() }), wake - Date.now());
  }

  now = () => Date.now();
  advance(ms: number) {
    jest.advanceTimersByTime(ms);
  }
}

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('the review carousel state machine', () => {
  it('has the timing constants of the spec', () => {
    expect(carouselTiming).toEqual({ autoAdvanceMs: 3500, fadeMs: 500, manualPauseMs: 10_000 });
  });

  it('shows the first of six slides and stands still until started (the server render)', () => {
    const state = initialCarouselState(6);
    expect(state.index).toBe(0);
    expect(isRotating(state)).toBe(false);
    expect(nextWakeAt(state, 0)).toBeNull();
  });

  it('advances every 3.5 s and wraps from the last slide to the first', () => {
    const driver = new Driver();
    driver.advance(autoAdvanceMs - 1);
    expect(driver.state.index).toBe(0);
    driver.advance(1);
    expect(driver.state.index).toBe(1);
    driver.advance(autoAdvanceMs * 4);
    expect(driver.state.index).toBe(5);
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(0);
  });

  it('locks the controls for the 0.5 s fade after each change', () => {
    const driver = new Driver();
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.index).toBe(1);
    expect(isLocked(driver.state, driver.now())).toBe(true);
    driver.advance(fadeMs - 1);
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.index).toBe(1);
    driver.advance(1);
    expect(isLocked(driver.state, driver.now())).toBe(false);
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.index).toBe(2);
  });

  it('wraps next and previous both ways', () => {
    const driver = new Driver();
    driver.send({ type: 'previous', now: driver.now() });
    expect(driver.state.index).toBe(5);
    driver.advance(fadeMs);
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.index).toBe(0);
  });

  it('jumps to a dot’s slide', () => {
    const driver = new Driver();
    driver.send({ type: 'go', index: 4, now: driver.now() });
    expect(driver.state.index).toBe(4);
  });

  it('pauses auto-advance for 10 s after a manual control, then resumes its 3.5 s cycle', () => {
    const driver = new Driver();
    driver.advance(1000);
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.index).toBe(1);
    driver.advance(manualPauseMs + autoAdvanceMs - 1);
    expect(driver.state.index).toBe(1);
    driver.advance(1);
    expect(driver.state.index).toBe(2);
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(3);
  });

  it('restarts the 10 s pause on each further manual control', () => {
    const driver = new Driver();
    driver.send({ type: 'next', now: driver.now() });
    driver.advance(8000);
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.index).toBe(2);
    driver.advance(manualPauseMs + autoAdvanceMs - 1);
    expect(driver.state.index).toBe(2);
    driver.advance(1);
    expect(driver.state.index).toBe(3);
  });

  it('pauses while the pointer is over the reviews and resumes a fresh cycle when it leaves', () => {
    const driver = new Driver();
    driver.advance(3000);
    driver.send({ type: 'hover', on: true, now: driver.now() });
    driver.advance(60_000);
    expect(driver.state.index).toBe(0);
    driver.send({ type: 'hover', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs - 1);
    expect(driver.state.index).toBe(0);
    driver.advance(1);
    expect(driver.state.index).toBe(1);
  });

  it('keeps a hover pause beyond the end of a manual pause', () => {
    const driver = new Driver();
    driver.send({ type: 'hover', on: true, now: driver.now() });
    driver.send({ type: 'next', now: driver.now() });
    driver.advance(manualPauseMs + autoAdvanceMs * 3);
    expect(driver.state.index).toBe(1);
    driver.send({ type: 'hover', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(2);
  });

  it('starts held when the pointer already rests on the reviews, and starts a fresh cycle when it leaves', () => {
    const driver = new Driver({ hovering: true });
    expect(isRotating(driver.state)).toBe(false);
    expect(nextWakeAt(driver.state, driver.now())).toBeNull();
    driver.advance(60_000);
    expect(driver.state.index).toBe(0);
    driver.send({ type: 'hover', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs - 1);
    expect(driver.state.index).toBe(0);
    driver.advance(1);
    expect(driver.state.index).toBe(1);
  });

  it('starts held when keyboard focus is already inside, and resumes when it moves out', () => {
    const driver = new Driver({ focused: true });
    driver.advance(autoAdvanceMs * 5);
    expect(driver.state.index).toBe(0);
    driver.send({ type: 'focus', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs - 1);
    expect(driver.state.index).toBe(0);
    driver.advance(1);
    expect(driver.state.index).toBe(1);
  });

  it('stays held at start until both the pointer and focus have gone', () => {
    const driver = new Driver({ hovering: true, focused: true });
    driver.send({ type: 'hover', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs * 3);
    expect(driver.state.index).toBe(0);
    driver.send({ type: 'focus', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(1);
  });

  it('keeps a pointer resting at start held after a manual control’s 10 s, as any hover', () => {
    const driver = new Driver({ hovering: true });
    driver.send({ type: 'next', now: driver.now() });
    driver.advance(manualPauseMs + autoAdvanceMs * 3);
    expect(driver.state.index).toBe(1);
    driver.send({ type: 'hover', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(2);
  });

  it('under prefers-reduced-motion stays paused after a resting pointer leaves', () => {
    const driver = new Driver({ reducedMotion: true, hovering: true });
    driver.send({ type: 'hover', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs * 3);
    expect(driver.state.index).toBe(0);
    expect(driver.state.stopped).toBe(true);
  });

  it('starts only once: a second start changes nothing, whatever it says', () => {
    const driver = new Driver();
    const started = driver.state;
    driver.send({ type: 'start', now: driver.now(), reducedMotion: true, hovering: true, focused: true });
    expect(driver.state).toBe(started);
  });

  it('pauses while keyboard focus is inside, like hover', () => {
    const driver = new Driver();
    driver.send({ type: 'focus', on: true, now: driver.now() });
    driver.advance(autoAdvanceMs * 5);
    expect(driver.state.index).toBe(0);
    driver.send({ type: 'focus', on: false, now: driver.now() });
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(1);
  });

  it('stops for good with Pause and starts at once with Play, whatever the manual pause', () => {
    const driver = new Driver();
    driver.send({ type: 'toggle-play', now: driver.now() });
    expect(driver.state.stopped).toBe(true);
    driver.send({ type: 'next', now: driver.now() });
    driver.advance(manualPauseMs + autoAdvanceMs * 10);
    expect(driver.state.index).toBe(1);
    driver.send({ type: 'toggle-play', now: driver.now() });
    expect(isRotating(driver.state)).toBe(true);
    driver.advance(autoAdvanceMs);
    expect(driver.state.index).toBe(2);
  });

  it('starts paused and without a fade under prefers-reduced-motion', () => {
    const driver = new Driver({ reducedMotion: true });
    expect(driver.state.stopped).toBe(true);
    driver.advance(autoAdvanceMs * 3);
    expect(driver.state.index).toBe(0);
    driver.send({ type: 'next', now: driver.now() });
    expect(driver.state.fadeMs).toBe(0);
    expect(isLocked(driver.state, driver.now())).toBe(false);
  });

  it('reports rotation as off while any hold is on, for the live region', () => {
    const driver = new Driver();
    expect(isRotating(driver.state)).toBe(true);
    driver.send({ type: 'hover', on: true, now: driver.now() });
    expect(isRotating(driver.state)).toBe(false);
  });
});
