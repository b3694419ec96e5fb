import { initialMenuState, menuReducer, type MenuEvent } from '../../shared/islands/TopBar/menuState';

const run = (...events: MenuEvent[]) => events.reduce(menuReducer, initialMenuState);

describe('menuReducer', () => {
  it('starts closed', () => {
    expect(initialMenuState).toEqual({ open: false });
  });

  it('opens and closes on toggle', () => {
    expect(run({ type: 'toggle' })).toEqual({ open: true });
    expect(run({ type: 'toggle' }, { type: 'toggle' })).toEqual({ open: false });
  });

  it.each(['item-chosen', 'escape', 'outside-click'] as const)('closes an open menu on %s', (type) => {
    expect(run({ type: 'toggle' }, { type })).toEqual({ open: false });
  });

  it.each(['item-chosen', 'escape', 'outside-click'] as const)('leaves a closed menu closed on %s, returning the same state', (type) => {
    expect(menuReducer(initialMenuState, { type })).toBe(initialMenuState);
  });

  it('follows the browser when it opens or closes the popover itself', () => {
    expect(run({ type: 'popover-toggled', open: true })).toEqual({ open: true });
    expect(run({ type: 'toggle' }, { type: 'popover-toggled', open: false })).toEqual({ open: false });
    const open = run({ type: 'toggle' });
    expect(menuReducer(open, { type: 'popover-toggled', open: true })).toBe(open);
  });
});
