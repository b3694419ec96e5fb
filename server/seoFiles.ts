import { pagePaths } from '../shared/routes';
import { createStaticEntry, type StaticEntry } from './staticEntry';

const cache = 'public, max-age=3600';

/** robots.txt and sitemap.xml, which name absolute URLs and so depend on SITE_URL. */
export function seoFiles(siteUrl: string): Map<string, StaticEntry> {
  const robots = `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
  const urls = pagePaths.map((path) => `  <url><loc>${siteUrl}${path}</loc></url>`).join('\n');
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Map([
    ['/robots.txt', createStaticEntry(Buffer.from(robots), { contentType: 'text/plain; charset=utf-8', cacheControl: cache })],
    ['/sitemap.xml', createStaticEntry(Buffer.from(sitemap), { contentType: 'application/xml; charset=utf-8', cacheControl: cache })],
  ]);
}
