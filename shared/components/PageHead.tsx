import { Helmet } from 'react-helmet-async';
import { ogImage } from '../content/images.generated';
import { site } from '../content/site';
import { usePageContext } from '../pageContext';

export interface PageHeadProps {
  title: string;
  description: string;
  /** The page's canonical path; omitted for pages that must not be indexed (404). */
  path?: string;
  noindex?: boolean;
}

/** Per-page metadata for browsers, search engines and link-preview bots; React 19 hoists it into <head>. */
export function PageHead({ title, description, path, noindex = false }: PageHeadProps) {
  const { siteUrl } = usePageContext();
  const url = path === undefined ? undefined : `${siteUrl}${path}`;
  return (
    <Helmet>
      <title>{title}</title>
      <meta name="description" content={description} />
      {noindex && <meta name="robots" content="noindex" />}
      {url && <link rel="canonical" href={url} />}
      <meta property="og:site_name" content={site.name} />
      <meta property="og:type" content="website" />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      {url && <meta property="og:url" content={url} />}
      <meta property="og:locale" content="en_US" />
      <meta property="og:image" content={`${siteUrl}${ogImage.src}`} />
      <meta property="og:image:type" content={ogImage.type} />
      <meta property="og:image:width" content={String(ogImage.width)} />
      <meta property="og:image:height" content={String(ogImage.height)} />
      <meta property="og:image:alt" content={site.ogImageAlt} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={`${siteUrl}${ogImage.src}`} />
      <meta name="twitter:image:alt" content={site.ogImageAlt} />
    </Helmet>
  );
}
