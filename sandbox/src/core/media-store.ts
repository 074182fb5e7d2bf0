import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderedMedia } from './media-types';

// Every file the sandbox serves under /cdn/: uploads (bytes kept as received), task outputs and catalog
// assets (rendered on first use). Paths are the key; URLs are the public origin + path.
//
// Storage is bounded (README: Storage): every file's bytes live on disk, in `dir` (the data folder, or a
// private temporary folder), and only a least-recently-used cache of them stays in memory
// (`memoryBytes`). The disk holds at most `diskBytes`: past that the oldest files go first; a rendered
// file is simply made again when next asked for, an upload is gone (its URL answers 404).

export interface MediaFile {
  bytes: Buffer;
  contentType: string;
}

export interface MediaStoreOptions {
  dir: string;
  /** Bytes of file contents kept in memory (an LRU cache over the files on disk). */
  memoryBytes: number;
  /** Bytes of files kept on disk, uploads and renders together. */
  diskBytes: number;
  /** Told when an upload is dropped to keep the disk within `diskBytes`. */
  onEvictUpload?: (path: string) => void;
}

export const MEDIA_DEFAULTS = { memoryBytes: 64 * 1024 * 1024, diskBytes: 2 * 1024 * 1024 * 1024 };

interface Entry {
  upload: boolean;
  contentType?: string;
  /** Name of the file under `dir` once the bytes are there. */
  file?: string;
  size?: number;
  render?: () => Promise<MediaFile>;
  pending?: Promise<MediaFile>;
}

const UPLOADS = 'uploads';
const RENDERS = 'renders';
/**
 * The names of the files the store writes: an upload's id (config.ts newId: upl_ and 12 base64url
 * characters), a render's hashed path. Only files so named are ever deleted, so whatever else lies in
 * the folder (a person's file, a folder) is left alone (README: Storage).
 */
const UPLOAD_NAME = /^upl_[A-Za-z0-9_-]{12}$/;
const RENDER_NAME = /^[0-9a-f]{32}$/;
/** An upload body being received (newUploadFile): moved into place once accepted, else deleted. */
const PART_NAME = /^\.part-[0-9a-f]{16}$/;

/** Where a path's bytes are kept: uploads/<id> (the upload id, as the data folder has always had them), renders/<hash of the path>. */
function fileNameOf(path: string, upload: boolean): string {
  const base = path.split('/').pop() ?? '';
  if (upload) return join(UPLOADS, base.replace(/\.[^.]*$/, '').replace(/[^\w-]/g, '_'));
  return join(RENDERS, createHash('sha256').update(path).digest('hex').slice(0, 32));
}

/** The files directly in `folder` whose names match `pattern` (never a folder). */
function ownFiles(folder: string, pattern: RegExp): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && pattern.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** Deletes the files of ours in `folder`, and nothing else. */
function removeOwnFiles(folder: string, pattern: RegExp): void {
  for (const name of ownFiles(folder, pattern)) rmSync(join(folder, name), { force: true });
}

export class MediaStore {
  private entries = new Map<string, Entry>();
  /** Files on disk, oldest first, with their sizes. */
  private onDisk = new Map<string, number>();
  private diskUsed = 0;
  /** Bytes in memory, least recently used first. */
  private cache = new Map<string, Buffer>();
  private cacheUsed = 0;
  /** Bumped by clear(): a render that finishes after a clear stores nothing. */
  private generation = 0;

  /** Uploads already in the folder stay (a restart adopts them); renders are a cache and start empty. */
  constructor(readonly options: MediaStoreOptions) {
    mkdirSync(join(options.dir, UPLOADS), { recursive: true });
    mkdirSync(join(options.dir, RENDERS), { recursive: true });
    removeOwnFiles(join(options.dir, RENDERS), RENDER_NAME);
    // Bodies a killed process was receiving.
    removeOwnFiles(join(options.dir, UPLOADS), PART_NAME);
  }

  /** A new file name for an upload body to be streamed into (beside the uploads, so accepting it is a rename). */
  newUploadFile(): string {
    return join(this.options.dir, UPLOADS, `.part-${randomBytes(8).toString('hex')}`);
  }

  /** Moves a received upload's file (newUploadFile) into place. Its bytes are read from disk when asked for. */
  async putUploadFile(path: string, contentType: string, file: string, size: number): Promise<void> {
    const name = fileNameOf(path, true);
    await rename(file, join(this.options.dir, name));
    const old = this.entries.get(path);
    if (old) this.forgetBytes(path, old);
    this.entries.set(path, { upload: true, contentType, file: name, size });
    this.stored(path, size);
  }

  /** Stores an upload's bytes (on disk, and in the cache). */
  async putUpload(path: string, file: MediaFile): Promise<void> {
    const name = fileNameOf(path, true);
    await writeFile(join(this.options.dir, name), file.bytes);
    this.entries.set(path, {
      upload: true,
      contentType: file.contentType,
      file: name,
      size: file.bytes.length,
    });
    this.remember(path, file.bytes);
    this.stored(path, file.bytes.length);
  }

  /** Takes over an upload already in the folder (a restart with a data folder); false when it is missing. */
  adoptUpload(path: string, contentType: string): boolean {
    const name = fileNameOf(path, true);
    let size: number;
    try {
      const stat = statSync(join(this.options.dir, name));
      if (!stat.isFile()) return false;
      size = stat.size;
    } catch {
      return false;
    }
    this.entries.set(path, { upload: true, contentType, file: name, size });
    this.stored(path, size);
    return true;
  }

  /** The names of the upload files in the folder (uploads/<id>), to find ones no record names. */
  uploadFileIds(): string[] {
    return ownFiles(join(this.options.dir, UPLOADS), UPLOAD_NAME);
  }

