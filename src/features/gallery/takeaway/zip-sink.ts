// Where a "Download selected" ZIP is written while it is made: on disk, never in memory. First choice,
// the Origin Private File System (Chromium, Firefox, Safari with createWritable): the ZIP streams into a
// private file, and when it is complete that disk-backed File is downloaded through an object URL, an
// ordinary download like every other one in the studio. Else the save dialog (showSaveFilePicker), which
// writes straight to the file the user picks. Else the browser has no way to write a large file as it
// is made, and the studio says so rather than buffering a ZIP of unknown size in memory.

export interface ZipSink {
  kind: 'private-file' | 'save-dialog';
  writable: WritableStream<Uint8Array>;
  /** After the ZIP is written: the file to download (private file), or null (already saved). */
  finish(): Promise<File | null>;
  /** After a cancel or failure: removes what was written. */
  discard(): Promise<void>;
}

export class ZipSinkUnavailableError extends Error {
  constructor() {
    super(
      'This browser cannot write a large file to disk as it is made, so it cannot download a selection as one ZIP. ' +
        'Use a recent Chrome, Edge, Firefox or Safari, or download the outputs one by one.',
    );
    this.name = 'ZipSinkUnavailableError';
  }
}

/** The user closed the save dialog without choosing a file. */
export class ZipSinkDeclinedError extends Error {
  constructor() {
    super('No file was chosen.');
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
 * A finished ZIP stays in the private folder while the browser copies it to Downloads (deleting it
 * sooner would break that copy); the next export removes those older than this.
 */
const KEEP_FINISHED_MS = 30 * 60_000;

async function removeStaleExports(dir: FileSystemDirectoryHandle, keep: string, now: number) {
  const names: string[] = [];
  // entries() is in every browser with OPFS, not yet in TypeScript's DOM types.
  const iterable = dir as unknown as { keys(): AsyncIterable<string> };
  for await (const name of iterable.keys()) if (name !== keep) names.push(name);
  for (const name of names) {
    try {
      const file = await (await dir.getFileHandle(name)).getFile();
      if (now - file.lastModified > KEEP_FINISHED_MS) await dir.removeEntry(name);
    } catch {
      // Another tab may be writing or removing it: leave it.
    }
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
  void removeStaleExports(dir, unique, Date.now());
  return {
    kind: 'private-file',
    writable,
    // A File backed by the private file on disk: downloading it reads the disk, not memory.
    finish: () => handle.getFile(),
    discard: async () => {
      await dir.removeEntry(unique).catch(() => undefined);
    },
  };
}

async function saveDialogSink(name: string): Promise<ZipSink | null> {
  const picker = (globalThis as unknown as SaveFilePickerWindow).showSaveFilePicker;
  if (typeof picker !== 'function') return null;
  let handle: FileSystemFileHandle;
  try {
    handle = await picker({
      suggestedName: name,
      types: [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }],
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
