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
        <nav className="site-footer__links" aria-label={footer.linksLabel}>
          {footer.links.map((link) => (
            <a key={link.href} href={link.href}>
              {link.label}
            </a>
          ))}
        </nav>
        <p className="site-footer__copyright">{footer.copyright}</p>
      </div>
    </footer>
  );
}
