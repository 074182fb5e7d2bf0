import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { appUpdate } from './app-update';
import { UpdatePrompt } from './update-prompt';

// "Reload to update" (offline.spec.ts drives the real service worker): what the prompt shows is a chunk of
// its own, loaded once an update is offered, in the live region that is on the page from the start.

afterEach(cleanup);

it('is an empty live region until an update is offered, then offers the reload', async () => {
  render(<UpdatePrompt />);
  const region = screen.getByRole('status', { name: 'Studio update' });
  expect(region.textContent).toBe('');

  const update = vi.fn(() => Promise.resolve());
  act(() => appUpdate.offer(update));
  const reload = await screen.findByRole('button', { name: 'Reload to update' });
  expect(region.textContent).toContain('A new version of the studio is ready.');

  await userEvent.setup().click(reload);
  expect(update).toHaveBeenCalledTimes(1);
  expect(reload).toHaveProperty('disabled', true);
});
