import type { BrowserContext, Locator, Page } from '@playwright/test';

// What the scale benches (history and gallery) measure in the page: the longest main-thread task while
// the user scrolls a long list, and the JS heap the page keeps.

type LongestWindow = { __longest: number };

/** From the next navigation on, the page keeps the duration of its longest main-thread task. */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as LongestWindow;
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/**
 * Scrolls `scroller` by mouse wheel (60 notches of `stepPx`) once start-up has settled (`settleMs`), and answers the
 * longest task from then on (over 50 ms counts as long; 0 means none) and how far it scrolled. Throws
 * when the list did not scroll: a figure from a list that never moved would mean nothing.
 */
export async function longestTaskWhileScrolling(
  page: Page,
  scroller: Locator,
  stepPx: number,
  what: string,
  settleMs = 2000,
): Promise<{ longest: number; scrolledPx: number }> {
  // The collection first: its own long task is reported (asynchronously) before the settling ends.
  await collectGarbageOfEarlierPages(page);
  await page.waitForTimeout(settleMs);
  await page.evaluate(() => ((window as unknown as LongestWindow).__longest = 0));
  await pointAt(page, scroller, what);
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, stepPx);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(500);
  const longest = await page.evaluate(() => (window as unknown as LongestWindow).__longest);
  const scrolledPx = await scroller.evaluate((el) => el.scrollTop);
  if (scrolledPx < 10_000) throw new Error(`The ${what} did not scroll (scrollTop ${scrolledPx}).`);
  return { longest, scrolledPx };
}

/**
 * The mouse over the visible part of `scroller`, which is brought into view first: a wheel scrolls what is
 * under the pointer. The History starts below the Queue's panel (since the queue's UI, c2cd135), its
 * bottom below the fold at 1280x900: the middle of its box was off the page, so the wheel scrolled the
 * page and the list never moved ("did not scroll"). Throws if the pointer is still not over the list.
 */
async function pointAt(page: Page, scroller: Locator, what: string): Promise<void> {
  await scroller.scrollIntoViewIfNeeded();
  const box = (await scroller.boundingBox())!;
  const height = page.viewportSize()?.height ?? Infinity;
  const top = Math.max(box.y, 0);
  const bottom = Math.min(box.y + box.height, height);
  const x = box.x + box.width / 2;
  const y = (top + bottom) / 2;
  const over = await scroller.evaluate(
    (el, [px, py]) => {
      const hit = document.elementFromPoint(px!, py!);
      return hit !== null && el.contains(hit);
    },
    [x, y],
  );
  if (bottom - top < 100 || !over)
    throw new Error(`The ${what} is not under the pointer (${Math.round(bottom - top)} px of it in view).`);
  await page.mouse.move(x, y);
}

/**
 * A full garbage collection before the scroll is measured. The benches seed their history by importing
 * it in the same tab and then reloading: the reloaded page runs in the same renderer, whose heap still
 * holds what the earlier page left: some 490 MB at 50,000 tasks when the file was handed over as a
 * buffer (Playwright passes it into the page as base64; the gallery bench now hands over a file on disk,
 * and the import's own peak, galleryImportPeakHeap, is some 110 MB), against 94 MB the page keeps. Its
 * collection, one task of 60-300 ms, otherwise falls inside the scrolling window, though it is the
 * earlier page's garbage: a studio opened on a history already stored has none of it.
 */
async function collectGarbageOfEarlierPages(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
}

/** The JS heap the page keeps after a garbage collection, in MB (what it keeps, not what it has yet to collect). */
export async function jsHeapUsedMb(context: BrowserContext, page: Page): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / (1024 * 1024);
}
