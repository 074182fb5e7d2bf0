import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchAndTwoAlone } from '../../test/gallery-test-utils';
import { renderGallery as renderGalleryView, setUpGalleryTests } from '../../test/gallery-view-setup';
import { NO_GALLERY_FILTER } from '../../model/gallery/gallery-filter';

// "Group batches" in the Gallery's toolbar: a batch (one click's tasks) is one stack with its count, placed
// by its best member under the sort, opened in place with the keyboard, and closed again with Escape, the
// focus back on the stack. The setting is remembered. (The History's own: history-group-batches.test.tsx.)

const entries = batchAndTwoAlone();

// A viewport tall enough for every card; the grid 1,000 px wide, five tiles a row.
setUpGalleryTests(2_000);
beforeEach(() => localStorage.clear());

const renderGallery = () => renderGalleryView(entries, { filter: { ...NO_GALLERY_FILTER, sort: 'credits' } });

/** The grid's cells in order: a tile's task id, or "stack" for a batch's stack. */
const gridOrder = () =>
  [...screen.getByTestId('gallery-scroll').querySelectorAll<HTMLElement>('[data-key]')].map((el) =>
    el.dataset.testid === 'batch-stack' ? 'stack' : el.dataset.key!.split('#')[0],
  );

describe('Group batches in the gallery', () => {
  it('shows one stack with its count where the best member falls, opens it in place and closes it with Escape', async () => {
    const user = userEvent.setup();
    await renderGallery();
    await waitFor(() => expect(gridOrder()).toEqual(['b1', 's1', 'b3', 's2', 'b2']));

    await user.click(screen.getByRole('checkbox', { name: 'Group batches' }));
    await waitFor(() => expect(gridOrder()).toEqual(['stack', 's1', 's2']));
    const stack = screen.getByRole('button', { name: /^Batch of 3: variation 1/ });
    expect(stack.getAttribute('aria-expanded')).toBe('false');
    expect(within(screen.getByTestId('batch-stack')).getByTestId('batch-count').textContent).toContain('3');

    // Opened with the keyboard: its members follow it, best first, and the rest keep their places.
    stack.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(gridOrder()).toEqual(['stack', 'b1', 'b3', 'b2', 's1', 's2']));
    expect(stack.getAttribute('aria-expanded')).toBe('true');

    // Escape on a member closes the stack and gives the focus back to it.
    await user.tab();
    expect(document.activeElement?.closest('[data-key]')?.getAttribute('data-key')).toBe('b1#0');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(gridOrder()).toEqual(['stack', 's1', 's2']));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Batch of 3/ })),
    );
    expect(screen.getByRole('button', { name: /^Batch of 3/ }).getAttribute('aria-expanded')).toBe('false');
  });

  it('is remembered: a gallery shown again groups from the start', async () => {
    const user = userEvent.setup();
    const first = await renderGallery();
    await user.click(await screen.findByRole('checkbox', { name: 'Group batches' }));
    first.unmount();
    await renderGallery();
    expect((screen.getByRole('checkbox', { name: 'Group batches' }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(gridOrder()).toEqual(['stack', 's1', 's2']));
  });
});
