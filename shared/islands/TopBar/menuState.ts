/** The mobile menu as a plain state machine: components only wire these events to the DOM. */
export interface MenuState {
  open: boolean;
}

export type MenuEvent =
  | { type: 'toggle' }
  /** The browser opened or closed the popover itself (light dismiss, Escape, the invoker button). */
  | { type: 'popover-toggled'; open: boolean }
  | { type: 'item-chosen' }
  | { type: 'escape' }
  | { type: 'outside-click' };

export const initialMenuState: MenuState = { open: false };

export function menuReducer(state: MenuState, event: MenuEvent): MenuState {
  switch (event.type) {
    case 'toggle':
      return { open: !state.open };
    case 'popover-toggled':
      return state.open === event.open ? state : { open: event.open };
    case 'item-chosen':
    case 'escape':
    case 'outside-click':
      return state.open ? { open: false } : state;
  }
}
