import { describe, expect, it, vi } from 'vitest';
import type { KeepersStore } from '../../../model/history/keepers';
import { galleryItemsOf } from '../gallery-item';
import { makeEntry } from '../../../test/gallery-test-utils';
import { downloadKept } from './kept-output';

const [item] = galleryItemsOf([makeEntry('task_AbCdEfGhIj', { params: { prompt: 'red fox' } })]);

function keepers(blob: Blob | null, contentType: string | null): KeepersStore {
  return {
    blobFor: async () => blob,
    snapshot: () => ({
      kept: new Map(blob ? [[item!.key, { contentType }]] : []),
      bytes: 0,
      saving: new Set(),
      failure: null,
    }),
  } as unknown as KeepersStore;
}

describe('downloadKept', () => {
  it('saves the kept bytes named from model, prompt and id with the extension of the type it was served with', async () => {
    const save = vi.fn();
    const blob = new Blob(['png']);
    expect(await downloadKept(keepers(blob, 'image/png'), item!, save)).toBe(true);
    expect(save).toHaveBeenCalledWith(blob, 'lumen-canvas-red-fox-AbCdEfGh.png');
  });

  it('is false when the output is not kept here', async () => {
    const save = vi.fn();
    expect(await downloadKept(keepers(null, null), item!, save)).toBe(false);
    expect(save).not.toHaveBeenCalled();
  });
});
