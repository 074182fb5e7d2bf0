import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { strFromU8, unzipSync } from 'fflate';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../model/db';
import { KeepersStore } from '../../model/history/keepers';
import { saveBlob } from '../../lib/save-file';
import { CDN, CONNECTION, makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests } from '../../test/gallery-view-setup';
import { downloadName } from '../../model/history/download-name';

// A starred output's copy kept on this device stands in wherever its URL fails: shown in its tile (which
// loads the thumbnail's URL, not the output's), downloaded by the Viewer's Download and put in the ZIP of
// Download selected. The copy is found by the output's key.

vi.mock(import('../../lib/save-file'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));

// The ZIP is written to memory here (the browser writes it to a private file on disk).
const zipChunks: Uint8Array[] = [];
vi.mock(import('./zip-sink'), async (original) => ({
  ...(await original()),
  openZipSink: async () => ({
    kind: 'private-file' as const,
    writable: new WritableStream<Uint8Array>({ write: (chunk) => void zipChunks.push(chunk) }),
    finish: async () => new File([], 'unused.zip'),
    discard: async () => undefined,
    handedOver: () => undefined,
  }),
}));

const OUTPUT = `${CDN}/t1.png`;
const THUMBNAIL = `${CDN}/t1-thumb.jpg`;
const KEPT = 'the kept webp bytes';

setUpGalleryTests();
beforeEach(() => {
  zipChunks.length = 0;
  vi.mocked(saveBlob).mockClear();
  // Every output URL (and its thumbnail) has expired.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('gone', { status: 410 })),
  );
});
afterEach(() => vi.unstubAllGlobals());

async function gallery() {
  const entries = [
    makeEntry('t1', { createdAt: T0, outputs: [{ url: OUTPUT, thumbnailUrl: THUMBNAIL }] }),
    makeEntry('t2', { createdAt: T0 + 60_000 }),
  ];
  const keepers = await KeepersStore.open(CONNECTION, { db });
  // The copy of t1's output kept on this device. (happy-dom's Blob does not survive fake-indexeddb, so
  // the store's reads stand in for IndexedDB; the store itself is tested on a real one.)
  const kept = new NodeBlob([KEPT], { type: 'image/webp' }) as unknown as Blob;
  const objectUrlFor = vi
    .spyOn(keepers, 'objectUrlFor')
    .mockImplementation(async (key) => (key === 't1#0' ? 'blob:kept-t1' : null));
  vi.spyOn(keepers, 'blobFor').mockImplementation(async (key) => (key === 't1#0' ? kept : null));
  await renderGallery(entries, { keepers });
  await screen.findAllByTestId('gallery-tile');
  const tile = screen.getAllByTestId('gallery-tile').find((t) => t.dataset.key === 't1#0')!;
  return { tile, kept, objectUrlFor, entry: entries[0]!, user: userEvent.setup() };
}

describe('Gallery: kept copies, found by the output, not its URL', () => {
  it('a tile whose thumbnail URL fails shows the kept copy of its output', async () => {
    const { tile, objectUrlFor } = await gallery();
    const img = tile.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(THUMBNAIL);
    fireEvent.error(img);
    await waitFor(() => expect(tile.querySelector('img')?.getAttribute('src')).toBe('blob:kept-t1'));
    expect(objectUrlFor).toHaveBeenCalledWith('t1#0');
    expect(within(tile).queryByTestId('media-failed')).toBeNull();
  });

  it("the Viewer's Download saves the kept copy when the URL does not answer", async () => {
    const { tile, kept, entry, user } = await gallery();
    await user.click(within(tile).getByRole('button', { name: 'prompt of t1' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    await user.click(within(viewer).getByRole('button', { name: 'Download' }));
    const name = downloadName(entry, 'image/webp');
    await within(viewer).findByText(`Saved as ${name}, from the copy kept on this device`, { exact: false });
    expect(saveBlob).toHaveBeenCalledWith(kept, name);
    expect(vi.mocked(fetch)).toHaveBeenCalledWith(OUTPUT, expect.objectContaining({ credentials: 'omit' }));
    expect(within(viewer).queryByText('Could not download the file')).toBeNull();
  });

  it('Download selected puts the kept copy in the ZIP when the URL does not answer; the others are listed as failed', async () => {
    const { tile, user } = await gallery();
    await user.click(within(tile).getByRole('checkbox', { name: 'Select' }));
    const t2 = screen.getAllByTestId('gallery-tile').find((t) => t.dataset.key === 't2#0')!;
    await user.click(within(t2).getByRole('checkbox', { name: 'Select' }));
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download selected' });
    await within(dialog).findByText(/Downloaded media-studio-2-outputs/);
    const bytes = new Uint8Array(zipChunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of zipChunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    const zip = unzipSync(bytes);
    const media = Object.keys(zip).filter((n) => n !== 'manifest.json' && n !== 'selection.csv');
    expect(media).toHaveLength(1);
    expect(media[0]).toMatch(/\.webp$/);
    expect(strFromU8(zip[media[0]!]!)).toBe(KEPT);
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as {
      files: Array<{ taskId: string; status: string; from: string | null }>;
    };
    expect(manifest.files.map((f) => [f.taskId, f.status, f.from])).toEqual([
      ['t2', 'failed', null],
      ['t1', 'saved', 'kept-copy'],
    ]);
  });
});
