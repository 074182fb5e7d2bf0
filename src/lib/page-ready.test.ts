import { afterEach, describe, expect, it } from 'vitest';
import { stylesLoaded } from './page-ready';

// The studio draws nothing before the stylesheet index.html's loader added has loaded (or failed).

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe('stylesLoaded', () => {
  afterEach(() => document.head.querySelectorAll('link').forEach((link) => link.remove()));

  it('resolves at once when the loader added no stylesheet (the dev server)', async () => {
    expect(await settled(stylesLoaded())).toBe(true);
  });

  it('waits for the stylesheet to load, or to fail', async () => {
    for (const outcome of ['load', 'error'] as const) {
      const link = document.createElement('link');
      link.setAttribute('data-studio-styles', '');
      // No sheet yet: still loading.
      Object.defineProperty(link, 'sheet', { value: null });
      document.head.append(link);
      const ready = stylesLoaded();
      expect(await settled(ready)).toBe(false);
      link.dispatchEvent(new Event(outcome));
      expect(await settled(ready)).toBe(true);
      link.remove();
    }
  });
});
