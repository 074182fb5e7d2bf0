import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '../../../contract/upload';
import { requireProject } from './accounts';
import type { Clock } from './clock';
import { absoluteUrl, newId, type SandboxConfig } from './config';
import { SandboxError, invalidPayload } from './errors';
import type { KeyRecord } from './keys';
import type { MediaStore } from './media-store';
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

  async create(key: KeyRecord, contentType: string, bytes: Buffer) {
    requireProject(key);
    if (bytes.length === 0) throw invalidPayload('The upload body is empty.');
    if (bytes.length > UPLOAD_MAX_BYTES) throw fileTooLarge();
    const kind = contentType.split('/')[0] as MediaKind;
    // The bytes must be what the Content-Type says (api-notes §4); a video that cannot be read ends errored.
    const verdict = await this.config.works.verifyUpload(bytes, contentType);
    if (verdict.ok === false) throw invalidPayload(verdict.reason, 'Content-Type', verdict.extra);
    const blocked = bytes.includes(BLOCK_MARK);
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
      size: bytes.length,
      path: `/cdn/uploads/${id}.${EXT_OF[contentType] ?? 'bin'}`,
      createdAt: now,
      decidedAt: kind === 'video' ? now + this.config.moderationMs : now,
      outcome: blocked
        ? { status: 'blocked', labels: MODERATION_LABELS }
        : verdict.ok === 'unreadable'
          ? { status: 'errored', reason: verdict.reason }
          : kind === 'video' && bytes.includes(ERROR_MARK)
            ? { status: 'errored', reason: 'The video could not be decoded (sandbox SANDBOX-ERROR trigger).' }
            : { status: 'ready' },
      probe,
    };
    try {
      await this.media.putUpload(record.path, { bytes, contentType });
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
