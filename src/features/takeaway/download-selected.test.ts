import { unzipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { galleryItemsOf } from '../../model/gallery/gallery-item';
import { CDN, makeEntry } from '../../test/gallery-test-utils';
import { downloadSelected, zipName } from './download-selected';
import type { ZipSink } from './zip-sink';
import { downloadErrorMessage } from './download-error';

const items = galleryItemsOf([
  makeEntry('task_a1', { outputs: [{ url: `${CDN}/a.png` }] }),
  makeEntry('task_b2', { outputs: [{ url: `${CDN}/b.png` }] }),
]);

function sink() {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const discard = vi.fn(async () => undefined);
  const handedOver = vi.fn();
  const value: ZipSink = {
    kind: 'private-file',
    writable: new WritableStream<Uint8Array<ArrayBuffer>>({
      write: (c) => void chunks.push(c),
    }) as WritableStream<Uint8Array>,
    finish: async () => new File(chunks, 'x.zip'),
    handedOver,
    discard,
  };
  return { value, discard, handedOver };
}

describe('downloadSelected', () => {
  it('writes the ZIP into the sink, downloads the file it made, then lets the sink remove it', async () => {
    const target = sink();
    const save = vi.fn((_file: Blob, _name: string) => expect(target.handedOver).not.toHaveBeenCalled());
    const fetch = vi.fn(async () => new Response('img', { headers: { 'Content-Type': 'image/png' } }));
    const result = await downloadSelected(items, { openSink: async () => target.value, save, fetch });
    expect(result.name).toBe(zipName(2));
    expect(save).toHaveBeenCalledTimes(1);
    const [file, name] = save.mock.calls[0]!;
    expect(name).toMatch(/^media-studio-2-outputs-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = unzipSync(new Uint8Array(await (file as Blob).arrayBuffer()));
    expect(Object.keys(zip)).toHaveLength(4);
    expect(target.discard).not.toHaveBeenCalled();
    expect(target.handedOver).toHaveBeenCalledTimes(1);
  });

  it('removes the half-written file when cancelled, and downloads nothing', async () => {
    const target = sink();
    const save = vi.fn();
    const controller = new AbortController();
    const fetch = vi.fn(async () => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(
      downloadSelected(items, { openSink: async () => target.value, save, fetch, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(target.discard).toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();
    expect(target.handedOver).not.toHaveBeenCalled();
  });

  it('names the ZIP with the count and the date', () => {
    expect(zipName(1, new Date(2026, 0, 5))).toBe('media-studio-1-output-2026-01-05.zip');
    expect(zipName(10_000, new Date(2026, 0, 5))).toBe('media-studio-10000-outputs-2026-01-05.zip');
  });

  it('a full disk stops it with a plain message, and the partial file is removed', async () => {
    const discard = vi.fn(async () => undefined);
    const full: ZipSink = {
      kind: 'private-file',
      writable: new WritableStream({
        write() {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        },
      }),
      finish: async () => null,
      handedOver: vi.fn(),
      discard,
    };
    const fetch = vi.fn(async () => new Response('img', { headers: { 'Content-Type': 'image/png' } }));
    const error = await downloadSelected(items, { openSink: async () => full, save: vi.fn(), fetch }).catch(
      (e: unknown) => e,
    );
    expect(downloadErrorMessage(error)).toBe(
      'There is not enough free space on this device for the ZIP. Free some space, or select fewer outputs, and try again.',
    );
    expect(discard).toHaveBeenCalled();
  });
});
