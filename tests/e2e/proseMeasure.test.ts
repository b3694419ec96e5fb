import { useBrowserAndSite, viewports, waitForIslands } from '../support/browser';

const context = useBrowserAndSite();

describe.each(['/privacy-policy', '/terms-conditions', '/about-us'])('the long-form page %s at desktop width', (path) => {
  it('sets its text at a reading measure of about 65 to 75 characters and a comfortable line height', async () => {
    const page = await context.browser.newPage();
    await page.setViewport(viewports.desktop);
    await page.goto(context.site.url + path, { waitUntil: 'load' });
    await waitForIslands(page);
    const { charsPerLine, lineHeightRatio } = await page.evaluate(() => {
      // The longest paragraph, so that short last lines weigh little in the average.
      const paragraph = [...document.querySelectorAll('main p')].sort((a, b) => (b.textContent?.length ?? 0) - (a.textContent?.length ?? 0))[0]!;
      const style = getComputedStyle(paragraph);
      const lineHeight = parseFloat(style.lineHeight);
      const lines = Math.round(paragraph.getBoundingClientRect().height / lineHeight);
      const full = (paragraph.textContent ?? '').length;
      return { charsPerLine: full / Math.max(1, lines - 0.5), lineHeightRatio: lineHeight / parseFloat(style.fontSize) };
    });
    expect(charsPerLine).toBeGreaterThanOrEqual(60);
    expect(charsPerLine).toBeLessThanOrEqual(80);
    expect(lineHeightRatio).toBeGreaterThanOrEqual(1.5);
    await page.close();
  });
});
