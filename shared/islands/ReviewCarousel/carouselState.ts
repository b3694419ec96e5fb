/**
 * The review carousel's timing as a plain state machine. Time is an input (`now`, in ms), never read
 * here, so every constant of the spec can be tested exactly.
 *
 * Auto-rotation runs in 3.5 s cycles while nothing holds it. Holds: the Pause button, the pointer over
 * the reviews area, keyboard focus inside the carousel, and the 10 s pause after any manual control.
 * When the last hold ends a fresh 3.5 s cycle starts (so after a manual control the next automatic
 * change comes 10 s + 3.5 s later). Each change starts a 0.5 s fade during which controls are locked.
 * The client starts the machine when the island hydrates, telling it whether the pointer already rests
 * on the reviews or keyboard focus is already inside: such a hold was never announced by an event, yet
 * it ends like any other (the pointer leaving, focus moving out).
 */
export const carouselTiming = {
  autoAdvanceMs: 3500,
  fadeMs: 500,
  manualPauseMs: 10_000,
} as const;

export interface CarouselState {
  count: number;
  index: number;
  /** False until the client starts it: the server renders a still first slide. */
  started: boolean;
  /** The Pause button (and prefers-reduced-motion at start). */
  stopped: boolean;
  hovering: boolean;
  focused: boolean;
  /** Manual controls hold rotation until this time. */
  manualPauseUntil: number;
  /** Controls are locked until the fade ends. */
  lockedUntil: number;
  /** When the running 3.5 s cycle began; null while any hold is on. */
  cycleStart: number | null;
  fadeMs: number;
}

export type CarouselEvent =
  | { type: 'start'; now: number; reducedMotion: boolean; hovering: boolean; focused: boolean }
  | { type: 'tick'; now: number }
  | { type: 'next'; now: number }
  | { type: 'previous'; now: number }
  | { type: 'go'; index: number; now: number }
  | { type: 'toggle-play'; now: number }
  | { type: 'hover'; on: boolean; now: number }
  | { type: 'focus'; on: boolean; now: number };

export function initialCarouselState(count: number): CarouselState {
  return {
    count,
    index: 0,
    started: false,
    stopped: false,
    hovering: false,
    focused: false,
    manualPauseUntil: 0,
    lockedUntil: 0,
    cycleStart: null,
    fadeMs: carouselTiming.fadeMs,
  };
}

export const isLocked = (state: CarouselState, now: number) => now < state.lockedUntil;

/** Whether anything other than the manual-control pause holds rotation. */
const heldByOther = (state: CarouselState) => !state.started || state.stopped || state.hovering || state.focused;

/** Rotation is running (or will resume by itself once the manual pause ends). */
export const isRotating = (state: CarouselState) => state.cycleStart !== null;

/** Restarts the cycle at `now` when no hold remains, or stops it while one does. */
function settle(state: CarouselState, now: number): CarouselState {
  const held = heldByOther(state) || now < state.manualPauseUntil;
  if (held) return state.cycleStart === null ? state : { ...state, cycleStart: null };
  return state.cycleStart === null ? { ...state, cycleStart: now } : state;
}

function show(state: CarouselState, index: number, now: number): CarouselState {
  const wrapped = ((index % state.count) + state.count) % state.count;
  if (wrapped === state.index) return state;
  return { ...state, index: wrapped, lockedUntil: now + state.fadeMs };
}

function manual(state: CarouselState, index: number, now: number): CarouselState {
  if (isLocked(state, now)) return state;
  const moved = show(state, index, now);
  return { ...moved, manualPauseUntil: now + carouselTiming.manualPauseMs, cycleStart: null };
}

export function carouselReducer(state: CarouselState, event: CarouselEvent): CarouselState {
  switch (event.type) {
    case 'start': {
      if (state.started) return state;
      const { reducedMotion, hovering, focused } = event;
      const fadeMs = reducedMotion ? 0 : carouselTiming.fadeMs;
      return settle({ ...state, started: true, stopped: reducedMotion, hovering, focused, fadeMs }, event.now);
    }
    case 'tick': {
      if (state.cycleStart === null) {
        // The manual pause may have ended: resume from the moment it ended, not from a late timer.
        const resumeAt = state.manualPauseUntil;
        if (!heldByOther(state) && resumeAt > 0 && event.now >= resumeAt) {
          return carouselReducer({ ...state, cycleStart: resumeAt }, event);
        }
        return state;
      }
      const due = state.cycleStart + carouselTiming.autoAdvanceMs;
      if (event.now < due) return state;
      return { ...show(state, state.index + 1, event.now), cycleStart: event.now };
    }
    case 'next':
      return manual(state, state.index + 1, event.now);
    case 'previous':
      return manual(state, state.index - 1, event.now);
    case 'go':
      return manual(state, event.index, event.now);
    case 'toggle-play':
      // Play clears the manual pause too: the person asked for rotation, so it starts at once.
      return settle({ ...state, stopped: !state.stopped, manualPauseUntil: state.stopped ? 0 : state.manualPauseUntil }, event.now);
    case 'hover':
      return settle({ ...state, hovering: event.on }, event.now);
    case 'focus':
      return settle({ ...state, focused: event.on }, event.now);
  }
}

/**
 * When the component should next send a tick (or re-render to unlock the controls), or null when
 * nothing will change by itself.
 */
export function nextWakeAt(state: CarouselState, now: number): number | null {
  const times: number[] = [];
  if (state.cycleStart !== null) times.push(state.cycleStart + carouselTiming.autoAdvanceMs);
  else if (!heldByOther(state) && state.manualPauseUntil > now) times.push(state.manualPauseUntil);
  if (state.lockedUntil > now) times.push(state.lockedUntil);
  return times.length ? Math.min(...times) : null;
}
