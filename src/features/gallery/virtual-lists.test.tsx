import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type * as ReactVirtual from '@tanstack/react-virtual';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshDatabase, stubLayout, manyEntries, scrollBy } from '../../test/gallery-test-utils';
import { renderGallery, stubGridWidth } from '../../test/gallery-view-setup';

// The Gallery grid while it scrolls (no long task; the History list's: history-virtual-list.test.tsx).
// The virtualizer keeps where every row goes (some 50,000 rows of tiles) as long as its
// getItemKey is the same function; a new one on a render makes it place every row again, and a scroll
// frame is a render. These tests record what each render gives the virtualizer.

const seen = vi.hoisted(() => ({ getItemKey: [] as unknown[], estimateSize: [] as unknown[] }));
vi.mock('@tanstack/react-virtual', async (importOriginal) => {
  const original = await importOriginal<typeof ReactVirtual>();
  return {
    ...original,
    useVirtualizer: ((options: Parameters<typeof original.useVirtualizer>[0]) => {
      seen.getItemKey.push(options.getItemKey);
      seen.estimateSize.push(options.estimateSize);
      return original.useVirtualizer(options);
    }) as typeof original.useVirtualizer,
  };
});

let restoreLayout: () => void = () => undefined;
beforeEach(async () => {
  await freshDatabase();
  restoreLayout = stubLayout();
  seen.getItemKey.length = 0;
  seen.estimateSize.length = 0;
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.restoreAllMocks();
});

const renders = () => seen.getItemKey.length;

describe('virtual lists while scrolling', () => {
  it('Gallery: every scroll frame gives the virtualizer the same getItemKey and estimateSize', async () => {
    // The grid's own width decides its columns: 1,000 px, five 192 px tiles a row.
    const restoreWidth = stubGridWidth();
    try {
      await renderGallery(manyEntries(2_000));
      const scroller = await screen.findByTestId('gallery-scroll');
      const first = () => screen.getAllByTestId('gallery-tile')[0]?.dataset.key;
      await waitFor(() => expect(first()).toBeDefined());
      const top = first();
      const from = seen.getItemKey.length - 1;
      await scrollBy(scroller, 100 * 200, renders, () => expect(first()).not.toBe(top));
      const after = first();
      await scrollBy(scroller, 100 * 200, renders, () => expect(first()).not.toBe(after));

      const keys = seen.getItemKey.slice(from);
      expect(keys.length).toBeGreaterThan(2);
      expect(new Set(keys).size).toBe(1);
      expect(new Set(seen.estimateSize.slice(from)).size).toBe(1);
    } finally {
      restoreWidth();
    }
  });
});
