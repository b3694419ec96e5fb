import { useBrowserAndSite } from '../support/browser';

const context = useBrowserAndSite();

describe.each(['/privacy-policy', '/terms-conditions', '/about-us'])('the long-form page %s at desktop width', (path) => {
  it('sets its text at a reading measure of about 65 to 75 characters and a comfortable line height', async () => {
    const { page } = await context.open(path);
    const { charsPerLine, lineHeightRatio } = await page.evaluate(() => {
      // The longest paragraph; each character's line is read from its layout box, and the last line
      // (usually short) is left out, so the figure is the real measure of the full lines.
      const paragraph = [...document.querySelectorAll('main p')].sort((a, b) => (b.textContent?.length ?? 0) - (a.textContent?.length ?? 0))[0]!;
      const style = getComputedStyle(paragraph);
      const lineHeight = parseFloat(style.lineHeight);
      const perLine = new Map<number, number>();
      const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let index = 0; index < (node.textContent ?? '').length; index += 1) {
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          perLine.set(top, (perLine.get(top) ?? 0) + 1);
        }
      }
      const fullLines = [...perLine.entries()].sort(([a], [b]) => a - b).slice(0, -1).map(([, count]) => count);
      return {
        charsPerLine: fullLines.reduce((sum, count) => sum + count, 0) / Math.max(1, fullLines.length),
        lineHeightRatio: lineHeight / parseFloat(style.fontSize),
      };
    });
    expect(charsPerLine).toBeGreaterThanOrEqual(62);
    expect(charsPerLine).toBeLessThanOrEqual(78);
    expect(lineHeightRatio).toBeGreaterThanOrEqual(1.5);
    await page.close();
  });
});
