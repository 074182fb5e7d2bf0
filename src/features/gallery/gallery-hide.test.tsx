import 'fake-indexeddb/auto';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
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
