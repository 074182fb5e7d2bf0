import 'fake-indexeddb/auto';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { NoticeArea } from '../../components/notice-area';
import { db } from '../../model/db';
import { HiddenTasks } from '../../model/history/hidden-tasks';
import { CONNECTION, makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests } from '../../test/gallery-view-setup';

// "Hide" in the gallery's selection toolbar: the tasks leave the gallery at once, and the notice's
// "Undo" shows them again (the studio's one notice area, as the app mounts it).

setUpGalleryTests();

it('hides the selected tasks and shows them again with the notice’s Undo', async () => {
  const user = userEvent.setup();
  const entries = ['t1', 't2', 't3'].map((id, i) => makeEntry(id, { createdAt: T0 + i * 60_000 }));
  const hidden = await HiddenTasks.open(CONNECTION, { db });
  await renderGallery(entries, { hidden });
  render(<NoticeArea />);
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

it('says the tasks are shown again when the Undo’s write fails, with the store’s one notice, not “Could not undo”', async () => {
  const user = userEvent.setup();
  const entries = ['t1', 't2'].map((id, i) => makeEntry(id, { createdAt: T0 + i * 60_000 }));
  // The database refuses every write once `full` (a full disk): reads and the first Hide go through.
  let full = false;
  const fullDisk = async () => {
    const real = await db();
    if (!full) return real;
    return new Proxy(real, {
      get: (target, name) =>
        name === 'transaction'
          ? () => {
              throw new DOMException('The disk is full', 'QuotaExceededError');
            }
          : (Reflect.get(target, name) as unknown),
    });
  };
  const onError = vi.fn();
  const hidden = await HiddenTasks.open(CONNECTION, { db: fullDisk, onError });
  await renderGallery(entries, { hidden });
  render(<NoticeArea />);
  const tiles = await screen.findAllByTestId('gallery-tile');
  await user.click(within(tiles[0]!).getByRole('checkbox', { name: 'Select' }));
  await user.click(
    within(screen.getByRole('toolbar', { name: 'Selection' })).getByRole('button', { name: 'Hide' }),
  );
  const notice = (await screen.findByText('1 task hidden on this device.')).closest('li')!;

  full = true;
  await user.click(within(notice).getByRole('button', { name: 'Undo' }));
  expect(await screen.findByText('1 task shown again.')).toBeTruthy();
  expect(screen.getByTestId('gallery-count').textContent).toBe('2 outputs');
  expect(onError).toHaveBeenCalledTimes(1);
  expect(screen.queryByText('Could not undo.')).toBeNull();
});
