import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { NoticeArea } from '../../components/notice-area';
import { HiddenTasks } from '../../model/history/hidden-tasks';
import { JudgementStore } from '../../model/history/judgements';
import {
  CONNECTION,
  freshDatabase,
  makeEntry,
  stubLayout,
  storeWith,
  T0,
} from '../../test/gallery-test-utils';
import { NO_GALLERY_FILTER } from './gallery-filter';
import { GalleryView } from './gallery-view';

// "Hide" in the gallery's selection toolbar: the tasks leave the gallery at once, and the notice's
// "Undo" shows them again (the studio's one notice area, as the app mounts it).

let restore: Array<() => void> = [];
beforeEach(async () => {
  await freshDatabase();
  restore.push(stubLayout());
  const width = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1_000 });
  restore.push(() => {
    if (width) Object.defineProperty(HTMLElement.prototype, 'clientWidth', width);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientWidth;
  });
});
afterEach(() => {
  cleanup();
  for (const r of restore) r();
  restore = [];
});

it('hides the selected tasks and shows them again with the notice’s Undo', async () => {
  const user = userEvent.setup();
  const entries = ['t1', 't2', 't3'].map((id, i) => makeEntry(id, { createdAt: T0 + i * 60_000 }));
  const hidden = await HiddenTasks.open(CONNECTION);
  render(
    <>
      <GalleryView
        history={await storeWith(entries)}
        judgements={await JudgementStore.open(CONNECTION)}
        hidden={hidden}
        filter={NO_GALLERY_FILTER}
        onFilter={vi.fn()}
        onRemix={vi.fn()}
        onUseAsInput={vi.fn()}
        onAddToComparison={vi.fn()}
      />
      <NoticeArea />
    </>,
  );
  const tiles = await screen.findAllByTestId('gallery-tile');
  expect(tiles).toHaveLength(3);
  await user.click(within(tiles[0]!).getByRole('checkbox', { name: 'Select' }));
  await user.click(within(tiles[1]!).getByRole('checkbox', { name: 'Select' }));
  await user.click(
    within(screen.getByRole('toolbar', { name: 'Selection' })).getByRole('button', { name: 'Hide' }),
  );

  expect(await screen.findByText('2 tasks hidden on this device.')).toBeTruthy();
  expect(screen.getByTestId('gallery-count').textContent).toBe('1 output');
  expect([...hidden.snapshot()].sort()).toEqual(['t2', 't3']);

  await user.click(screen.getByRole('button', { name: 'Undo' }));
  expect(await screen.findByText('2 tasks shown again.')).toBeTruthy();
  expect(screen.getByTestId('gallery-count').textContent).toBe('3 outputs');
  expect([...hidden.snapshot()]).toEqual([]);
});
