import type { ReactNode } from 'react';
import { reachAttribute } from '../leaveBeacon';
import { clientAttributes } from '../islands/clientAttributes';

export interface SectionProps {
  /** The anchor id the top bar scrolls to. */
  id: string;
  heading: string;
  intro?: string;
  /** Alternating backgrounds help a long page read as distinct parts. */
  tone?: 'plain' | 'tinted';
  layout?: 'stacked' | 'split';
  children: ReactNode;
}

/**
 * A home page section: its anchor, its heading (h2, named by aria-labelledby), an optional intro; its reach
 * is counted under its id. It waits to be laid out until it nears the viewport (`data-layout-waits`, where
 * scripts run: client/sectionsInTurn.ts), so a slow phone's first frames hold the hero alone.
 */
export function Section({ id, heading, intro, tone = 'plain', layout = 'stacked', children }: SectionProps) {
  const headingId = `${id}-title`;
  return (
    <section id={id} className={`section section--${tone}`} aria-labelledby={headingId} {...{ [reachAttribute]: id, [clientAttributes.layoutWaits]: '' }}>
      <div className="section__inner">
        <header className="section__header">
          <h2 id={headingId}>{heading}</h2>
          {intro && <p className="section__intro">{intro}</p>}
        </header>
        {layout === 'split' ? <div className="section__split">{children}</div> : children}
      </div>
    </section>
  );
}
