import type { Page } from '@playwright/test';

// Whether the connect screen was ever visible on the way to the studio: a reload with a stored key must
// go straight to the studio (or to the studio's frame), never through the prerendered connect form.

/** From the next navigation on, records every animation frame in which the connect form could be seen. */
export async function watchConnectScreen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: number[] = [];
    Object.assign(window, { connectScreenSeen: seen });
    const look = () => {
      const form = document.querySelector('form[aria-labelledby="connect-title"]');
      if (form?.checkVisibility({ visibilityProperty: true })) seen.push(performance.now());
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}

/** The times (ms since the navigation) of the frames in which watchConnectScreen saw the connect form. */
export const connectScreenSeen = (page: Page): Promise<number[]> =>
  page.evaluate(() => (window as unknown as { connectScreenSeen: number[] }).connectScreenSeen);
