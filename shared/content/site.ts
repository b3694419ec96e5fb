/**
 * Site-wide copy: the brand, the short affiliate disclosure, the footer, the top navigation
 * and the small labels shared by every page.
 */
import { paths } from '../routes';

/** Anchor ids of the home page sections, in page order (see SPEC section 2). */
export type HomeSectionId =
  | 'hero'
  | 'what-is'
  | 'how-it-works'
  | 'benefits'
  | 'reviews'
  | 'faq'
  | 'check-auctions'
  | 'bonus';

export interface FooterCopy {
  /** Independent-review disclaimer. */
  disclaimer: string;
  /** Non-affiliation with the U.S. government or any public agency. */
  nonAffiliation: string;
  /** Possible commission. */
  commission: string;
  copyright: string;
  /** The policy links, in order. */
  links: NavLink[];
  /** Accessible name of the policy links' navigation landmark. */
  linksLabel: string;
}

export interface SiteCopy {
  name: string;
  tagline: string;
  /** Fallback meta description for a page that does not set its own. */
  defaultDescription: string;
  /** One or two plain sentences shown next to the hero button and the bonus offer. */
  disclosureShort: string;
  footer: FooterCopy;
  /** The link home at the top and bottom of the long-form pages. */
  backToHome: NavLink;
  /** Above a policy's text: replace `{date}`. */
  lastUpdatedLabel: string;
  /** Stands where the policies name the contact address while CONTACT_EMAIL is unset (allowed only on a non-https preview). */
  contactNotSet: string;
  skipLink: string;
  /** Read by screen readers after each affiliate link's text. */
  newTabNote: string;
  /** Describes the link-preview image (og:image:alt, twitter:image:alt). */
  ogImageAlt: string;
}

export interface NavItem {
  /** The home page section the button scrolls to. */
  id: HomeSectionId;
  label: string;
}

export interface NavLink {
  href: string;
  label: string;
}

export const site: SiteCopy = {
  name: 'Auctions Guide',
  tagline: 'An independent, beginner-friendly guide to buying a car at public auctions.',
  defaultDescription:
    'Auctions Guide is an independent review of an online membership that teaches beginners how to find, inspect and bid on cars at U.S. public auctions.',
  disclosureShort:
    'We may earn a commission if you register through our link. It costs you nothing extra.',
  footer: {
    disclaimer:
      'Auctions Guide is an independent review and information site. We do not run auctions, sell vehicles or sell memberships, and we do not handle payments.',
    nonAffiliation:
      'This site is not affiliated with, endorsed by or connected to the U.S. government or any public agency.',
    commission:
      'Some links on this site are affiliate links. If you register through them, we may earn a commission at no extra cost to you.',
    copyright: '© 2025 Auctions Guide',
    links: [
      { href: paths.privacyPolicy, label: 'Privacy Policy' },
      { href: paths.terms, label: 'Terms and Conditions' },
    ],
    linksLabel: 'Legal',
  },
  backToHome: { href: paths.home, label: 'Back to Home' },
  lastUpdatedLabel: 'Last updated: {date}',
  contactNotSet: '[no contact address yet: the operator must set CONTACT_EMAIL before publishing]',
  skipLink: 'Skip to main content',
  newTabNote: '(opens in a new tab)',
  ogImageAlt: 'Auctions Guide: an independent guide to buying vehicles at government, repo and seizure auctions',
};

/** Top bar scroll buttons, in order. The same items fill the mobile dropdown. */
export const navItems: NavItem[] = [
  { id: 'hero', label: 'Home' },
  { id: 'how-it-works', label: 'How It Works' },
  { id: 'benefits', label: 'Benefits' },
  { id: 'reviews', label: 'Reviews' },
  { id: 'faq', label: 'FAQ' },
  { id: 'check-auctions', label: 'Check Auctions' },
];

/** The top bar's link to the about page. */
export const aboutLink: NavLink = { href: paths.about, label: 'About Us' };

export interface MenuLabels {
  /** Accessible label of the mobile menu button while the menu is closed. */
  open: string;
  /** Accessible label of the mobile menu button while the menu is open. */
  close: string;
  /** Accessible name of the navigation landmark. */
  navigation: string;
}

/** Labels for the mobile menu toggle and the navigation landmark. */
export const menuLabels: MenuLabels = {
  open: 'Open menu',
  close: 'Close menu',
  navigation: 'Main navigation',
};
