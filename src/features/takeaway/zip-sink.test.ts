import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  handOverMs,
  openZipSink,
  removeLeftoverZips,
  ZipSinkDeclinedError,
  ZipSinkUnavailableError,
} from './zip-sink';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A private file system in memory: one folder of files, each written through createWritable. */
function fakeOpfs(initial: Record<string, number | { lastModified: number; size: number }> = {}) {
  const files = new Map<string, { bytes: Uint8Array<ArrayBuffer>; lastModified: number }>();
  for (const [name, at] of Object.entries(initial))
    files.set(
      name,
      typeof at === 'number'
        ? { bytes: new Uint8Array(), lastModified: at }
        : { bytes: new Uint8Array(at.size), lastModified: at.lastModified },
    );
  const handle = (name: string) => ({
    createWritable: async () => {
      const chunks: Uint8Array[] = [];
      return new WritableStream<Uint8Array>({
        write: (c) => void chunks.push(c),
        close: () => {
          const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
          let at = 0;
          for (const c of chunks) {
            bytes.set(c, at);
            at += c.byteLength;
          }
          files.set(name, { bytes, lastModified: Date.now() });
        },
      });
    },
    getFile: async () => {
      const file = files.get(name);
      if (!file) throw new DOMException('gone', 'NotFoundError');
      return new File([file.bytes], name, { lastModified: file.lastModified });
    },
  });
  const dir = {
    getFileHandle: async (name: string, options?: { create?: boolean }) => {
      if (!files.has(name)) {
        if (!options?.create) throw new DOMException('no', 'NotFoundError');
        files.set(name, { bytes: new Uint8Array(), lastModified: Date.now() });
      }
      return handle(name);
    },
    removeEntry: async (name: string) => void files.delete(name),
    keys: async function* () {
      yield* [...files.keys()];
    },
  };
  const getDirectory = vi.fn(async () => ({ getDirectoryHandle: async () => dir }));
  return { files, getDirectory };
}

const write = async (writable: WritableStream<Uint8Array>, text: string) => {
  const writer = writable.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
};

describe('openZipSink', () => {
  it('writes into a private file and hands back that file; old finished ZIPs are removed, recent ones kept', async () => {
    const now = Date.now();
    const opfs = fakeOpfs({ 'old.zip': now - 60 * 60_000, 'recent.zip': now - 10_000 });
    vi.stubGlobal('navigator', { ...navigator, storage: { getDirectory: opfs.getDirectory } });
    const sink = await openZipSink('media-studio-2-outputs.zip');
    expect(sink.kind).toBe('private-file');
    await write(sink.writable, 'zip bytes');
    const file = await sink.finish();
    expect(await file!.text()).toBe('zip bytes');
    await vi.waitFor(() => expect(opfs.files.has('old.zip')).toBe(false));
    expect(opfs.files.has('recent.zip')).toBe(true);
    expect([...opfs.files.keys()].some((n) => n.endsWith('-media-studio-2-outputs.zip'))).toBe(true);
  });

  it('removes the private file once its download is handed over, after the time the browser needs to copy it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const opfs = fakeOpfs();
    vi.stubGlobal('navigator', { ...navigator, storage: { getDirectory: opfs.getDirectory } });
    const sink = await openZipSink('e.zip');
    await write(sink.writable, 'zip bytes');
    const file = await sink.finish();
    expect(opfs.files.size).toBe(1);
    sink.handedOver();
    // Still there while the browser may be copying it: a File from the private file system reads it.
    await vi.advanceTimersByTimeAsync(handOverMs(file!.size) - 1);
    expect(opfs.files.size).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(opfs.files.size).toBe(0));
  });

  it('gives a large file more time: a minute, and its copy at 10 MB/s', () => {
    expect(handOverMs(0)).toBe(60_000);
    expect(handOverMs(1_000_000_000)).toBe(160_000);
  });

  it('removes, at start, the ZIPs a closed tab left, but not one another tab may still be copying', async () => {
    const now = Date.now();
    const opfs = fakeOpfs({
      'left-an-hour-ago.zip': now - 60 * 60_000,
      // Both finished 61 s ago: the small one's copy took at most 60.1 s, the 20 MB one's may take 62 s.
      'left-61-s-ago-small.zip': { lastModified: now - 61_000, size: 1_000 },
      'copying-61-s-ago-20-mb.zip': { lastModified: now - 61_000, size: 20_000_000 },
      'just-finished.zip': now - 5_000,
    });
    vi.stubGlobal('navigator', { ...navigator, storage: { getDirectory: opfs.getDirectory } });
    await removeLeftoverZips(now);
    expect([...opfs.files.keys()].sort()).toEqual(['copying-61-s-ago-20-mb.zip', 'just-finished.zip']);
  });

  it('removing leftovers is quiet where the private file system is refused or missing', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      storage: { getDirectory: async () => Promise.reject(new DOMException('private', 'SecurityError')) },
    });
    await expect(removeLeftoverZips()).resolves.toBeUndefined();
    vi.stubGlobal('navigator', { ...navigator, storage: undefined });
    await expect(removeLeftoverZips()).resolves.toBeUndefined();
  });

  it('discard() removes the private file of a cancelled ZIP', async () => {
    const opfs = fakeOpfs();
    vi.stubGlobal('navigator', { ...navigator, storage: { getDirectory: opfs.getDirectory } });
    const sink = await openZipSink('a.zip');
    expect(opfs.files.size).toBe(1);
    await sink.writable.abort(new DOMException('Cancelled', 'AbortError'));
    await sink.discard();
    expect(opfs.files.size).toBe(0);
  });

  it('falls back to the save dialog when the private file system is refused', async () => {
    const written: string[] = [];
    const picker = vi.fn(async () => ({
      createWritable: async () =>
        new WritableStream<Uint8Array>({ write: (c) => void written.push(new TextDecoder().decode(c)) }),
    }));
    vi.stubGlobal('navigator', {
      ...navigator,
      storage: {
        getDirectory: async () => Promise.reject(new DOMException('private mode', 'SecurityError')),
      },
    });
    vi.stubGlobal('showSaveFilePicker', picker);
    const sink = await openZipSink('b.zip');
    expect(sink.kind).toBe('save-dialog');
    expect(picker).toHaveBeenCalledWith(expect.objectContaining({ suggestedName: 'b.zip' }));
    await write(sink.writable, 'zip');
    expect(written).toEqual(['zip']);
    expect(await sink.finish()).toBeNull();
  });

  it('a closed save dialog is "declined", not an error to show', async () => {
    vi.stubGlobal('navigator', { ...navigator, storage: undefined });
    vi.stubGlobal('showSaveFilePicker', async () => Promise.reject(new DOMException('closed', 'AbortError')));
    await expect(openZipSink('c.zip')).rejects.toBeInstanceOf(ZipSinkDeclinedError);
  });

  it('says plainly when the browser has neither', async () => {
    vi.stubGlobal('navigator', { ...navigator, storage: undefined });
    await expect(openZipSink('d.zip')).rejects.toBeInstanceOf(ZipSinkUnavailableError);
  });
});
