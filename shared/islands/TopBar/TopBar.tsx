import { useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import { aboutLink, menuLabels, navItems, site, type HomeSectionId } from '../../content/site';
import { paths } from '../../routes';
import { initialMenuState, menuReducer } from './menuState';
import { useCurrentSection } from './useCurrentSection';

export interface TopBarProps {
  /** True on the home page, where the items are same-page links (#faq); elsewhere they lead home (/#faq). */
  onHome: boolean;
}

/**
 * Popover support (Chrome 114, Safari 17, Firefox 125) lets the menu button work before hydration
 * and gives light dismiss for free; where it is missing the component toggles a data attribute instead.
 */
function supportsPopover(): boolean {
  return typeof HTMLElement !== 'undefined' && Object.hasOwn(HTMLElement.prototype, 'popover');
}

/** When the bar hydrates unless a page says otherwise: its menu works as a native popover until then. */
export const defaultLoad = 'interaction';

/** The fixed top bar: brand, section links, About Us, and the small-screen menu. */
export default function TopBar({ onHome }: TopBarProps) {
  const menuId = useId();
  const [menu, dispatch] = useReducer(menuReducer, initialMenuState);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const [popover, setPopover] = useState(true);
  const current = useCurrentSection(onHome ? navItems.map((item) => item.id) : []);

  useEffect(() => setPopover(supportsPopover()), []);

  // Hydrated on a visitor's first touch, the bar may find the browser has already opened the menu: on the
  // first run it takes the popover's state as its own instead of closing it.
  const adopted = useRef(false);

  // Keep the native popover in step with React state (the reducer is the source of truth).
  useEffect(() => {
    const element = menuRef.current;
    if (!popover || !element) return;
    const shown = supportsPopover() && element.matches(':popover-open');
    if (!adopted.current) {
      adopted.current = true;
      if (shown !== menu.open) return dispatch({ type: 'popover-toggled', open: shown });
    }
    if (menu.open && !shown) element.showPopover();
    if (!menu.open && shown) element.hidePopover();
  }, [menu.open, popover]);

  // Without popover support, Escape and clicks outside are ours to handle.
  useEffect(() => {
    if (popover || !menu.open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) dispatch({ type: 'outside-click' });
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [menu.open, popover]);

  const onKeyDown = useCallback(
    (event: React.KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.open) return;
      event.preventDefault();
      dispatch({ type: 'escape' });
      buttonRef.current?.focus();
    },
    [menu.open],
  );

  const hrefFor = (id: HomeSectionId) => (onHome ? `#${id}` : `${paths.home}#${id}`);

  return (
    <header className="top-bar" onKeyDown={onKeyDown}>
      <div className="top-bar__inner">
        <a className="top-bar__brand" href={paths.home}>
          <span className="top-bar__mark" aria-hidden="true" />
          {site.name}
        </a>
        <button
          ref={buttonRef}
          type="button"
          className="top-bar__menu-button"
          // A popovertarget button's expanded state comes from its popover (ARIA in HTML forbids aria-expanded
          // beside it): only the fallback, known after hydration, says it itself. So the server's HTML has none.
          aria-expanded={popover ? undefined : menu.open}
          aria-controls={menuId}
          aria-label={menuLabels.open}
          popoverTarget={menuId}
          onClick={(event) => {
            // With popover support the browser toggles it and reports back through onToggle.
            if (popover) return;
            event.preventDefault();
            dispatch({ type: 'toggle' });
          }}
        >
          <span className="top-bar__menu-icon" aria-hidden="true" />
        </button>
        <nav className="top-bar__nav" aria-label={menuLabels.navigation}>
          <div
            ref={menuRef}
            id={menuId}
            className="top-bar__menu"
            popover="auto"
            data-open={menu.open}
            onToggle={(event) => dispatch({ type: 'popover-toggled', open: event.newState === 'open' })}
          >
            <ul className="top-bar__list">
              {navItems.map((item) => (
                <li key={item.id}>
                  <a
                    className="top-bar__link"
                    href={hrefFor(item.id)}
                    aria-current={current === item.id ? 'location' : undefined}
                    onClick={() => dispatch({ type: 'item-chosen' })}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
              <li>
                <a className="top-bar__link top-bar__link--page" href={aboutLink.href} onClick={() => dispatch({ type: 'item-chosen' })}>
                  {aboutLink.label}
                </a>
              </li>
            </ul>
          </div>
        </nav>
      </div>
    </header>
  );
}
