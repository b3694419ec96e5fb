import { createHash } from 'node:crypto';

/** A reach bar's width as a class per whole percent: the page's CSP allows no style attribute (ReachPages.tsx). */
const reachWidths = Array.from({ length: 101 }, (_, percent) => `.reach-${percent}{width:${percent}%}`).join('');

/** The admin page's whole stylesheet, inline; the page's own CSP allows exactly this text by its hash. */
export const adminCss = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
main{max-width:72rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;margin:0 0 .25rem}
h2{font-size:1.2rem;margin:2rem 0 .5rem}
h3{font-size:1rem;margin:1.25rem 0 .25rem}
.muted{color:#52606d}
.description{display:block;font-weight:400;font-size:.85rem}
.banner{border:2px solid #a61b1b;background:#fde8e8;color:#610404;padding:.75rem 1rem;border-radius:.5rem;margin:1rem 0}
.health{background:#fff;border:1px solid #cbd2d9;border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0}
form{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin:1rem 0}
label{display:flex;flex-direction:column;font-size:.9rem}
input,button{font:inherit;padding:.35rem .5rem;border:1px solid #7b8794;border-radius:.35rem}
button{background:#13315c;color:#fff;border-color:#13315c;cursor:pointer}
nav a{margin-right:1rem}
.ranges{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;margin:.5rem 0}
.ranges a{margin:0 .6rem 0 0;padding:.2rem 0;display:inline-block}
.ranges form{margin:.5rem 0}
summary{cursor:pointer;color:#0b4f9c;padding:.25rem 0}
.sections{font-size:.9rem;margin:.75rem 0;display:flex;flex-wrap:wrap;gap:.1rem .9rem}
.sections a{margin:0}
.card{background:#fff;border:1px solid #cbd2d9;border-radius:.5rem;padding:.75rem 1rem;min-width:0}
.card h2{margin:0 0 .5rem}
.cards{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));align-items:start;margin:1rem 0}
.card.wide{grid-column:1/-1}
.chart-card h2{font-size:1rem}
.chart-plot{display:flex}
.main-chart,.chart-axis{height:12.5rem;display:block;overflow:visible}
.main-chart{flex:1;min-width:0}
.chart-axis{flex:none}
.main-chart text,.chart-axis text{font-size:.7rem;fill:#52606d}
.main-chart rect{fill:#13315c}
.main-chart .axis{stroke:#7b8794}
.main-chart .grid{stroke:#d9dee4}
.chart-scale{display:flex;justify-content:space-between;gap:.5rem;font-size:.85rem;margin:.25rem 0}
.chart-key{font-size:.85rem;margin:0 0 .25rem}
.alert-mark{color:#a61b1b}
.metrics{font-size:.9rem;display:flex;flex-wrap:wrap;gap:.1rem .9rem;margin:.25rem 0}
.metrics a{margin:0}
.metrics a.chosen{font-weight:700;color:#1f2933}
.note{border-left:4px solid #a14b00;padding:.25rem .75rem;margin:.5rem 0;background:#fff8ec}
.top-rows{list-style:none;padding:0;margin:.25rem 0 .5rem}
.top-rows li{display:flex;justify-content:space-between;gap:.75rem;border-bottom:1px solid #e4e7eb;padding:.2rem 0}
.top-name{overflow-wrap:anywhere;min-width:0}
.top-figure{white-space:nowrap}
.scroll tbody th:first-child{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #e4e7eb}
a{color:#0b4f9c}
:focus-visible{outline:3px solid #f0b429;outline-offset:2px}
table{border-collapse:collapse;width:100%;background:#fff;margin:.5rem 0}
th,td{padding:.4rem .6rem;border-bottom:1px solid #e4e7eb;text-align:right;white-space:nowrap}
thead th{white-space:normal;vertical-align:bottom}
caption{text-align:left;padding:.25rem 0}
caption span{display:block;max-width:calc(100vw - 2rem)}
th:first-child,td:first-child{text-align:left;white-space:normal}
.scroll{overflow-x:auto;max-width:100%}
.amount{display:block}
th.day{white-space:nowrap;vertical-align:top}
th.name{text-align:left;white-space:normal}
td.verdict{text-align:left;white-space:normal;min-width:8em}
.break-even{display:block;color:#52606d;font-size:.85rem}
tr.losing th{color:#8a1c1c}
tr.ad th{padding-left:1.75rem;font-weight:400}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap;border:0}
.funnel{list-style:none;padding:0;margin:1rem 0;display:grid;gap:.75rem;grid-template-columns:repeat(auto-fit,minmax(9.5rem,1fr))}
.funnel li{background:#fff;border:1px solid #cbd2d9;border-radius:.5rem;padding:.6rem .75rem;display:flex;flex-direction:column;min-width:0;overflow-wrap:anywhere}
.funnel a.box{display:flex;flex-direction:column;flex:1;margin:-.6rem -.75rem;padding:.6rem .75rem;border-radius:.5rem;color:inherit;text-decoration:none}
.funnel a.chosen{box-shadow:inset 0 0 0 3px #13315c}
.funnel .change{font-size:.85rem;font-weight:600;line-height:1.3}
.change.better{color:#1e6b34}
.change.worse{color:#a61b1b}
.change.same{color:#52606d}
.funnel .figure{font-size:1.5rem;font-weight:700;line-height:1.2;color:#13315c}
.funnel .label{font-weight:600}
.funnel .muted{font-size:.9rem}
.reach-pages{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));align-items:start}
.banner p,.incidents p{margin:.25rem 0}
.incidents{list-style:none;padding:0;margin:.5rem 0}
.incidents li{background:#fff;border:1px solid #cbd2d9;border-radius:.5rem;padding:.5rem .75rem;margin:.5rem 0;overflow-wrap:anywhere}
.release-mark{color:#a14b00}
.release-head{display:block;position:sticky;left:.6rem;max-width:calc(100vw - 3.2rem)}
.placements th:first-child{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #e4e7eb}
th.long{min-width:6.5em}
.reach-page{background:#fff;border:1px solid #cbd2d9;border-radius:.5rem;padding:.5rem .75rem;min-width:0;overflow-wrap:anywhere}
.reach-page h3{margin:0 0 .25rem}
.reach-page p{margin:.25rem 0;font-size:.9rem}
table.reach{margin:.25rem 0 0}
table.reach th,table.reach td{padding:.25rem .4rem}
table.reach thead th{text-align:left}
table.reach th:first-child{padding-left:0}
table.reach tbody th{font-weight:400}
table.reach td{text-align:left;width:60%}
.reach-figure{display:inline-block;width:3em;text-align:right;margin-right:.5rem;font-variant-numeric:tabular-nums}
.reach-bar{display:inline-block;vertical-align:middle;width:calc(100% - 3.5em);height:.7rem;background:#e4e7eb;border-radius:.2rem;overflow:hidden}
.reach-bar span{display:block;height:100%;background:#13315c}
${reachWidths}
@media (max-width:35rem){main{padding:.75rem .75rem 2rem}.main-chart,.chart-axis{height:5.75rem}h1{font-size:1.35rem}.intro{font-size:.85rem;margin:0}.funnel li{padding:.5rem .6rem}.funnel a.box{margin:-.5rem -.6rem;padding:.5rem .6rem}.funnel .muted{font-size:.8rem}.funnel .change{font-size:.8rem}.funnel{grid-template-columns:repeat(2,minmax(0,1fr));gap:.5rem}.funnel .figure{font-size:1.25rem}.reach-pages{grid-template-columns:1fr}.cards{grid-template-columns:1fr}.card{padding:.6rem .6rem}.card caption span{max-width:calc(100vw - 3.5rem)}h2{margin-top:1.5rem}}
`;

export const adminCssHash = `'sha256-${createHash('sha256').update(adminCss).digest('base64')}'`;
