import { adminCss } from '../admin/adminStyles';
import { parseStylesheet } from './cssToStyleAttributes';

/**
 * The digest looks like /admin: its stylesheet, then a few rules of the e-mail's own. E-mail clients
 * lay out neither grid nor flex reliably, so the funnel's figures become inline blocks that wrap on a
 * phone; the page's <main> becomes a div, which every client knows. The comparison's cells are padded
 * less and its type a little smaller, so its four columns fit a 375 px phone with a busy week's figures.
 */
const digestOnlyCss = `
.digest{max-width:72rem;margin:0 auto;padding:1rem 1rem 2rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
.funnel{display:block;margin:1rem 0 .5rem}
.funnel li{display:inline-block;vertical-align:top;width:9.5rem;margin:0 .5rem .5rem 0}
.funnel .figure{display:block}
.funnel .label{display:block}
.funnel .muted{display:block}
.compare{font-size:.875rem}
.compare th,.compare td{padding:.35rem .25rem}
.card{margin:1rem 0}
.links{margin-top:2rem}
`;

/** Read once: the digest is written once a week, the stylesheet never changes while the server runs. */
export const digestStylesheet = parseStylesheet(adminCss + digestOnlyCss);
