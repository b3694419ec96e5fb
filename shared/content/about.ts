/**
 * The about page (/about-us). Its sections are exactly "Who We Are" and "Our Approach".
 */
import { paths } from '../routes';
import { claims } from './claims';
import { claimFigure } from './claimTypes';
import type { ProsePage } from './types';

export const about: ProsePage = {
  path: paths.about,
  title: 'About Us | Auctions Guide',
  description:
    'Who runs Auctions Guide and how we work: an independent affiliate guide to the Auto Auctions membership, written for first-time auction buyers.',
  heading: 'About Auctions Guide',
  intro: [
    {
      kind: 'paragraph',
      text: 'Buying a car at a public auction can save money, but it can feel confusing the first time. We started this site to explain it in plain words.',
    },
  ],
  sections: [
    {
      id: 'who-we-are',
      heading: 'Who We Are',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Auctions Guide is a small, independent website for people who have never bought a vehicle at an auction. We review one online membership that teaches beginners how government, repossession and seizure auctions work, and we explain what it offers in plain English.',
        },
        {
          kind: 'paragraph',
          text: 'We are not the company behind the membership. We are not an auction, a dealer or a payment handler, and we do not sell cars or memberships. We are not affiliated with the U.S. government or any public agency.',
        },
        {
          kind: 'paragraph',
          text: 'We are an affiliate. If you register through our link, we may earn a commission. It costs you nothing extra, and it helps pay for running this site.',
        },
      ],
    },
    {
      id: 'our-approach',
      heading: 'Our Approach',
      blocks: [
        {
          kind: 'paragraph',
          text: 'A commission should never decide what we write. Before we recommend the membership, we check a few things:',
        },
        {
          kind: 'list',
          items: [
            `That what we describe, such as the ${claimFigure(claims.autoAuctionsSchool)}-day Auto Auctions School and the auction lists, matches what the official site says is included.`,
            `That the payment terms and the ${claimFigure(claims.refundWindow)}-day refund window we mention match the official platform’s own terms.`,
            'That every number we quote, such as savings figures, comes from the membership, and that we present it as the membership’s claim, not as a promise.',
            'That our links go to the official site and nowhere else.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We also say what the membership cannot promise. No course can guarantee a price, the condition of a car or a winning bid. Each auction has its own rules, and you should always read them.',
        },
        {
          kind: 'paragraph',
          text: 'To keep our copy current, we review it when the official site changes its offer or its terms, and we update the dates on our policy pages when those pages change. If you spot something out of date, please tell us at {contactEmail}.',
        },
        {
          kind: 'paragraph',
          text: 'Thank you for reading. Take your time, ask questions and only bid when you feel ready.',
        },
      ],
    },
  ],
};
