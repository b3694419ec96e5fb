/**
 * The terms and conditions (/terms-conditions), in plain words. Purchases, refunds and auction
 * rules belong to third parties; this page says so and points visitors to them.
 */
import { paths } from '../routes';
import { claims } from './claims';
import { claimFigure } from './claimTypes';
import { policiesLastUpdated } from './policiesLastUpdated';
import type { ProsePage } from './types';

export const terms: ProsePage = {
  path: paths.terms,
  title: 'Terms and Conditions | Auctions Guide',
  description:
    'The terms for using Auctions Guide: independent information only, no guaranteed savings, our affiliate commission, and whose terms cover purchases and refunds.',
  heading: 'Terms and Conditions',
  lastUpdated: policiesLastUpdated,
  intro: [
    {
      kind: 'paragraph',
      text: 'These terms explain the rules for using the Auctions Guide website. In these terms, “we” and “us” mean the operator of this site, and “you” means anyone who visits it. By using the site, you agree to these terms. If you do not agree, please do not use the site.',
    },
  ],
  sections: [
    {
      id: 'independent-information',
      heading: 'Independent Information Only',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Auctions Guide is an independent review and information site about an online membership for buying vehicles at public auctions. Everything here is general information for beginners. It is not legal, financial or mechanical advice. Before you buy a membership or a vehicle, make your own checks and, where it makes sense, ask a qualified professional.',
        },
        {
          kind: 'paragraph',
          text: 'We are not affiliated with, endorsed by or connected to the U.S. government or any public agency.',
        },
      ],
    },
    {
      id: 'what-we-are-not',
      heading: 'What This Site Is Not',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Auctions Guide is not an auction, a dealer or a payment handler. We do not sell vehicles, we do not sell memberships and we do not take payments. Any purchase you make is between you and the company that sells the membership, or between you and an auction.',
        },
      ],
    },
    {
      id: 'no-guarantee',
      heading: 'No Guarantee of Savings or Results',
      blocks: [
        {
          kind: 'paragraph',
          text: `Figures on this site, such as savings of up to ${claimFigure(claims.savingsUpTo)} or ${claimFigure(claims.savingsInBenefits)}, auctions that start at ${claimFigure(claims.auctionsFrom)} and over ${claimFigure(claims.auctionsListed)} U.S. auctions listed, are claims made by the membership. We report them as its claims. We do not promise that you will see the same results.`,
        },
        {
          kind: 'paragraph',
          text: 'What you pay for a vehicle depends on the car, its condition, the auction’s fees and how many people bid. Some buyers may save a lot, some a little, and some may not win a car at all.',
        },
        {
          kind: 'paragraph',
          text: 'We try to keep our information correct and up to date, but we provide the site “as is”, without any warranty that it is complete, accurate or always available.',
        },
      ],
    },
    {
      id: 'affiliate-relationship',
      heading: 'Our Affiliate Relationship',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Our buttons for the membership are affiliate links. If you register through them, we may earn a commission. This does not change the price you pay. The bonus eBooks offered on this site come only with registrations made through our link.',
        },
      ],
    },
    {
      id: 'purchases-and-refunds',
      heading: 'Purchases, Refunds and Cancellations',
      blocks: [
        {
          kind: 'paragraph',
          text: `The price, payment, refunds, returns and cancellations of the membership are set by the official platform’s terms, not by ours. According to those terms, there is a ${claimFigure(claims.refundWindow)}-day window for a refund, return or cancellation. Please read the official terms before you pay, because they are the ones that apply.`,
        },
        {
          kind: 'paragraph',
          text: 'We cannot issue refunds, cancel a membership or change an order. For any of these, contact the official platform directly.',
        },
      ],
    },
    {
      id: 'third-party-auctions',
      heading: 'Auctions Are Run by Third Parties',
      blocks: [
        {
          kind: 'paragraph',
          text: 'The auctions mentioned on this site and in the membership are run by other organizations, each with its own rules. Those rules can cover who may bid, deposits, buyer fees, payment methods, inspection times, pick-up deadlines and paperwork. Many vehicles are sold “as is”. Always read an auction’s rules before you bid.',
        },
      ],
    },
    {
      id: 'limitation-of-liability',
      heading: 'Limitation of Liability',
      blocks: [
        {
          kind: 'paragraph',
          text: 'As far as the law allows, we are not responsible for any loss or damage that comes from using this site or relying on its information. This includes losses from buying a membership, bidding at an auction, or the condition of a vehicle you buy. Nothing in these terms limits any right you have under the law that cannot be limited.',
        },
      ],
    },
    {
      id: 'external-links',
      heading: 'External Links',
      blocks: [
        {
          kind: 'paragraph',
          text: 'This site links to websites run by others, including the official membership site. We do not control those sites and are not responsible for their content, offers, privacy practices or terms. When you visit them, their own terms apply.',
        },
      ],
    },
    {
      id: 'intellectual-property',
      heading: 'Intellectual Property',
      blocks: [
        {
          kind: 'paragraph',
          text: 'The text, design and images created for this site belong to us or are used with permission. You may read, print and share links to our pages for personal, non-commercial use. Please do not copy or republish our content without asking first. Names and trademarks of other companies belong to their owners.',
        },
      ],
    },
    {
      id: 'using-the-site',
      heading: 'Using the Site',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Please use the site only for lawful purposes. Do not try to break into, overload or interfere with it.',
        },
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to These Terms',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We may update these terms from time to time. When we do, we will change the “last updated” date at the top of this page. If you keep using the site after a change, the updated terms apply.',
        },
      ],
    },
    {
      id: 'general',
      heading: 'The Fine Print, in Plain Words',
      blocks: [
        {
          kind: 'list',
          items: [
            'These terms, together with our Privacy Policy, are the whole agreement between you and us about using this site.',
            'If a court decides that part of these terms cannot be enforced, the rest still applies.',
            'If we do not enforce a term right away, we can still enforce it later.',
            'Your rights under the consumer laws where you live are not affected.',
          ],
        },
      ],
    },
    {
      id: 'contact',
      heading: 'Contact',
      blocks: [
        {
          kind: 'paragraph',
          text: 'For questions about these terms, please email the site operator at {contactEmail}.',
        },
      ],
    },
  ],
};
