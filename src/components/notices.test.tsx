import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog';
import { NoticeArea } from './notice-area';
import { notify, notifyUndo, notifyWarning } from './notices';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const noticeOf = async (text: string) => (await screen.findByText(text)).closest('li')!;

describe('notices', () => {
  it('runs the undo once from the notice’s Undo and says it is done', async () => {
    const user = userEvent.setup();
    render(<NoticeArea />);
    const undo = vi.fn();
    notifyUndo('Deleted "Dusk".', undo, { undone: 'Restored "Dusk".' });
    await user.click(within(await noticeOf('Deleted "Dusk".')).getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Restored "Dusk".')).toBeTruthy();
  });

  it('says so when the undo fails', async () => {
    const user = userEvent.setup();
    render(<NoticeArea />);
    notifyUndo('Deleted "Noon".', () => Promise.reject(new Error('storage full')));
    await user.click(within(await noticeOf('Deleted "Noon".')).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Could not undo.')).toBeTruthy();
  });

  it('draws a notice inside the open dialog, where the focus is kept, and on the page once it closes', async () => {
    const view = render(
      <>
        <NoticeArea />
        <Dialog open onOpenChange={() => undefined} title="Presets">
          <p>body</p>
        </Dialog>
      </>,
    );
    notify('Inside the dialog.');
    const dialog = screen.getByRole('dialog', { name: 'Presets' });
    expect(await within(dialog).findByText('Inside the dialog.')).toBeTruthy();
    view.rerender(<NoticeArea />);
    notify('On the page.');
    expect(await screen.findByText('On the page.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps a warning, with the list it carries, past the time a plain notice goes, until dismissed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    render(<NoticeArea />);
    notify('Said and gone.');
    notifyWarning('Applied, without:', {
      detail: (
        <ul aria-label="Left out">
          <li>style</li>
        </ul>
      ),
    });
    const warning = await noticeOf('Applied, without:');
    expect(within(warning).getByRole('list', { name: 'Left out' }).textContent).toBe('style');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.queryByText('Said and gone.')).toBeNull();
    expect(screen.getByText('Applied, without:')).toBeTruthy();
    await user.click(within(warning).getByRole('button', { name: 'Dismiss' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(screen.queryByText('Applied, without:')).toBeNull();
  });
});
