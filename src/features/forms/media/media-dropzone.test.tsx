import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaDropzone } from './media-dropzone';

// A file dropped on a file field is the field's: the form around it (which reads a dropped file's
// recipe, app/workspace.tsx) never hears of it.

afterEach(cleanup);

describe('a file field’s drop zone', () => {
  it('takes a file dropped on it, and the drop goes no further', async () => {
    const onFiles = vi.fn();
    const outer = vi.fn();
    render(
      <div onDrop={outer} onDragEnter={outer}>
        <MediaDropzone kind="image" onFiles={onFiles} />
      </div>,
    );
    const zone = screen.getByLabelText('Upload file').parentElement!;
    const file = new File([Uint8Array.of(0x89, 0x50, 0x4e, 0x47)], 'face.png', { type: 'image/png' });
    const dataTransfer = {
      files: [file],
      items: [{ kind: 'file', type: 'image/png', getAsFile: () => file }],
      types: ['Files'],
    };
    fireEvent.dragEnter(zone, { dataTransfer });
    fireEvent.drop(zone, { dataTransfer });
    await waitFor(() => expect(onFiles).toHaveBeenCalledWith([file]));
    expect(outer).not.toHaveBeenCalled();
  });
});
