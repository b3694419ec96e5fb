import type { AffiliatePlacement } from '../affiliate';
import { AffiliateLink } from './AffiliateLink';

export interface CallToActionProps {
  placement: AffiliatePlacement;
  label: string;
  /** Centred under a section (the default), or aligned with text beside an image. */
  align?: 'center' | 'start';
}

/** A section's affiliate button on its own row. */
export function CallToAction({ placement, label, align = 'center' }: CallToActionProps) {
  return (
    <div className={align === 'start' ? 'section__actions section__actions--start' : 'section__actions'}>
      <AffiliateLink placement={placement} className="button button--primary">
        {label}
      </AffiliateLink>
    </div>
  );
}
