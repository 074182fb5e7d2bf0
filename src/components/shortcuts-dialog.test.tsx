import { i18n } from '@lingui/core';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ShortcutsDialog } from './shortcuts-dialog';
import { SHORTCUTS } from './shortcuts';

afterEach(() => {
  cleanup();
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

describe('ShortcutsDialog', () => {
  it('opens with "?" and lists the shortcuts of the screen in view; "?" again closes it', async () => {
    const user = userEvent.setup();
    render(<ShortcutsDialog screen="gallery" />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.keyboard('?');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Select every output shown')).toBeTruthy();
    expect(within(dialog).queryByText('Star or unstar')).toBeNull();
    await user.keyboard('?');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists the studio’s on the studio', async () => {
    const user = userEvent.setup();
    render(<ShortcutsDialog screen="studio" />);
    await user.keyboard('?');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Generate, from any field of the form')).toBeTruthy();
    expect(within(dialog).queryByText('Select every output shown')).toBeNull();
  });

  it('does not open while typing in a field', async () => {
    const user = userEvent.setup();
    render(
      <>
        <label>
          Prompt <textarea />
        </label>
        <ShortcutsDialog screen="studio" />
      </>,
    );
    await user.click(screen.getByRole('textbox', { name: 'Prompt' }));
    await user.keyboard('what?');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Prompt' }).value).toBe('what?');
  });

  it('shows the title and each shortcut’s description in the studio’s language, and follows a change', async () => {
    const user = userEvent.setup();
    render(<ShortcutsDialog screen="gallery" />);
    await user.keyboard('?');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    const selectAll = SHORTCUTS['gallery.selectAll'].description;
    act(() => {
      i18n.loadAndActivate({
        locale: 'fr',
        messages: { [selectAll.id]: 'Sélectionner tout ce qui est affiché' },
      });
    });
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Sélectionner tout ce qui est affiché')).toBeTruthy();
    expect(within(dialog).queryByText('Select every output shown')).toBeNull();
    // A message the catalog lacks falls back to its English.
    expect(within(dialog).getByText('Clear the selection')).toBeTruthy();
  });
});
