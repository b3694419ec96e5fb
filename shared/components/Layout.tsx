import type { ReactNode } from 'react';
import { site } from '../content/site';
import { Island } from '../islands/Island';
import { Footer } from './Footer';

export interface LayoutProps {
  /** True on the home page: the top bar's items then scroll within the page. */
  onHome?: boolean;
  children: ReactNode;
}

/** The chrome every page shares: skip link, fixed top bar, main landmark, footer. */
export function Layout({ onHome = false, children }: LayoutProps) {
  return (
    <>
      <a className="skip-link" href="#main">
        {site.skipLink}
      </a>
      {/* On the home page the bar highlights the section in view, so it hydrates once the page is idle; elsewhere not until it is touched. */}
      <Island name="TopBar" props={{ onHome }} load={onHome ? 'idle' : undefined} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </>
  );
}
