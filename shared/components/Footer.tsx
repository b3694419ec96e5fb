import { site } from '../content/site';

/** The site footer: disclaimers, the policy links and the copyright line. */
export function Footer() {
  const { footer } = site;
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p className="site-footer__brand">{site.name}</p>
        <p>{footer.disclaimer}</p>
        <p>{footer.nonAffiliation}</p>
        <p>{footer.commission}</p>
        <nav className="site-footer__links" aria-label="Legal">
          <a href="/privacy-policy">{footer.privacyLabel}</a>
          <a href="/terms-conditions">{footer.termsLabel}</a>
        </nav>
        <p className="site-footer__copyright">{footer.copyright}</p>
      </div>
    </footer>
  );
}
