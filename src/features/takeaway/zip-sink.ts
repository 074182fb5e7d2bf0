// Where a "Download selected" ZIP is written while it is made: on disk, never in memory. First choice,
// the Origin Private File System (Chromium, Firefox, Safari with createWritable): the ZIP streams into a
// private file, and when it is complete that disk-backed File is downloaded through an object URL, an
// ordinary download like every other one in the studio. Else the save dialog (showSaveFilePicker), which
// writes straight to the file the user picks. Else the browser has no way to write a large file as it
// is made, and the studio says so rather than buffering a ZIP of unknown size in memory.
//
// A private file is removed once its download has been handed over (with the time the browser needs
// to copy it to Downloads), and files left by a tab closed before that are removed when the studio
// starts and before each export: the private file system never keeps ZIPs the user already has.

import { t } from '@lingui/core/macro';

export interface ZipSink {
  kind: 'private-file' | 'save-dialog';
  writable: WritableStream<Uint8Array>;
  /** After the ZIP is written: the file to download (private file), or null (already saved). */
  finish(): Promise<File | null>;
  /**
   * The finished file has been handed to the browser's download: it is removed as soon as the browser
   * has had time to copy it (see handOverMs). Nothing to do for a file the user chose.
   */
  handedOver(): void;
  /** After a cancel or failure: removes what was written. */
  discard(): Promise<void>;
}

/** @internal */
export class ZipSinkUnavailableError extends Error {
  constructor() {
    super(
      t`This browser cannot write a large file to disk as it is made, so it cannot download a selection as one ZIP. Use a recent Chrome, Edge, Firefox or Safari, or download the outputs one by one.`,
    );
    this.name = 'ZipSinkUnavailableError';
  }
}

/**
 * The user closed the save dialog without choosing a file.
 * @internal
 */
export class ZipSinkDeclinedError extends Error {
  constructor() {
    super(t`No file was chosen.`);
    this.name = 'ZipSinkDeclinedError';
  }
}

interface SaveFilePickerWindow {
  showSaveFilePicker?: (options: {
    suggestedName: string;
    types: Array<{ description: string; accept: Record<string, string[]> }>;
  }) => Promise<FileSystemFileHandle>;
}

const EXPORT_DIR = 'zip-exports';

/**
 * How long a finished ZIP must stay after its download is handed over. The download reads the private
 * file while it copies it to Downloads (a File from the private file system is backed by it: removed
 * sooner, the copy fails): a minute to start, and time to copy at 10 MB/s, slower than any disk.
 * @internal
 */
export const handOverMs = (bytes: number): number => 60_000 + Math.ceil(bytes / 10_000);

async function removeFinished(dir: FileSystemDirectoryHandle, now: number, keep?: string) {
  const names: string[] = [];
  // keys() is in every browser with OPFS, not yet in TypeScript's DOM types.
  const iterable = dir as unknown as { keys(): AsyncIterable<string> };
  for await (const name of iterable.keys()) if (name !== keep) names.push(name);
  for (const name of names) {
    try {
      const file = await (await dir.getFileHandle(name)).getFile();
      // Younger than its hand-over time: another tab's download may still be copying it.
      if (now - file.lastModified > handOverMs(file.size)) await dir.removeEntry(name);
    } catch {
      // Another tab may be writing or removing it: leave it.
    }
  }
}

/** Removes the ZIPs earlier visits left in the private file system (a tab closed before their removal). */
export async function removeLeftoverZips(now = Date.now()): Promise<void> {
  const storage = globalThis.navigator?.storage;
  if (typeof storage?.getDirectory !== 'function') return;
  try {
    const root = await storage.getDirectory();
    // No folder, no leftovers: nothing is created just to be looked at.
    const dir = await root.getDirectoryHandle(EXPORT_DIR).catch(() => null);
    if (dir) await removeFinished(dir, now);
  } catch {
    // Private browsing refuses the private file system: nothing was left there either.
  }
}

async function privateFileSink(name: string): Promise<ZipSink | null> {
  const storage = globalThis.navigator?.storage;
  if (typeof storage?.getDirectory !== 'function') return null;
  let dir: FileSystemDirectoryHandle;
  let handle: FileSystemFileHandle;
  let writable: FileSystemWritableFileStream;
  const unique = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${name}`;
  try {
    dir = await (await storage.getDirectory()).getDirectoryHandle(EXPORT_DIR, { create: true });
    handle = await dir.getFileHandle(unique, { create: true });
    if (typeof handle.createWritable !== 'function') {
      await dir.removeEntry(unique);
      return null;
    }
    writable = await handle.createWritable();
  } catch {
    // Private browsing (Firefox) refuses the private file system: try the next way.
    return null;
  }
  void removeFinished(dir, Date.now(), unique);
  let size = 0;
  const remove = async () => {
    await dir.removeEntry(unique).catch(() => undefined);
  };
  return {
    kind: 'private-file',
    writable,
    // A File backed by the private file on disk: downloading it reads the disk, not memory.
    finish: async () => {
      const file = await handle.getFile();
      size = file.size;
      return file;
    },
    handedOver: () => void setTimeout(() => void remove(), handOverMs(size)),
    discard: remove,
  };
}

async function saveDialogSink(name: string): Promise<ZipSink | null> {
  const picker = (globalThis as unknown as SaveFilePickerWindow).showSaveFilePicker;
  if (typeof picker !== 'function') return null;
  let handle: FileSystemFileHandle;
  try {
    handle = await picker({
      suggestedName: name,
      types: [
        {
          description: t({ message: 'ZIP archive', comment: 'file type in the save dialog' }),
          accept: { 'application/zip': ['.zip'] },
        },
      ],
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw new ZipSinkDeclinedError();
    throw error;
  }
  const writable = await handle.createWritable();
  return {
    kind: 'save-dialog',
    writable,
    finish: async () => null,
    handedOver: () => undefined,
    // An aborted writable leaves the chosen file as it was; there is nothing more to remove.
    discard: async () => undefined,
  };
}

/** Opens the first way this browser has to write the ZIP to disk; throws ZipSinkUnavailableError when none. */
export async function openZipSink(name: string): Promise<ZipSink> {
  const sink = (await privateFileSink(name)) ?? (await saveDialogSink(name));
  if (!sink) throw new ZipSinkUnavailableError();
  return sink;
}
