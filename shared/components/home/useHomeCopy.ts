import { homeCopy, type HomeCopy } from '../../content/homeCopy';
import { usePageContext } from '../../pageContext';

/** The home page's words for this render: a variant's while an experiment shows one, else the content's own. */
export function useHomeCopy(): HomeCopy {
  return usePageContext().homeCopy ?? homeCopy;
}
