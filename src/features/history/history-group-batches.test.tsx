import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { batchAndTwoAlone, storeWith } from '../../test/gallery-test-utils';
import { setUpGalleryTests } from '../../test/gallery-view-setup';
import { HistoryPanel } from './history-panel';

// "Group batches" in the History's filters: a batch (one click's tasks) is one card with its count, opened
// in place and closed again with Escape, the focus back on it. (The Gallery's: group-batches.test.tsx.)

const entries = batchAndTwoAlone();

// A viewport tall enough for every card.
setUpGalleryTests(2_000);
beforeEach(() => localStorage.clear());

describe('Group batches in the History', () => {
  it('shows the batch as one card that opens in place and closes with Escape, focus back on it', async () => {
    const user = userEvent.setup();
    render(
      <HistoryPanel store={await storeWith(entries)} sending={[]} onRemix={vi.fn()} onUseAsInput={vi.fn()} />,
    );
    const region = screen.getByRole('region', { name: 'History' });
    const cards = () =>
      [...region.querySelectorAll<HTMLElement>('[data-testid="task-card"], [data-testid="batch-stack"]')].map(
        (el) => el.dataset.taskId ?? 'stack',
      );
    await waitFor(() => expect(cards()).toEqual(['s1', 'b3', 'b2', 'b1', 's2']));

    await user.click(within(region).getByRole('checkbox', { name: 'Group batches' }));
    await waitFor(() => expect(cards()).toEqual(['s1', 'stack', 's2']));
    const stack = within(region).getByRole('button', { name: 'Batch of 3: Lumen Canvas' });
    expect(within(region).getByTestId('batch-stack').textContent).toContain('3 tasks');

    await user.click(stack);
    await waitFor(() => expect(cards()).toEqual(['s1', 'stack', 'b3', 'b2', 'b1', 's2']));
    expect(stack.getAttribute('aria-expanded')).toBe('true');

    const member = region.querySelector<HTMLElement>('[data-task-id="b2"] h3 button')!;
    member.focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(cards()).toEqual(['s1', 'stack', 's2']));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(region).getByRole('button', { name: 'Batch of 3: Lumen Canvas' }),
      ),
    );
  });
});
