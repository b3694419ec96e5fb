/** Copy for the error pages the server sends (the spec defines none; these are ours). */
export interface ErrorPageCopy {
  title: string;
  heading: string;
  text: string;
  homeLabel: string;
}

export const notFound: ErrorPageCopy = {
  title: 'Page not found | Auctions Guide',
  heading: 'We could not find that page',
  text: 'The address may be mistyped, or the page may have moved. Everything on this site starts from the home page.',
  homeLabel: 'Go to the home page',
};

export const badRequest: ErrorPageCopy = {
  title: 'Bad request | Auctions Guide',
  heading: 'We could not read that address',
  text: 'The link you followed contains characters that are not valid in a web address. Please check it, or start again from the home page.',
  homeLabel: 'Go to the home page',
};

export const serverError: ErrorPageCopy = {
  title: 'Something went wrong | Auctions Guide',
  heading: 'Something went wrong on our side',
  text: 'The page could not be shown just now. Please try again in a moment, or start again from the home page.',
  homeLabel: 'Go to the home page',
};
