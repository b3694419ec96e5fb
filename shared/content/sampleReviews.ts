/**
 * The words on the six sample review cards of the home page carousel. There are no real customer
 * reviews yet, and invented testimonials are not allowed (U.S. FTC rules on endorsements), so each card
 * says SAMPLE REVIEW on the image, and its alt text says it is a sample.
 *
 * The cards are drawn in art/review-1.svg … art/review-6.svg; the image pipeline
 * (scripts/build-images.ts) fills these words into them. The quote is given line by line, as the card
 * shows it: each art/review-N.svg has one text line per quote line (the bubble is drawn to fit them),
 * and the pipeline stops if a line is too wide for the bubble or the counts differ.
 */

export interface SampleReview {
  /** First name and last-name initial, e.g. "Marcus T."; the avatar shows the initials. */
  name: string;
  state: string;
  quote: string[];
  vehicle: string;
  venue: string;
  price: string;
}

export const sampleReviews: SampleReview[] = [
  {
    name: 'Marcus T.',
    state: 'Ohio',
    quote: [
      'Bought a 2016 Honda Civic at a',
      'county auction for $2,400. The',
      'inspection lesson stopped me bidding',
      'on a flood car the week before.',
    ],
    vehicle: '2016 Honda Civic',
    venue: 'County auction',
    price: '$2,400',
  },
  {
    name: 'Priya S.',
    state: 'Texas',
    quote: [
      'Won a 2014 Ford F-150 at a police seizure',
      'auction for $6,800. I wrote my max bid',
      'down before the sale and stuck to it.',
    ],
    vehicle: '2014 Ford F-150',
    venue: 'Police seizure auction',
    price: '$6,800',
  },
  {
    name: 'Dennis W.',
    state: 'Florida',
    quote: [
      'My first auction ever. I checked the',
      'history report first, then got a 2015',
      'Toyota Camry from a repo sale for $3,900.',
    ],
    vehicle: '2015 Toyota Camry',
    venue: 'Repossession sale',
    price: '$3,900',
  },
  {
    name: 'Angela R.',
    state: 'Arizona',
    quote: [
      'Found a city fleet auction 20 minutes',
      'from home. A 2013 Chevy Tahoe for',
      '$5,200 that only needed brakes and tires.',
    ],
    vehicle: '2013 Chevy Tahoe',
    venue: 'City fleet auction',
    price: '$5,200',
  },
  {
    name: 'Luis M.',
    state: 'Georgia',
    quote: [
      'The bidding lessons helped a lot. I won',
      'a 2017 Nissan Altima at a state surplus',
      'auction for $4,100 and drove it home.',
    ],
    vehicle: '2017 Nissan Altima',
    venue: 'State surplus auction',
    price: '$4,100',
  },
  {
    name: 'Karen B.',
    state: 'Michigan',
    quote: [
      'Bought a 2012 Subaru Outback',
      'at a government surplus auction',
      'for $2,950. The title paperwork',
      'was easier than I expected.',
    ],
    vehicle: '2012 Subaru Outback',
    venue: 'Government surplus auction',
    price: '$2,950',
  },
];

/**
 * The alt text of sample card `slot` (1-based): says it is a sample and gives the words the card shows,
 * so a screen reader hears what a sighted visitor reads.
 */
export function sampleReviewAlt(slot: number): string {
  const review = sampleReviews[slot - 1];
  if (!review) throw new Error(`There is no sample review ${slot}`);
  return `Sample review ${slot} of ${sampleReviews.length}, an example, not a real customer’s words: “${review.quote.join(' ')}” ${review.name}, ${review.state}. ${review.vehicle}, ${review.venue}, ${review.price}.`;
}
