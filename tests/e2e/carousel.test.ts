import type { HTTPRequest, Page } from 'puppeteer-core';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { useBrowserAndSite, viewports, type PageProblems, type Viewport } from '../support/browser';

/**
 * The carousel's behaviour is a timing, so these tests measure real time, with stated tolerances:
 * a timer may fire late under load, never early, so the window is [expected - 50 ms, expected + 1000 ms].
 * Every interval is measured on the page's own clock (performance.now), from the event that starts it to
 * the first look that sees the slide changed: measured from the test's side, the moment a click or a
 * pointer move returned over the DevTools connection was up to a tenth of a second after the page had
 * taken it on a busy machine, and the 10 s pause read 13,359 ms of its 13,500.
 */
const early = 50;
const late = 1000;

const context = useBrowserAndSite();

async function openCarousel(options: { reducedMotion?: boolean; viewport?: Viewport } = {}): Promise<{ page: Page; problems: PageProblems }> {
  const { page, problems } = await context.open('/', options);
  // Keep the pointer well away from the reviews, so hover never pauses it by accident.
  await page.mouse.move(5, 5);
  await page.$eval('#reviews', (element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.mouse.move(5, 5);
  return { page, problems };
}

const indexOf = (page: Page) => page.$eval('.carousel', (element) => Number(element.getAttribute('data-index')));

/** Waits for the shown slide to change from `from`; gives the new index and when the page first saw it (its performance.now()). */
async function nextChange(page: Page, from: number, timeout: number): Promise<{ index: number; at: number }> {
  const seen = await page.waitForFunction(
    (previous) => Number(document.querySelector('.carousel')!.getAttribute('data-index')) !== previous && performance.now(),
    { timeout, polling: 20 },
    from,
  );
  return { index: await indexOf(page), at: (await seen.jsonValue()) as number };
}

/**
 * Notes on the page's clock when the next `type` event reaches the window, in the capture phase, before
 * the carousel's own handlers (which read the clock after it); resolves to a reader of that moment.
 */
async function markNext(page: Page, type: 'click' | 'pointerout'): Promise<() => Promise<number>> {
  const key = `mark-${type}-${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    (type, key) => window.addEventListener(type, () => Object.assign(window, { [key]: performance.now() }), { capture: true, once: true }),
    type,
    key,
  );
  return async () => {
    const at = await page.evaluate((key) => (window as unknown as Record<string, number | undefined>)[key], key);
    if (at === undefined) throw new Error(`no ${type} reached the page`);
    return at;
  };
}

describe('the review carousel in a browser', () => {
  let page: Page;
  let problems: PageProblems;

  beforeEach(async () => {
    ({ page, problems } = await openCarousel());
  });

  afterEach(async () => {
    expect(problems.messages).toEqual([]);
    await page.close();
  });

  it('starts on the first slide, labelled "1 of 6", with its dot marked current', async () => {
    expect(await indexOf(page)).toBe(0);
    const slides = await page.$$eval('.carousel__slide', (elements) => elements.map((element) => [element.getAttribute('aria-label'), element.getAttribute('aria-hidden')]));
    expect(slides[0]).toEqual(['Slide 1 of 6', 'false']);
    expect(slides.slice(1).every(([, hidden]) => hidden === 'true')).toBe(true);
    expect(await page.$$eval('.carousel__dot', (dots) => dots.map((dot) => dot.getAttribute('aria-current')))).toEqual(['true', null, null, null, null, null]);
  });

  it('advances by itself every 3.5 s', async () => {
    const first = await nextChange(page, 0, 3500 + late + 1000);
    expect(first.index).toBe(1);
    const second = await nextChange(page, 1, 3500 + late);
    expect(second.index).toBe(2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(3500 - early);
    expect(second.at - first.at).toBeLessThanOrEqual(3500 + late);
  });

  it('goes next and previous, wrapping, and jumps with the dots', async () => {
    await page.click('.carousel__arrow--previous');
    expect(await indexOf(page)).toBe(5);
    await page.waitForSelector('.carousel__arrow--next[aria-disabled="false"]');
    await page.click('.carousel__arrow--next');
    expect(await indexOf(page)).toBe(0);
    await page.waitForSelector('.carousel__dot[aria-disabled="false"]');
    await page.click('.carousel__dot:nth-child(4)');
    expect(await indexOf(page)).toBe(3);
    expect(await page.$eval('.carousel__dot:nth-child(4)', (dot) => dot.getAttribute('aria-current'))).toBe('true');
  });

  it('locks the controls for the 0.5 s fade', async () => {
    // Both clicks in one task on the page, so the second falls within the lock however busy the machine
    // (two clicks sent over DevTools came 0.5 s apart once under load), and the lock's length read on the
    // page's clock from the button's own changes: from the test's side, it read "false" once, the lock
    // already over by the time the answer came back.
    const clickedAt = await page.evaluate(() => {
      const next = document.querySelector<HTMLElement>('.carousel__arrow--next')!;
      const changes: { value: string | null; at: number }[] = [];
      new MutationObserver(() => changes.push({ value: next.getAttribute('aria-disabled'), at: performance.now() })).observe(next, { attributeFilter: ['aria-disabled'] });
      Object.assign(window, { lockChanges: changes });
      const at = performance.now();
      next.click();
      next.click();
      return at;
    });
    expect(await indexOf(page)).toBe(1);
    const unlocked = await page.waitForFunction(
      () => {
        const changes = (window as unknown as { lockChanges: { value: string | null; at: number }[] }).lockChanges;
        const locked = changes.findIndex((change) => change.value === 'true');
        const freed = changes.findIndex((change, at) => at > locked && locked >= 0 && change.value === 'false');
        return freed >= 0 && { lockedAt: changes[locked]!.at, freedAt: changes[freed]!.at };
      },
      { timeout: 500 + late + 5_000, polling: 20 },
    );
    const { lockedAt, freedAt } = (await unlocked.jsonValue()) as { lockedAt: number; freedAt: number };
    expect(lockedAt - clickedAt).toBeLessThanOrEqual(late);
    expect(freedAt - clickedAt).toBeGreaterThanOrEqual(500 - early);
    expect(freedAt - clickedAt).toBeLessThanOrEqual(500 + late);
    await page.click('.carousel__arrow--next');
    expect(await indexOf(page)).toBe(2);
  });

  it('pauses auto-advance for 10 s after a manual control, then resumes', async () => {
    const clicked = await markNext(page, 'click');
    await page.click('.carousel__arrow--next');
    await page.mouse.move(5, 5);
    const change = await nextChange(page, 1, 10_000 + 3500 + late);
    expect(change.index).toBe(2);
    expect(change.at - (await clicked())).toBeGreaterThanOrEqual(10_000 + 3500 - early);
  }, 30_000);

  it('pauses while the pointer is over the reviews and resumes when it leaves', async () => {
    const box = (await (await page.$('.carousel__slides'))!.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect(nextChange(page, 0, 3500 + late)).rejects.toThrow(/exceeded/);
    const left = await markNext(page, 'pointerout');
    await page.mouse.move(5, 5);
    const change = await nextChange(page, 0, 3500 + late);
    expect(change.index).toBe(1);
    expect(change.at - (await left())).toBeGreaterThanOrEqual(3500 - early);
  }, 30_000);

  it('stops with Pause and restarts with Play, the button first in the carousel’s tab order', async () => {
    const order = await page.$$eval('.carousel button', (buttons) => buttons.map((button) => button.className));
    expect(order[0]).toBe('carousel__play');
    expect(await page.$eval('.carousel__play', (button) => button.getAttribute('aria-label'))).toBe('Pause slideshow');
    await page.click('.carousel__play');
    expect(await page.$eval('.carousel__play', (button) => button.getAttribute('aria-label'))).toBe('Play slideshow');
    expect(await page.$eval('.carousel__slides', (element) => element.getAttribute('aria-live'))).toBe('polite');
    await page.mouse.move(5, 5);
    await expect(nextChange(page, 0, 3500 + late)).rejects.toThrow(/exceeded/);
    await page.click('.carousel__play');
    await page.mouse.move(5, 5);
    expect((await nextChange(page, 0, 3500 + late)).index).toBe(1);
  }, 30_000);

  it('pauses while keyboard focus is inside, like hover', async () => {
    await page.focus('.carousel__play');
    await page.keyboard.press('Tab');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('carousel__play');
    await expect(nextChange(page, 0, 3500 + late)).rejects.toThrow(/exceeded/);
  }, 30_000);
});

/**
 * The island hydrates as the reviews near the viewport, so a pointer may already rest on them: a mouse
 * there must hold rotation whatever the device says of its main pointer, and a finger's tap (which leaves
 * `:hover` behind) must not. Each case runs in a browser that answers `(hover: hover)` (Blink's settings
 * for a mouse) and in one that answers `(hover: none)`, as headless Chromium, a tablet with a mouse or a
 * touch-screen laptop do.
 */
const { island, islandSrc, hydrated } = clientAttributes;
const wrapper = `[${island}="ReviewCarousel"]`;

/**
 * Holds every request for the island's own chunk until `release`, so the pointer is surely on the
 * reviews before the island can hydrate: it hydrates as soon as it nears the viewport, and the pointer
 * can only be on it once it is in view.
 */
async function holdIslandChunk(page: Page): Promise<{ requested: Promise<void>; release: () => Promise<void> }> {
  const src = await page.$eval(wrapper, (element, name: string) => element.getAttribute(name), islandSrc);
  expect(src).toBeTruthy();
  const held: HTTPRequest[] = [];
  let holding = true;
  let noticed!: () => void;
  const requested = new Promise<void>((resolve) => (noticed = resolve));
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (holding && new URL(request.url()).pathname === src) {
      held.push(request);
      noticed();
    } else void request.continue();
  });
  const release = async () => {
    holding = false;
    await Promise.all(held.map((request) => request.continue()));
  };
  return { requested, release };
}

/** Scrolls the reviews into view, puts the pointer on them with `arrive` while the island's chunk is held, then lets it hydrate. */
async function hydrateUnderPointer(page: Page, arrive: (x: number, y: number) => Promise<void>): Promise<void> {
  expect(await page.$eval(wrapper, (element, name: string) => element.getAttribute(name), hydrated)).toBe('false');
  const chunk = await holdIslandChunk(page);
  await page.$eval('#reviews', (element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await chunk.requested;
  const box = (await (await page.$('.carousel__slides'))!.boundingBox())!;
  await arrive(box.x + box.width / 2, box.y + box.height / 2);
  expect(await page.$eval('#reviews', (element) => element.matches(':hover'))).toBe(true);
  await chunk.release();
  await page.waitForSelector(`${wrapper}[${hydrated}="true"]`);
}

const rotatingOf = (page: Page) => page.$eval('.carousel', (element) => element.getAttribute('data-rotating'));

describe.each([
  ['(hover: hover)', { mouse: true }],
  ['(hover: none)', {}],
])('the review carousel hydrating under a resting mouse, the device answering %s', (media, launch) => {
  const context = useBrowserAndSite({}, launch);

  it(`holds rotation at hydration, 8 times in a row`, async () => {
    for (let run = 0; run < 8; run++) {
      const { page, problems } = await context.open('/', { islands: 'scheduled' });
      expect(await page.evaluate((query) => matchMedia(query).matches, media)).toBe(true);
      await page.mouse.move(5, 5);
      await hydrateUnderPointer(page, (x, y) => page.mouse.move(x, y));
      expect({ run, rotating: await rotatingOf(page) }).toEqual({ run, rotating: 'false' });
      expect(problems.messages).toEqual([]);
      await page.close();
    }
  }, 90_000);

  it('changes nothing for 6 s, and starts a fresh 3.5 s cycle when the pointer leaves', async () => {
    const { page, problems } = await context.open('/', { islands: 'scheduled' });
    await page.mouse.move(5, 5);
    await hydrateUnderPointer(page, (x, y) => page.mouse.move(x, y));
    expect(await rotatingOf(page)).toBe('false');
    await expect(nextChange(page, 0, 6000)).rejects.toThrow(/exceeded/);
    const left = await markNext(page, 'pointerout');
    await page.mouse.move(5, 5);
    const change = await nextChange(page, 0, 3500 + late);
    expect(change.index).toBe(1);
    expect(change.at - (await left())).toBeGreaterThanOrEqual(3500 - early);
    expect(problems.messages).toEqual([]);
    await page.close();
  }, 30_000);
});

describe('the review carousel hydrating where a finger tapped', () => {
  const context = useBrowserAndSite();

  it('rotates although the tap left :hover on the reviews, 4 times in a row', async () => {
    for (let run = 0; run < 4; run++) {
      const { page, problems } = await context.open('/', { islands: 'scheduled', viewport: viewports.phone });
      await hydrateUnderPointer(page, (x, y) => page.touchscreen.tap(x, y));
      expect({ run, rotating: await rotatingOf(page) }).toEqual({ run, rotating: 'true' });
      if (run === 0) expect((await nextChange(page, 0, 3500 + late)).index).toBe(1);
      expect(problems.messages).toEqual([]);
      await page.close();
    }
  }, 60_000);
});

describe('the review carousel under prefers-reduced-motion', () => {
  it('starts paused and changes slides without a fade', async () => {
    const { page, problems } = await openCarousel({ reducedMotion: true });
    expect(await page.$eval('.carousel__play', (button) => button.getAttribute('aria-label'))).toBe('Play slideshow');
    expect(await page.$eval('.carousel__slides', (element) => element.getAttribute('data-fade'))).toBe('false');
    await page.click('.carousel__arrow--next');
    await page.click('.carousel__arrow--next');
    expect(await indexOf(page)).toBe(2);
    expect(await page.$eval('.carousel__slide[data-active="true"]', (slide) => getComputedStyle(slide).transitionDuration)).toBe('0s');
    expect(problems.messages).toEqual([]);
    await page.close();
  });
});

describe('the review carousel at phone width', () => {
  it('fits the screen and its arrows and dots work by touch', async () => {
    const { page, problems } = await openCarousel({ viewport: viewports.phone });
    const nav = (await (await page.$('.carousel__nav'))!.boundingBox())!;
    expect(nav.x).toBeGreaterThanOrEqual(0);
    expect(nav.x + nav.width).toBeLessThanOrEqual(375);
    await page.tap('.carousel__arrow--next');
    expect(await indexOf(page)).toBe(1);
    await page.waitForSelector('.carousel__dot[aria-disabled="false"]');
    await page.tap('.carousel__dot:nth-child(6)');
    expect(await indexOf(page)).toBe(5);
    expect(problems.messages).toEqual([]);
    await page.close();
  });
});
