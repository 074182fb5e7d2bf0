import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '../../../contract/upload';
import { requireProject } from './accounts';
import type { Clock } from './clock';
import { absoluteUrl, newId, type SandboxConfig } from './config';
import { SandboxError, invalidPayload } from './errors';
import type { KeyRecord } from './keys';
import type { MediaStore } from './media-store';
import type { UploadFile } from './media-works';
import type { MediaProbe } from './media-types';
import type { MediaKind } from './params';

// POST /uploads and GET /uploads/{id}: a user's own files, checked to be what they say (through the
// media port), moderated (videos asynchronously), and kept in the media store under /cdn/uploads/.

type UploadOutcome =
  { status: 'ready' } | { status: 'blocked'; labels: string } | { status: 'errored'; reason: string };

export interface UploadRecord {
  id: string;
  keyId: string;
  kind: MediaKind;
  contentType: string;
  size: number;
  path: string;
  createdAt: number;
  /** Videos: when asynchronous moderation ends. */
  decidedAt: number;
  outcome: UploadOutcome;
  probe: MediaProbe;
}

const BLOCK_MARK = Buffer.from('SANDBOX-BLOCK');
const ERROR_MARK = Buffer.from('SANDBOX-ERROR');
/**
 * The first bytes of an upload kept in memory: every signature, and a PNG's header, fit.
 * @internal
 */
export const UPLOAD_HEAD_BYTES = 64;

/** An upload body as received: on disk in a file of the media store's (MediaStore.newUploadFile), scanned on the way. */
export interface ReceivedUpload extends UploadFile {
  /** Whether the bytes contain the sandbox's moderation triggers (README: Triggers). */
  blockMark: boolean;
  errorMark: boolean;
}

/**
 * Reads an upload body chunk by chunk as it streams to disk, keeping only what the checks need: its size,
 * its first bytes and whether the trigger texts occur (a marker split across two chunks included). So an
 * upload costs a few bytes of memory however large it is (README: Limits).
 */
export class UploadScanner {
  size = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private blockMark = false;
  private errorMark = false;

  feed(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.size += bytes.length;
    if (this.head.length < UPLOAD_HEAD_BYTES)
      this.head = Buffer.concat([this.head, bytes.subarray(0, UPLOAD_HEAD_BYTES - this.head.length)]);
    const window = Buffer.concat([this.tail, bytes]);
    this.blockMark ||= window.includes(BLOCK_MARK);
    this.errorMark ||= window.includes(ERROR_MARK);
    const keep = Math.max(BLOCK_MARK.length, ERROR_MARK.length) - 1;
    this.tail = Buffer.from(window.subarray(Math.max(0, window.length - keep)));
  }

  received(path: string): ReceivedUpload {
    const { size, head, blockMark, errorMark } = this;
    return { path, size, head, blockMark, errorMark };
  }
}
const MODERATION_LABELS = 'explicit_nudity,graphic_violence';
const EXT_OF: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/webm': 'weba',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
};

export class Uploads {
  private byId = new Map<string, UploadRecord>();
  private byPath = new Map<string, UploadRecord>();

  constructor(
    private readonly clock: Clock,
    private readonly config: SandboxConfig,
    private readonly media: MediaStore,
  ) {}

  reset(): void {
    this.byId.clear();
    this.byPath.clear();
  }

  snapshot(): UploadRecord[] {
    return [...this.byId.values()];
  }

  /** Takes back the saved uploads whose bytes are still in the media folder. */
  restore(records: UploadRecord[]): void {
    for (const u of records) {
      if (!this.media.adoptUpload(u.path, u.contentType)) continue;
      this.add(u);
    }
  }

  private add(u: UploadRecord): void {
    this.byId.set(u.id, u);
    this.byPath.set(u.path, u);
  }

  /** The media store dropped this upload's file to keep the disk within its bound. */
  evicted(path: string): void {
    const upload = this.byPath.get(path);
    this.byPath.delete(path);
    if (upload) this.byId.delete(upload.id);
  }

  /** Deletes upload files that no upload record names (left by a crash between a write and a save). */
  removeOrphans(): void {
    for (const id of this.media.uploadFileIds()) if (!this.byId.has(id)) this.media.removeUploadFile(id);
  }

  atPath(path: string): UploadRecord | undefined {
    return this.byPath.get(path);
  }

