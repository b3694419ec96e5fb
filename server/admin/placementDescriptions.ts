import type { AffiliatePlacement } from '../../shared/affiliate';

/** Where each placement sits on the home page, so the operator can tell the rows apart. */
export const placementDescriptions: Record<AffiliatePlacement, string> & Record<string, string | undefined> = {
  hero: 'top of the page, under the headline',
  explainer: 'the “what is it” section',
  'start-learning': 'the “how it works” steps',
  'check-auctions-image': 'the auction picture',
  'check-auctions-button': 'the button under the auction picture',
  bonus: 'the bonus section',
};
