import type { RenderedMedia } from '../media/types';

// Every file the sandbox serves under /cdn/: uploads (bytes kept as received), task outputs and catalog
// assets (rendered on first use, then kept). Paths are the key; URLs are the public origin + path.

export interface MediaFile {
  bytes: Buffer;
  contentType: string;
}

type Entry = { file: MediaFile } | { render: () => Promise<MediaFile>; pending?: Promise<MediaFile> };

export class MediaStore {
  private entries = new Map<string, Entry>();

  putFile(path: string, file: MediaFile): void {
    this.entries.set(path, { file });
  }

  /** Registers media made on first request; the render runs once, however many ask. */
  putLazy(path: string, render: () => Promise<MediaFile>): void {
    this.entries.set(path, { render });
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  async get(path: string): Promise<MediaFile | null> {
    const entry = this.entries.get(path);
    if (!entry) return null;
    if ('file' in entry) return entry.file;
    entry.pending ??= entry.render().then(
      (file) => {
        this.entries.set(path, { file });
        return file;
      },
      (err: unknown) => {
        entry.pending = undefined; // let a later request try again
        throw err;
      },
    );
    return entry.pending;
  }

  /** Starts a lazy render now so the first request finds it done. Errors surface on get(). */
  warm(path: string): void {
    this.get(path).catch(() => undefined);
  }

  delete(path: string): void {
    this.entries.delete(path);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Renders a pair (media + video poster) once and exposes each half as a lazy file. */
export function splitRender(render: () => Promise<RenderedMedia>): {
  main: () => Promise<MediaFile>;
  thumbnail: () => Promise<MediaFile>;
} {
  let once: Promise<RenderedMedia> | undefined;
  const run = () => (once ??= render());
  return {
    main: async () => {
      const r = await run();
      return { bytes: r.bytes, contentType: r.contentType };
    },
    thumbnail: async () => {
      const r = await run();
      if (!r.thumbnail) throw new Error('this media has no thumbnail');
      return r.thumbnail;
    },
  };
}
