import { describe, expect, it, vi } from 'vitest';
import type { KeepersStore } from './keepers';
import { downloadName } from './download-name';
import { makeEntry } from '../../test/gallery-test-utils';
import { downloadKept, keptFile } from './kept-output';

const entry = makeEntry('task_AbCdEfGhIj', { params: { prompt: 'red fox' } });
const KEY = 'task_AbCdEfGhIj#0';

function keepers(blob: Blob | null, contentType: string | null): KeepersStore {
  return {
    blobFor: async (key: string) => (key === KEY ? blob : null),
    snapshot: () => ({
      kept: new Map(blob ? [[KEY, { contentType }]] : []),
      bytes: 0,
      saving: 0,
      failure: null,
    }),
  } as unknown as KeepersStore;
}

describe('downloadKept', () => {
  it('saves the kept bytes, named from the type they were served with', async () => {
    const save = vi.fn();
    const blob = new Blob(['png']);
    const name = await downloadKept(
      keepers(blob, 'image/png'),
      KEY,
      (type) => downloadName(entry, type),
      save,
    );
    expect(name).toBe(downloadName(entry, 'image/png'));
    expect(name).toMatch(/\.png$/);
    expect(save).toHaveBeenCalledWith(blob, name);
  });

  it('is null when the output is not kept here', async () => {
    const save = vi.fn();
    expect(await downloadKept(keepers(null, null), KEY, () => 'x', save)).toBeNull();
    expect(save).not.toHaveBeenCalled();
  });

  it("keptFile falls back on the blob's own type when the record has none", async () => {
    const blob = new Blob(['a'], { type: 'image/webp' });
    expect(await keptFile(keepers(blob, null), KEY)).toEqual({ blob, contentType: 'image/webp' });
    expect(await keptFile(keepers(blob, null), 'other#0')).toBeNull();
  });
});
