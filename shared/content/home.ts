/**
 * Copy for the home page (/), section by section in page order. Every number about the
 * membership is worded as the membership's own claim. Strings only: no markup.
 */

import { claims } from './claims';
import { claimFigure } from './claimTypes';
import type { GeneratedImageName } from './images.generated';
import { sampleReviewAlt } from './sampleReviews';

type ReviewImageName = Extract<GeneratedImageName, `review-${number}`>;

export interface PageMeta {
  /** The document title (at most 60 characters). */
  title: string;
  /** The meta description (120 to 160 characters). */
  description: string;
}

/** A titled item: a feature, a how-it-works step or a benefit. */
export interface TitledItem {
  title: string;
  description: string;
}

export interface HeroCopy {
  /** Short line above the heading. */
  eyebrow: string;
  /** The page's only h1. */
  heading: string;
  lead: string;
  /** The up-to-90% figure, attributed to the membership. */
  savingsClaim: string;
  /** Affiliate button (opens the registration address in a new tab). */
  primaryCtaLabel: string;
  /** Text button that scrolls to the bonus section. */
  secondaryCtaLabel: string;
  heroImageAlt: string;
  /** Three short trust points. */
  points: string[];
}

export interface WhatIsCopy {
  heading: string;
  /** Mentions `auctionsCount`. */
  intro: string;
  /** The four things the membership includes. */
  features: TitledItem[];
  /** The auction count phrase, also used inside `intro`. */
  auctionsCount: string;
  /** Affiliate button label. */
  ctaLabel: string;
  /** States that this site is not an auction, a dealer or a payment handler. */
  note: string;
}

export interface HowItWorksCopy {
  heading: string;
  intro: string;
  /** Exactly four steps: Registration, Training, Choose Auction, Buy Car. */
  steps: TitledItem[];
  /** Read before each step's title by screen readers (the big number is hidden from them): replace `{n}`. */
  stepLabel: string;
  /** Label of the affiliate "start learning" button. */
  startLearningLabel: string;
}

export interface BenefitsCopy {
  heading: string;
  intro: string;
  /** Exactly seven items. */
  items: TitledItem[];
}

export interface ReviewSlide {
  /** The image (see scripts/import-review.ts to put a real customer screenshot in its place). */
  image: ReviewImageName;
  alt: string;
}

export interface ReviewsCopy {
  heading: string;
  /** Says plainly that the images are samples, not real customer reviews. */
  intro: string;
  /** Accessible name of the carousel region. */
  regionLabel: string;
  /** Exactly six slides, in display order. */
  slides: ReviewSlide[];
  pauseLabel: string;
  playLabel: string;
  previousLabel: string;
  nextLabel: string;
  /** Dot button label template: replace `{n}` and `{total}`. */
  slideLabel: string;
}

export interface FaqItem {
  question: string;
  answer: string;
}

export interface FaqCopy {
  heading: string;
  /** Exactly five items. */
  items: FaqItem[];
}

export interface CheckAuctionsCopy {
  heading: string;
  text: string;
  /** Alt text of the linked image (it opens the registration address). */
  imageAlt: string;
  ctaLabel: string;
}

export interface BonusBook {
  title: string;
  /** The cover picture beside the book (decorative: the title says what it is). */
  cover: Extract<GeneratedImageName, `ebook-${number}`>;
  /** Page count; undefined where the spec gives none (never invent one). */
  pages?: number;
  description: string;
}

export interface BonusCopy {
  heading: string;
  intro: string;
  /** Exactly six eBooks, in this order. */
  books: BonusBook[];
  /** Page count template for books that have one: replace `{n}`. */
  pagesLabel: string;
  /** Affiliate button label. */
  ctaLabel: string;
  note: string;
}

export const homeMeta: PageMeta = {
  title: 'Auctions Guide: Buy a Car at Public Auctions, Step by Step',
  description:
    'An independent, plain-English review of the Auto Auctions membership: what it includes, how it works, how refunds work and what to check before you bid.',
};

export const hero: HeroCopy = {
  eyebrow: 'An independent guide for first-time auction buyers',
  heading: 'Buy Your Next Car at a Public Auction, Even If You Have Never Bid Before',
  lead:
    'Government, repossession and seizure auctions sell cars to the public across the U.S. We review an online membership that shows beginners where these auctions are, how they work and how to bid with care.',
  savingsClaim:
    `The membership says you can save up to ${claimFigure(claims.savingsUpTo)} off retail prices. Your own savings will depend on the car, the auction and how you bid.`,
  primaryCtaLabel: 'Visit the Official Membership Site',
  secondaryCtaLabel: 'See the 6 free bonus eBooks',
  heroImageAlt: 'Illustration: an online lesson on a laptop, an auction gavel and a car with a SOLD price tag',
  points: [
    'Independent review: we are not the seller',
    'One-time payment for lifetime access, per the official site',
    `${claimFigure(claims.refundWindow)}-day refund window under the official platform’s terms`,
  ],
};

