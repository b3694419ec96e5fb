import type { ReactNode } from 'react';
import { site } from '../content/site';
import type { LoadConditions } from '../islands/formatLoadConditions';
import { Island } from '../islands/Island';
import { Footer } from './Footer';

export interface LayoutProps {
  /** True on the home page: the top bar's items then scroll within the page. */
  onHome?: boolean;
  children: ReactNode;
}

const homeTopBarLoad: LoadConditions = { anyOf: ['interaction', ['idle', 'wide']] };

/** The chrome every page shares: skip link, fixed top bar, main landmark, footer. */
export function Layout({ onHome = false, children }: LayoutProps) {
  return (
    <>
      <a className="skip-link" href="#main">
        {site.skipLink}
      </a>
      {/*
        On the home page the bar highlights the section in view among its links, which show on a wide screen:
        there it hydrates once the page is idle. On a phone the links wait in the closed menu, so React
        (a long task to evaluate on a slow phone) waits for the visitor to touch the bar, as on every other page.
      */}
      <Island name="TopBar" props={{ onHome }} load={onHome ? homeTopBarLoad : undefined} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </>
  );
}
