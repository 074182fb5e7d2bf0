import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadStatus } from './upload-status';

afterEach(cleanup);

// The status line is hidden by the `hidden` attribute while there is nothing to say, and shown as soon
// as there is: not by CSS `:has(> :empty)`, which WebKitGTK 2.50 never re-evaluates when the status
// fills (the upload line stayed hidden there; found by npm run test:browsers).
describe('UploadStatus', () => {
  it('is hidden while idle, with its live region already in place', () => {
    render(<UploadStatus state={{ phase: 'idle' }} />);
    const status = screen.getByRole('status', { hidden: true });
    expect(status.textContent).toBe('');
    expect(status.parentElement!.hidden).toBe(true);
  });

  it('shows every phase that has something to say', () => {
    const { rerender } = render(<UploadStatus state={{ phase: 'idle' }} />);
    rerender(
      <UploadStatus
        state={{
          phase: 'ready',
          fileName: 'photo.png',
          url: 'https://cdn.test/p.png',
          contentType: 'image/png',
        }}
      />,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('photo.png is ready.');
    expect(status.parentElement!.hidden).toBe(false);
    rerender(<UploadStatus state={{ phase: 'refused', fileName: 'notes.png', message: 'Not accepted.' }} />);
    expect(screen.getByRole('status').parentElement!.hidden).toBe(false);
  });
});