export const whatIs: WhatIsCopy = {
  heading: 'What is this service?',
  intro:
    `The Auto Auctions membership is an online program for people who want to buy a vehicle at a public auction. According to the official site, it lists over ${claimFigure(claims.auctionsListed)} U.S. auctions and teaches you how to take part. Here is what it includes.`,
  features: [
    {
      title: `The ${claimFigure(claims.autoAuctionsSchool)}-day Auto Auctions School`,
      description:
        'A short training course that walks you through the whole process, from finding a sale to driving your car home.',
    },
    {
      title: 'Verified auction venues in all states',
      description:
        'Contact details for auction venues in every state, so you can call ahead and ask about dates, fees and rules.',
    },
    {
      title: 'How to inspect and bid',
      description:
        'Clear instructions on checking a vehicle before the sale, setting a price limit and bidding without getting carried away.',
    },
    {
      title: 'Links to real auction sites',
      description:
        'Direct links to the auction organizers’ own websites, where you can see upcoming sales and the vehicles on offer.',
    },
  ],
  auctionsCount: `over ${claimFigure(claims.auctionsListed)} U.S. auctions`,
  ctaLabel: 'Learn More on the Official Site',
  note:
    'Please note: Auctions Guide is not an auction, a dealer or a payment handler. We explain the membership. You register and pay on the official site.',
};

export const howItWorks: HowItWorksCopy = {
  heading: 'How It Works',
  stepLabel: 'Step {n}: ',
  intro: 'Four steps take you from signing up to driving home in a car you chose yourself.',
  steps: [
    {
      title: 'Registration',
      description:
        'Sign up on the official membership site with a one-time payment. Once you are in, the members’ area gives you the course and the auction lists.',
    },
    {
      title: 'Training',
      description:
        `Work through the ${claimFigure(claims.autoAuctionsSchool)}-day Auto Auctions School at your own pace. It covers how auctions work, what to check on a car and how to bid.`,
    },
    {
      title: 'Choose Auction',
      description:
        'Use the auction lists to find sales near you. Look over the vehicles on offer and pick the ones worth a closer look.',
    },
    {
      title: 'Buy Car',
      description:
        'Inspect the car if the auction allows it, set your top price and place your bid. If you win, pay the auction and finish the paperwork under its rules.',
    },
  ],
  startLearningLabel: 'Start Learning',
};

export const benefits: BenefitsCopy = {
  heading: 'Benefits of the Membership',
  intro:
    'Here is what the membership offers, based on the official site. Where there is a number, it is the membership’s own claim, and we say so.',
  items: [
    {
      title: `Savings of up to ${claimFigure(claims.savingsInBenefits)}`,
      description:
        `The membership says buyers can save up to ${claimFigure(claims.savingsInBenefits)} off retail prices. Results depend on the car, its condition and how many people bid, so no saving is guaranteed.`,
    },
    {
      title: 'Lifetime membership',
      description:
        'According to the official site, you pay once and keep your access for life. There is no subscription to renew.',
    },
    {
      title: `${claimFigure(claims.refundWindow)}-day refund window`,
      description:
        `The official platform’s terms give you ${claimFigure(claims.refundWindow)} days to ask for a refund, return or cancellation. Read those terms before you buy.`,
    },
    {
      title: `Auctions from ${claimFigure(claims.auctionsFrom)}`,
      description:
        `Many auctions start at ${claimFigure(claims.auctionsFrom)}, the membership says. The final price depends on the car and on how many people bid for it.`,
    },
    {
      title: `Over ${claimFigure(claims.auctionsListed)} auctions`,
      description:
        `The membership lists over ${claimFigure(claims.auctionsListed)} U.S. auctions, including government, repossession and seizure sales.`,
    },
    {
      title: 'Made for beginners',
      description:
        'The training assumes you have never been to an auction. It explains each step in plain words, one day at a time.',
    },
    {
      title: 'Inspect and bid with care',
      description:
        'Learn what to look for before you bid and how to set a price limit, so you can avoid common first-time mistakes.',
    },
  ],
};