  removeUploadFile(id: string): void {
    rmSync(join(this.options.dir, UPLOADS, id.replace(/[^\w-]/g, '_')), { force: true });
  }

  /** Registers media made on first request; the render runs once, however many ask. */
  putLazy(path: string, render: () => Promise<MediaFile>): void {
    this.entries.set(path, { upload: false, render });
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  async get(path: string): Promise<MediaFile | null> {
    const entry = this.entries.get(path);
    if (!entry) return null;
    if (entry.file) {
      const cached = this.cache.get(path);
      if (cached) {
        this.remember(path, cached); // most recently used now
        return { bytes: cached, contentType: entry.contentType! };
      }
      const name = entry.file;
      try {
        const bytes = await readFile(join(this.options.dir, name));
        if (this.entries.get(path) === entry && entry.file === name) this.remember(path, bytes);
        return { bytes, contentType: entry.contentType! };
      } catch {
        // Evicted between the look-up and the read: an upload is gone, a render is made again below.
        if (entry.upload || !entry.render) return null;
      }
    }
    if (!entry.render) return null;
    const generation = this.generation;
    entry.pending ??= entry.render().then(
      async (file) => {
        entry.pending = undefined;
        await this.storeRendered(path, entry, file, generation);
        return file;
      },
      (err: unknown) => {
        entry.pending = undefined; // let a later request try again
        throw err;
      },
    );
    return entry.pending;
  }

  /**
   * Registers a render that makes two files at once (a video and its poster): whichever is asked for
   * first makes both and stores both; nothing of the render is held once it is stored.
   */
  putLazyPair(mainPath: string, thumbPath: string, render: () => Promise<RenderedMedia>): void {
    let shared: Promise<RenderedMedia> | undefined;
    const run = () => {
      shared ??= render().finally(() => (shared = undefined));
      return shared;
    };
    const generation = this.generation;
    const storeOther = (path: string, file: MediaFile) => {
      const other = this.entries.get(path);
      if (other && !other.file && !other.pending) void this.storeRendered(path, other, file, generation);
    };
    this.putLazy(mainPath, async () => {
      const r = await run();
      if (r.thumbnail) storeOther(thumbPath, r.thumbnail);
      return { bytes: r.bytes, contentType: r.contentType };
    });
    this.putLazy(thumbPath, async () => {
      const r = await run();
      if (!r.thumbnail) throw new Error('this media has no thumbnail');
      storeOther(mainPath, { bytes: r.bytes, contentType: r.contentType });
      return r.thumbnail;
    });
  }

  private async storeRendered(
    path: string,
    entry: Entry,
    file: MediaFile,
    generation: number,
  ): Promise<void> {
    const current = () => generation === this.generation && this.entries.get(path) === entry;
    if (!current()) return;
    const name = fileNameOf(path, false);
    await writeFile(join(this.options.dir, name), file.bytes).catch(() => undefined);
    if (!current()) return;
    Object.assign(entry, { file: name, size: file.bytes.length, contentType: file.contentType });
    this.remember(path, file.bytes);
    this.stored(path, file.bytes.length);
  }

  delete(path: string): void {
    const entry = this.entries.get(path);
    if (!entry) return;
    this.entries.delete(path);
    this.forgetBytes(path, entry);
  }

  /** Forgets every file and deletes them from the folder (POST /__sandbox/reset). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.cache.clear();
    this.cacheUsed = 0;
    this.onDisk.clear();
    this.diskUsed = 0;
    removeOwnFiles(join(this.options.dir, UPLOADS), UPLOAD_NAME);
    removeOwnFiles(join(this.options.dir, RENDERS), RENDER_NAME);
  }

  /** What the store holds now, for tests and the README's bounds. */
  stats() {
    return {
      memoryBytes: this.cacheUsed,
      diskBytes: this.diskUsed,
      files: this.onDisk.size,
      entries: this.entries.size,
    };
  }

  private remember(path: string, bytes: Buffer): void {
    const old = this.cache.get(path);
    if (old) {
      this.cache.delete(path);
      this.cacheUsed -= old.length;
    }
    if (bytes.length > this.options.memoryBytes / 2) return; // big files are read from disk each time
    this.cache.set(path, bytes);
    this.cacheUsed += bytes.length;
    for (const [p, b] of this.cache) {
      if (this.cacheUsed <= this.options.memoryBytes) break;
      this.cache.delete(p);
      this.cacheUsed -= b.length;
    }
  }

  private stored(path: string, size: number): void {
    const old = this.onDisk.get(path);
    if (old !== undefined) {
      this.onDisk.delete(path);
      this.diskUsed -= old;
    }
    this.onDisk.set(path, size);
    this.diskUsed += size;
    for (const [p] of this.onDisk) {
      if (this.diskUsed <= this.options.diskBytes) break;
      if (p === path) continue; // the newest file stays, whatever its size
      const entry = this.entries.get(p);
      if (!entry) {
        this.onDisk.delete(p);
        continue;
      }
      if (entry.upload) {
        this.entries.delete(p);
        this.forgetBytes(p, entry);
        this.options.onEvictUpload?.(p);
      } else {
        this.forgetBytes(p, entry); // made again on the next request
      }
    }
  }

  private forgetBytes(path: string, entry: Entry): void {
    const cached = this.cache.get(path);
    if (cached) {
      this.cache.delete(path);
      this.cacheUsed -= cached.length;
    }
    const size = this.onDisk.get(path);
    if (size !== undefined) {
      this.onDisk.delete(path);
      this.diskUsed -= size;
    }
    if (entry.file) {
      const file = join(this.options.dir, entry.file);
      entry.file = undefined;
      void rm(file, { force: true }).catch(() => undefined);
    }
  }
}
