import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NoticeArea } from '../../components/notice-area';
import type { OwnItem } from '../../model/team/team-share';
import { FreeSpaceDialog } from './free-space-dialog';
import { notifyChangeRefused } from './team-notices';
import { reasonText } from './team-reasons';

afterEach(cleanup);

const ITEMS: OwnItem[] = [
  { root: 'tasks', key: 'task_1', label: 'Lumen Canvas', bytes: 2048, at: 1_000 },
  { root: 'prompts', key: 'a red fox', label: 'a red fox', bytes: 40, at: 2_000 },
  { root: 'tasks', key: 'task_2', label: 'Aurora', bytes: 4096, at: 3_000 },
];

describe('Free space', () => {
  it('lists this member’s items oldest first with their sizes; deletes the chosen ones, with Undo', async () => {
    const user = userEvent.setup();
    let shown = ITEMS;
    const undo = vi.fn(() => {
      shown = ITEMS;
    });
    const onDelete = vi.fn((items: readonly OwnItem[]) => {
      shown = shown.filter((i) => !items.includes(i));
      return undo;
    });
    render(
      <>
        <NoticeArea />
        <FreeSpaceDialog
          open
          onOpenChange={() => undefined}
          share={{ used: 13_000, limit: 16_384, level: 'nearly' }}
          items={() => shown}
          onDelete={onDelete}
        />
      </>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Free space' });
    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes.map((b) => b.closest('label')!.textContent)).toEqual([
      expect.stringMatching(/^Lumen Canvas.*2\.0 KB$/),
      expect.stringMatching(/^a red fox.*40 bytes$/),
      expect.stringMatching(/^Aurora.*4\.0 KB$/),
    ]);
    const remove = within(dialog).getByRole('button', { name: 'Delete' });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: /Lumen Canvas/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Aurora/ }));
    await user.click(remove);
    expect(onDelete).toHaveBeenCalledWith([ITEMS[0], ITEMS[2]]);
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(1);
    const notice = (await within(dialog).findByText('Deleted 2 items from the team.')).closest('li')!;
    await user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(await within(dialog).findByText('Put back in the team.')).toBeTruthy();
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(3);
  });

  it('moves the focus to the share’s figure once Delete has deleted (Delete is disabled then), not to the page', async () => {
    const user = userEvent.setup();
    let shown = ITEMS;
    render(
      <FreeSpaceDialog
        open
        onOpenChange={() => undefined}
        share={{ used: 13_000, limit: 16_384, level: 'nearly' }}
        items={() => shown}
        onDelete={(items) => {
          shown = shown.filter((i) => !items.includes(i));
          return () => undefined;
        }}
        detailOf={(item) => (item.key === 'task_2' ? 'a fox at dusk' : undefined)}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Free space' });
    // A task's label is its model: the prompt tells it apart.
    expect(within(dialog).getByRole('checkbox', { name: /^Aurora a fox at dusk Task's copy/ })).toBeTruthy();
    await user.click(within(dialog).getByRole('checkbox', { name: /Aurora/ }));
    const remove = within(dialog).getByRole('button', { name: 'Delete' });
    remove.focus();
    await user.keyboard('{Enter}');
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(2);
    expect(document.activeElement?.textContent).toMatch(/^Your share uses /);
    expect(dialog.contains(document.activeElement)).toBe(true);

    // The last ones: the focus goes to the words that say the list is empty.
    for (const box of within(dialog).getAllByRole('checkbox')) await user.click(box);
    within(dialog).getByRole('button', { name: 'Delete' }).focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement?.textContent).toBe(
      "You have no shared prompts or tasks' copies in the team.",
    );
  });
});

describe('a refused change', () => {
  it('is told in a notice that names why, and what the studio did', async () => {
    render(<NoticeArea />);
    notifyChangeRefused('not-yours', 'rejoining');
    const notice = (await screen.findByText(reasonText('not-yours'))).closest('li')!;
    expect(notice.textContent).toMatch(/belongs to another member/);
    expect(notice.textContent).toMatch(
      /dropped this device's copy of the team space and is joining it again/,
    );
  });
});
