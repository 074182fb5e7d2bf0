import { rm, writeFile } from 'node:fs/promises';
import { Accounts, type AccountsSnapshot } from './accounts';
import { CatalogViews } from './catalog-views';
import { fixture as defaultFixture, validateFixture } from './catalog/fixture';
import { Clock, isValidOffset } from './clock';
import type { SandboxConfig } from './config';
import { Describer } from './describe/describer';
import { demoKeyValues, type KeyRecord } from './keys';
import { MEDIA_DEFAULTS, MediaStore, type MediaFile } from './media-store';
import { RateLimiter, type RateGroup } from './rate-limit';
import { Tasks, type TasksSnapshot } from './tasks';
import { UploadScanner, Uploads, type ReceivedUpload, type UploadRecord } from './uploads';

// The sandbox's state and rules, with no HTTP: the routes in ../http call these methods and render
// what they return or throw. Each subject has its own file (accounts.ts, catalog-views.ts, tasks.ts,
// uploads.ts, describe/describer.ts); this class builds them over one clock, one media store and the
// media port (config.works), and is what the routes, persistence and the tests hold. Time always comes
// from `clock`, so everything moves when tests move it.

export type { SandboxConfig } from './config';

/** Everything that survives a restart when the sandbox has a data folder (media bytes are stored beside it). */
export interface SandboxSnapshot extends AccountsSnapshot, TasksSnapshot {
  version: 1;
  clockOffsetMs: number;
  uploads: UploadRecord[];
}

export class Sandbox {
  readonly clock = new Clock();
  readonly rate = new RateLimiter();
  readonly media: MediaStore;
  readonly catalog: CatalogViews;
  readonly accounts: Accounts;
  readonly uploads: Uploads;
  readonly tasks: Tasks;
  readonly describer: Describer;

  constructor(readonly config: SandboxConfig) {
    this.media = new MediaStore({
      dir: config.mediaDir,
      memoryBytes: config.mediaMemoryBytes ?? MEDIA_DEFAULTS.memoryBytes,
      diskBytes: config.mediaDiskBytes ?? MEDIA_DEFAULTS.diskBytes,
      onEvictUpload: (path) => this.uploads.evicted(path),
    });
    const fixture = config.fixture ?? defaultFixture;
    validateFixture(fixture);
    const { clock, media } = this;
    this.catalog = new CatalogViews(fixture, config);
    this.accounts = new Accounts(clock, demoKeyValues(config.demoKeys));
    this.uploads = new Uploads(clock, config, media);
    const { catalog: views, accounts, uploads } = this;
    this.tasks = new Tasks({ clock, config, media, views, accounts, uploads });
    this.describer = new Describer({ clock, config, media, accounts, mediaRef: this.tasks.mediaRef });
    this.resetState();
  }

  /** Back to the initial state, media files deleted (POST /__sandbox/reset). */
  reset(): void {
    this.media.clear();
    this.resetState();
  }

  private resetState(): void {
    this.clock.reset();
    this.rate.reset();
    this.accounts.reset();
    this.tasks.reset();
    this.uploads.reset();
    this.catalog.registerAssets(this.media);
  }

  snapshot(): SandboxSnapshot {
    return {
      version: 1,
      clockOffsetMs: this.clock.offset,
      ...this.accounts.snapshot(),
      ...this.tasks.snapshot(this.accounts.charges),
      uploads: this.uploads.snapshot(),
    };
  }

  /** Loads a snapshot taken by snapshot(); each upload's bytes must already be in the media folder. */
  restore(snap: SandboxSnapshot): void {
    this.resetState();
    // A state saved before the clock had bounds may hold an offset no Date can show: start it afresh.
    this.clock.offset = isValidOffset(snap.clockOffsetMs) ? snap.clockOffsetMs : 0;
    this.accounts.restore(snap);
    this.tasks.restore(snap, this.accounts.charges);
    this.uploads.restore(snap.uploads);
  }

  /** Deletes upload files that no upload record names (left by a crash between a write and a save). */
  removeOrphanUploads(): void {
    this.uploads.removeOrphans();
  }

  // ---- keys and accounts -------------------------------------------------------------------

  demoKeys() {
    return this.accounts.demoKeys();
  }

  keyNameOf(authorization: string | undefined): string | undefined {
    return this.accounts.keyNameOf(authorization);
  }

  authenticate(authorization: string | undefined): KeyRecord {
    return this.accounts.authenticate(authorization);
  }

  limit(key: KeyRecord, group: RateGroup): void {
    if (this.config.rateLimits === false) return;
    this.rate.hit(key.id, group, this.clock.now());
  }

  me(key: KeyRecord) {
    this.settle();
    return this.accounts.me(key);
  }

  // ---- catalog -------------------------------------------------------------------------------

  listModels(type: string | undefined, subType: string | undefined) {
    return this.catalog.listModels(type, subType);
  }

  listAiTools(type: string | undefined) {
    return this.catalog.listAiTools(type);
  }

  getAiTool(slug: string) {
    return this.catalog.getAiTool(slug);
  }

  listTemplates(type: string | undefined) {
    return this.catalog.listTemplates(type);
  }

  getTemplate(slug: string) {
    return this.catalog.getTemplate(slug);
  }

  // ---- tasks ---------------------------------------------------------------------------------

  quote(key: KeyRecord, body: unknown) {
    return this.tasks.quote(key, body);
  }

  submitTask(key: KeyRecord, body: unknown, idempotencyKey: string | undefined) {
    return this.tasks.submitTask(key, body, idempotencyKey);
  }

  /** Whether a POST /tasks repeats an Idempotency-Key that made a task for this credential (no error). */
  isRepeat(authorization: string | undefined, idempotencyKey: string | undefined): boolean {
    if (idempotencyKey === undefined) return false;
    try {
      return this.tasks.isRepeat(this.authenticate(authorization), idempotencyKey);
    } catch {
      return false; // no key, or not one of ours: not a repeat
    }
  }

  getTask(key: KeyRecord, id: string) {
    return this.tasks.getTask(key, id);
  }

  /** Brings billing and run statistics up to the clock: refunds for failed/cancelled, durations for estimates. */
  settle(): void {
    this.tasks.settle();
  }

  // ---- uploads and describe-image ------------------------------------------------------------

  checkUploadHeaders(contentType: string | undefined, contentLength: number | undefined): string {
    return this.uploads.checkHeaders(contentType, contentLength);
  }

  /**
   * An upload: as the HTTP layer received it (streamed to a file, ReceivedUpload), or whole bytes (tests),
   * which are written to such a file first.
   */
  async createUpload(key: KeyRecord, contentType: string, body: Buffer | ReceivedUpload) {
    if (!Buffer.isBuffer(body)) return this.uploads.create(key, contentType, body);
    const file = this.media.newUploadFile();
    await writeFile(file, body);
    try {
      const scanner = new UploadScanner();
      scanner.feed(body);
      return await this.uploads.create(key, contentType, scanner.received(file));
    } finally {
      await rm(file, { force: true }); // moved into place when accepted
    }
  }

  getUpload(key: KeyRecord, id: string) {
    return this.uploads.get(key, id);
  }

  describe(key: KeyRecord, body: unknown) {
    return this.describer.describe(key, body);
  }

  // ---- CDN -----------------------------------------------------------------------------------

  /** A file under /cdn/; an output only once its task has succeeded. */
  async mediaFile(path: string): Promise<MediaFile | null> {
    this.settle();
    if (!this.tasks.isServable(path)) return null;
    return this.media.get(path);
  }
}