  statusOf(u: UploadRecord): UploadOutcome | { status: 'processing' } {
    return this.clock.now() < u.decidedAt ? { status: 'processing' } : u.outcome;
  }

  checkHeaders(contentType: string | undefined, contentLength: number | undefined): string {
    const type = contentType?.split(';')[0]?.trim().toLowerCase();
    if (!type || !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(type)) {
      throw invalidPayload(
        `Content-Type ${type ? `"${type}" ` : ''}is not accepted. Send the file's true type, one of: ${UPLOAD_CONTENT_TYPES.join(', ')}.`,
        'Content-Type',
        { allowedContentTypes: UPLOAD_CONTENT_TYPES },
      );
    }
    if (contentLength !== undefined && contentLength > UPLOAD_MAX_BYTES) throw fileTooLarge();
    return type;
  }

  /**
   * Checks a received upload and keeps it: its file is moved into the media store (so the caller deletes
   * it only when it is still there, that is when the upload was refused).
   */
  async create(key: KeyRecord, contentType: string, upload: ReceivedUpload) {
    requireProject(key);
    if (upload.size === 0) throw invalidPayload('The upload body is empty.');
    if (upload.size > UPLOAD_MAX_BYTES) throw fileTooLarge();
    const kind = contentType.split('/')[0] as MediaKind;
    // The bytes must be what the Content-Type says (api-notes §4); a video that cannot be read ends errored.
    const verdict = await this.config.works.verifyUpload(upload, contentType);
    if (verdict.ok === false) throw invalidPayload(verdict.reason, 'Content-Type', verdict.extra);
    const blocked = upload.blockMark;
    if (blocked && kind !== 'video') {
      throw new SandboxError(451, 'moderation_blocked', 'The file was rejected by content moderation.', {
        extra: { labels: MODERATION_LABELS },
      });
    }
    const probe = verdict.probe;
    const now = this.clock.now();
    const id = newId('upl');
    const record: UploadRecord = {
      id,
      keyId: key.id,
      kind,
      contentType,
      size: upload.size,
      path: `/cdn/uploads/${id}.${EXT_OF[contentType] ?? 'bin'}`,
      createdAt: now,
      decidedAt: kind === 'video' ? now + this.config.moderationMs : now,
      outcome: blocked
        ? { status: 'blocked', labels: MODERATION_LABELS }
        : verdict.ok === 'unreadable'
          ? { status: 'errored', reason: verdict.reason }
          : kind === 'video' && upload.errorMark
            ? { status: 'errored', reason: 'The video could not be decoded (sandbox SANDBOX-ERROR trigger).' }
            : { status: 'ready' },
      probe,
    };
    try {
      await this.media.putUploadFile(record.path, contentType, upload.path, upload.size);
    } catch {
      throw new SandboxError(502, 'storage_upload_failed', 'The file could not be stored.');
    }
    this.add(record);
    if (kind === 'video') {
      return {
        status: 202,
        body: { status: 'processing' as const, uploadId: id, pollUrl: `/v1/uploads/${id}` },
      };
    }
    return {
      status: 200,
      body: { status: 'ready' as const, url: this.url(record.path), size: record.size, contentType },
    };
  }

  private url(path: string): string {
    return absoluteUrl(this.config, path);
  }

  get(key: KeyRecord, id: string) {
    const u = this.byId.get(id);
    if (!u || u.keyId !== key.id)
      throw new SandboxError(404, 'unknown_upload', `No upload "${id}" for this key.`);
    const s = this.statusOf(u);
    switch (s.status) {
      case 'processing':
        return {
          status: 202,
          body: { status: 'processing', uploadId: u.id, pollUrl: `/v1/uploads/${u.id}` },
        };
      case 'ready':
        return {
          status: 200,
          body: { status: 'ready', url: this.url(u.path), size: u.size, contentType: u.contentType },
        };
      case 'blocked':
        return {
          status: 200,
          body: {
            status: 'blocked',
            labels: s.labels,
            error: 'The video was rejected by content moderation.',
          },
        };
      case 'errored':
        return { status: 200, body: { status: 'errored', reason: s.reason } };
    }
  }
}

const fileTooLarge = () =>
  new SandboxError(413, 'file_too_large', `The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`, {
    extra: { maxBytes: UPLOAD_MAX_BYTES },
  });
