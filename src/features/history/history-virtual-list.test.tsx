import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import type * as ReactVirtual from '@tanstack/react-virtual';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshDatabase, stubLayout, storeWith, manyEntries, scrollBy } from '../../test/gallery-test-utils';
import { HistoryPanel } from './history-panel';

// The History list while it scrolls (50,000 tasks, no long task; the Gallery grid's: virtual-lists.test.tsx
// in features/gallery). The virtualizer keeps where every row goes (50,000 cards) as long as its
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
  it('History: every scroll frame gives the virtualizer the same getItemKey and estimateSize', async () => {
    render(
      <HistoryPanel
        store={await storeWith(manyEntries(2_000))}
        sending={[]}
        onRemix={vi.fn()}
        onUseAsInput={vi.fn()}
      />,
    );
    const region = screen.getByRole('region', { name: 'History' });
    const scroller = within(region).getByTestId('history-scroll');
    const first = () => within(region).getAllByTestId('task-card')[0]?.dataset.taskId;
    const top = first();
    const from = seen.getItemKey.length - 1;
    await scrollBy(scroller, 600 * 128, renders, () => expect(first()).not.toBe(top));
    const after = first();
    await scrollBy(scroller, 600 * 128, renders, () => expect(first()).not.toBe(after));

    const keys = seen.getItemKey.slice(from);
    expect(keys.length).toBeGreaterThan(2);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(seen.estimateSize.slice(from)).size).toBe(1);
  });
});