export const reviews: ReviewsCopy = {
  heading: 'Member Reviews',
  intro:
    'We do not have real customer reviews to show yet. The six cards below are sample layouts, and each one is marked as a sample. The site owner will replace them with real customer screenshots once members share them.',
  regionLabel: 'Sample review images',
  slides: [
    { image: 'review-1', alt: sampleReviewAlt(1) },
    { image: 'review-2', alt: sampleReviewAlt(2) },
    { image: 'review-3', alt: sampleReviewAlt(3) },
    { image: 'review-4', alt: sampleReviewAlt(4) },
    { image: 'review-5', alt: sampleReviewAlt(5) },
    { image: 'review-6', alt: sampleReviewAlt(6) },
  ],
  pauseLabel: 'Pause slideshow',
  playLabel: 'Play slideshow',
  previousLabel: 'Previous review',
  nextLabel: 'Next review',
  slideLabel: 'Slide {n} of {total}',
};

export const faq: FaqCopy = {
  heading: 'Frequently Asked Questions',
  items: [
    {
      question: 'Is Auctions Guide an auction or a car dealer?',
      answer:
        'No. Auctions Guide is an independent review site. We are not an auction, a dealer or a payment handler, and we do not sell cars or memberships. When you follow our link, you go to the official membership site, and any purchase happens there.',
    },
    {
      question: 'What does the membership cost, and can I get a refund?',
      answer:
        `According to the official site, the membership is a one-time payment for lifetime access, and the price is shown there before you pay. Under the official platform’s terms, you have ${claimFigure(claims.refundWindow)} days to ask for a refund, return or cancellation. We do not process payments, so refund requests go to the official platform.`,
    },
    {
      question: 'Are these really government auctions, and can anyone bid?',
      answer:
        'The membership lists public auctions, including government, repossession and seizure sales. Many are open to the public, but each auction sets its own rules on who can bid, deposits, fees and payment, so check those rules before you go. This site is not affiliated with the U.S. government or any public agency.',
    },
    {
      question: 'What do the bonus eBooks include?',
      answer:
        'If you register through our link, you also get six bonus eBooks. They cover vehicle inspection, bidding strategies, vehicle history reports, financing, repairs and resale, and title and registration paperwork. They are practical guides to read alongside the course, not a replacement for it.',
    },
    {
      question: 'Do I need any experience to buy at an auction?',
      answer:
        `No. The ${claimFigure(claims.autoAuctionsSchool)}-day Auto Auctions School is written for complete beginners. It helps to know your budget and, if you can, to bring someone who knows cars when you inspect. Take your time: you never have to bid on the first car you see.`,
    },
  ],
};

export const checkAuctions: CheckAuctionsCopy = {
  heading: 'Check Which Vehicles Are Available in Your State',
  text:
    'The membership lists auction venues in every state, and the vehicles on offer change from sale to sale. Visit the official site to see which auctions and vehicles are listed near you.',
  imageAlt: 'Map of the United States: check the auctions listed in your state on the official site',
  ctaLabel: 'Check Auctions in Your State',
};

export const bonus: BonusCopy = {
  heading: 'Free Bonus: 6 eBooks When You Register Through Our Link',
  intro:
    'Register for the membership through our link and you also get six bonus eBooks. They add practical detail to the course, from inspecting a car to handling the paperwork.',
  books: [
    {
      title: 'Vehicle Inspection Checklist',
      cover: 'ebook-1',
      pages: 52,
      description: 'A step-by-step checklist for looking over a car before you bid on it.',
    },
    {
      title: 'Auction Bidding Strategies',
      cover: 'ebook-2',
      pages: 18,
      description: 'How to set a price limit, follow the bidding and know when to stop.',
    },
    {
      title: 'Understanding Vehicle History Reports',
      cover: 'ebook-3',
      pages: 32,
      description: 'How to read a vehicle history report and what to look out for in it.',
    },
    {
      title: 'Financing Your Auction Car',
      cover: 'ebook-4',
      pages: 46,
      description: 'Ways to pay for an auction car and what to arrange before sale day.',
    },
    {
      title: 'Repairs and Resale: Flipping Auction Cars',
      cover: 'ebook-5',
      pages: 84,
      description: 'How to judge repair costs and what to think about before reselling a car.',
    },
    {
      title: 'Title, Registration and Paperwork Guide',
      cover: 'ebook-6',
      description: 'The paperwork that comes after you win: title, registration and the forms involved.',
    },
  ],
  pagesLabel: '{n} pages',
  ctaLabel: 'Register and Get the Bonus eBooks',
  note:
    'The bonus eBooks come only with registrations made through our link. The membership itself is sold and supported by the official platform, not by us.',
};
