import type { ReactNode } from 'react';

/** A wide table scrolls inside its own box on a phone; the box takes focus so keyboards can scroll it too. */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A table's caption, kept within the screen's width (CSS) while the table itself scrolls wider. */
export function Caption({ children }: { children: ReactNode }) {
  return (
    <caption className="muted">
      <span>{children}</span>
    </caption>
  );
}
