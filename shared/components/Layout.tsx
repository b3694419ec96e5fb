import type { ReactNode } from 'react';
import { site } from '../content/site';
import { TopBarIsland } from '../islands';
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
      <TopBarIsland onHome={onHome} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </>
  );
}
