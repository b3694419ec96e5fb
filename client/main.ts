/**
 * The client entry, on every page with islands or with click counting on. It is built on its own into
 * one small file with no import of its own, so nothing stands between the HTML and a settled page:
 * - click reporting starts at once, and the page view is reported (views after in-place navigation too), and
 *   so is its leave (how far the visitor got, what they saw, how long they read);
 * - the islands are scheduled at once, each to hydrate when its loading conditions are met (React is
 *   imported only then, by the URL the server names);
 * - in-place navigation is imported after the first paint.
 * Before any of it the page is usable: links are real links, the menu is a native popover, the FAQ is <details>.
 */
import { clientAttributes } from '../shared/islands/clientAttributes';
import { onLoad } from './islands/conditions/onLoad';
import { createIslandScheduler } from './islands/createIslandScheduler';
import { landingFacts } from '../shared/trafficSource';
import { startClickReporting } from './clickReporter';
import { startViewReporting } from './viewReporter';
import { startLeaveReporting } from './leaveReporter';
import { watchPointerUsed } from './pointerUsed';
import { sectionsInTurn } from './sectionsInTurn';

/** This module's own script element (document.currentScript is null for modules), carrying the server's settings. */
const entryScript = document.querySelector(`script[${clientAttributes.runtime}]`);
const setting = (name: string) => entryScript?.getAttribute(name) ?? '';

// What brought the visitor, worked out once on landing and kept only in this module's memory: it goes
// with every view and click report while in-place navigation keeps this document alive.
const landing = landingFacts({ search: location.search, referrer: document.referrer, ownHost: location.host });
// Global Privacy Control (Brave, DuckDuckGo, Firefox and Chrome by setting or extension) or the older Do
// Not Track: the server would not count such a visitor's reports, so no view or leave is sent and no click ID
// goes into the partner's address.
const optsOut = (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true || navigator.doNotTrack === '1';

// Right away: a visitor may follow a link before anything else has loaded.
const clickEndpoint = setting(clientAttributes.clickEndpoint);
if (clickEndpoint) {
  startClickReporting(clickEndpoint, {
    subIdParam: optsOut ? '' : setting(clientAttributes.subIdParam), referrer: landing.referrerHost,
    source: landing.source ?? '',
    campaign: landing.campaign,
    content: landing.content,
  });
}
const viewEndpoint = setting(clientAttributes.viewEndpoint);
const reportView = viewEndpoint && !optsOut ? startViewReporting(viewEndpoint, landing) : undefined;
const leaveEndpoint = setting(clientAttributes.leaveEndpoint);
const leaves = leaveEndpoint && !optsOut ? startLeaveReporting(leaveEndpoint) : undefined;

// Before any island can hydrate: the carousel asks which pointer left `:hover` on it.
watchPointerUsed(document.documentElement, clientAttributes.pointerUsed);

const sections = sectionsInTurn(clientAttributes.layoutWaits);
sections.start();

const islands = createIslandScheduler({ url: setting(clientAttributes.runtime), preload: setting(clientAttributes.preload).split(' ').filter(Boolean) });
islands.hydrate(document);

const navigation = setting(clientAttributes.navigation);
if (navigation) {
  void onLoad().then(async () => {
    const { startNavigation } = (await import(navigation)) as typeof import('./navigation');
    // The page left is reported before the next page's view.
    startNavigation(islands, sections, {
      leaving: leaves?.send,
      shown: () => {
        leaves?.start();
        reportView?.();
      },
    });
  });
}
