import { ogImage } from '../content/images.generated';
import { site } from '../content/site';
import { usePageContext } from '../pageContext';

/**
 * JSON-LD for the Organization and the WebSite, nothing more: no FAQPage (Google stopped showing FAQ
 * rich results) and no Review or rating markup (self-serving reviews earn no stars and invite trouble).
 * A data block is not executed, so the strict CSP does not apply to it.
 */
export function StructuredData() {
  const { siteUrl } = usePageContext();
  const data = {
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'Organization', '@id': `${siteUrl}/#organization`, name: site.name, url: `${siteUrl}/`, logo: `${siteUrl}/icon-512.png`, image: `${siteUrl}${ogImage.src}` },
      { '@type': 'WebSite', '@id': `${siteUrl}/#website`, name: site.name, url: `${siteUrl}/`, description: site.defaultDescription, inLanguage: 'en-US', publisher: { '@id': `${siteUrl}/#organization` } },
    ],
  };
  // "<" escaped so no string in the data can close the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
