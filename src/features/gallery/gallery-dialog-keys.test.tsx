import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests } from '../../test/gallery-view-setup';

// The Viewer, Compare two and the download dialog are portals: React sends their keydowns up the
// component tree, through the gallery. Ctrl/Cmd+A and Escape there belong to the dialog, never to the
// gallery's selection behind it.

// A ZIP that runs until it is cancelled, so the download dialog stays open at "running".
vi.mock('../takeaway/download-selected', () => ({
  downloadSelected: (_items: unknown, { signal }: { signal: AbortSignal }) =>
    new Promise((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(new DOMException('Cancelled', 'AbortError'))),
    ),
}));

setUpGalleryTests();

async function gallery() {
  const entries = ['t1', 't2', 't3', 't4'].map((id, i) =>
    makeEntry(id, { createdAt: T0 + i * 60_000, params: { prompt: `prompt of ${id}` } }),
  );
  await renderGallery(entries);
  await screen.findAllByTestId('gallery-tile');
  const user = userEvent.setup();
  const tileOf = (key: string) => screen.getAllByTestId('gallery-tile').find((t) => t.dataset.key === key)!;
  const select = (key: string) => user.click(within(tileOf(key)).getByRole('checkbox', { name: 'Select' }));
  const count = () => screen.getByTestId('selection-count').textContent;
  return { user, tileOf, select, count };
}

describe('Gallery: keys inside a dialog stay in the dialog', () => {
  it('Ctrl+A and Cmd+A in the Viewer do not select the whole gallery', async () => {
    const { user, tileOf, select, count } = await gallery();
    await select('t2#0');
    await user.click(within(tileOf('t3#0')).getByRole('button', { name: 'prompt of t3' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    within(viewer).getByRole('button', { name: 'Star' }).focus();
    await user.keyboard('{Control>}a{/Control}');
    await user.keyboard('{Meta>}a{/Meta}');
    expect(count()).toBe('1 selected');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Viewer' })).toBeNull();
    expect(count()).toBe('1 selected');
  });

  it('Ctrl+A in Compare two does not select the whole gallery', async () => {
    const { user, select, count } = await gallery();
    await select('t1#0');
    await select('t2#0');
    await user.click(screen.getByRole('button', { name: 'Compare two' }));
    const compare = await screen.findByRole('dialog', { name: 'Compare two' });
    within(compare).getByRole('button', { name: 'Close' }).focus();
    await user.keyboard('{Control>}a{/Control}');
    expect(count()).toBe('2 selected');
  });

  it('Ctrl+A in the download dialog does not select the whole gallery', async () => {
    const { user, select, count } = await gallery();
    await select('t1#0');
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downloading 1 output as a ZIP' });
    await user.keyboard('{Control>}a{/Control}');
    expect(count()).toBe('1 selected');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDefined();
  });

  it('Escape in the download dialog cancels it and says so; the selection stays', async () => {
    const { user, select, count } = await gallery();
    await select('t1#0');
    await select('t2#0');
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByRole('dialog', { name: 'Downloading 2 outputs as a ZIP' });
    await user.keyboard('{Escape}');
    const cancelled = await screen.findByRole('dialog', { name: 'Download selected' });
    expect(within(cancelled).getByText('Download cancelled. Nothing was saved.')).toBeDefined();
    expect(count()).toBe('2 selected');
  });

  it('Ctrl+A and Escape in the gallery itself still select all and clear', async () => {
    const { user, tileOf, select, count } = await gallery();
    await select('t1#0');
    within(tileOf('t1#0')).getByRole('checkbox', { name: 'Select' }).focus();
    await user.keyboard('{Control>}a{/Control}');
    expect(count()).toBe('4 selected');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('selection-count')).toBeNull();
  });
});
