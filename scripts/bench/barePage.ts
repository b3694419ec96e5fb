import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * The floor the bench measures every route against, in the same run and so on the same machine at the
 * same moment: a page of plain paragraphs with no stylesheet and no script, as long as the home page's
 * words, with a native popover button and a <details> to tap (a browser's own answer to a tap, with no
 * page work in its way). A figure close to this page's is as good as this machine can show; a noisy
 * machine moves both.
 */
const paragraph =
  'Government, repossession and seizure auctions sell cars to the public across the country. A beginner who learns where they are, how they work and how to bid with care can buy a sound car for less, and one who does not can buy a flood car. ';

export function barePageHtml(): string {
  const paragraphs = Array.from({ length: 28 }, (_unused, index) => `<p>${index + 1}. ${paragraph.repeat(2)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A bare page</title><meta name="description" content="Plain paragraphs: the bench's floor."></head>
<body>
<button type="button" popovertarget="menu" id="menu-button">Menu</button>
<div id="menu" popover><a href="#end">To the end</a></div>
<details id="question"><summary>A question</summary><p>Its answer.</p></details>
${paragraphs}
<p id="end">The end.</p>
</body>
</html>
`;
}

/** Serves the bare page at every path on a free loopback port. */
export async function startBarePage(): Promise<{ url: string; close(): Promise<void> }> {
  const html = barePageHtml();
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(html);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
