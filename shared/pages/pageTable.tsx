import type { ReactElement } from 'react';
import { about } from '../content/about';
import { privacyPolicy } from '../content/privacyPolicy';
import { terms } from '../content/terms';
import { paths, type PagePath } from '../routes';
import { HomePage } from './HomePage';
import { ProsePage } from './ProsePage';

/** Route path → the page it shows. Server-only: pages never travel to the browser as code. */
export const pageTable: Record<PagePath, () => ReactElement> = {
  [paths.home]: () => <HomePage />,
  [paths.privacyPolicy]: () => <ProsePage page={privacyPolicy} />,
  [paths.terms]: () => <ProsePage page={terms} />,
  [paths.about]: () => <ProsePage page={about} />,
};
