import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { clientError } from '../../api/errors';
import { ConnectPanel } from './connect-panel';

// The form's notes are a chunk of their own (connect-panel.tsx): when it cannot be loaded (the network
// went away before it arrived), an error is still told, in words alone.

vi.mock('./connect-notes', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(cleanup);

it('tells why the connection failed, and the remedy, when the notes could not be loaded', async () => {
  const error = clientError('network_error');
  render(
    <ConnectPanel
      state={{ status: 'disconnected', error }}
      defaultBaseUrl="http://127.0.0.1:4010/v1"
      onConnect={vi.fn()}
    />,
  );
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain(error.message);
  expect(alert.textContent).toContain(error.remedy);
});
