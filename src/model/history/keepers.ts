import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// "Keep the keepers": a starred output's bytes saved on this device, so it opens and downloads even
// when its URL no longer answers (output URLs are the service's CDN; nothing says they live forever).
// The bytes are a Blob in the output's record of the `keepers` IndexedDB store ([connectionId,
// outputKey]): one write holds record and bytes together, browsers keep such Blobs on disk (reading a
// record does not load its bytes), and it works wherever IndexedDB does. Reads are parsed, never
// trusted. Readers subscribe (useSyncExternalStore) to an immutable snapshot.
//
// keep() never throws: the star belongs to the judgements and stays whatever happens here. A failure
// (storage full above all) is a result and is in the snapshot, for the storage meter to say.
//
// Saves take turns, a few at a time (a bulk Star of 10,000 outputs must not open 10,000 requests), and a
// failed one is remembered: asked again before its back-off is over, keep() answers the same failure
// without a request and without raising the alert again (an expired URL stays expired; the studio asks
// on every change of the history, each poll answer among them).

const KeeperRecordSchema = z.object({
  connectionId: z.string().check(z.minLength(1)),
  outputKey: z.string().check(z.minLength(1)),
  taskId: z.string().check(z.minLength(1)),
  url: z.string(),
  contentType: z.nullable(z.string()),
  size: z.int().check(z.nonnegative()),
  savedAt: z.number(),
  blob: z.instanceof(Blob),
});
type KeeperRecord = z.infer<typeof KeeperRecordSchema>;

/** What the snapshot says of a kept output (its bytes are read on demand). */
type KeeperInfo = Omit<KeeperRecord, 'blob' | 'connectionId'>;

/** An output to keep: a GalleryItem fits (structurally; lib knows no features). */
export interface KeepableOutput {
  /** `${taskId}#${index}` */
  key: string;
  entry: { taskId: string };
  output: { url: string } | null;
}

/** forgotten: forget() came while it was being saved (un-starred at once); nothing is kept. */
export type KeepFailureReason = 'quota' | 'fetch' | 'storage' | 'no-output' | 'forgotten';

interface KeepFailure {
  outputKey: string;
  reason: KeepFailureReason;
  message: string;
}

export type KeepResult = { ok: true; info: KeeperInfo } | { ok: false; failure: KeepFailure };

export interface KeepersSnapshot {
  kept: ReadonlyMap<string, KeeperInfo>;
  /** Bytes of every kept output of this connection. */
  bytes: number;
  /** How many outputs are being fetched and saved, or wait their turn (a count: no set copied per save). */
  saving: number;
  /** The last keep that failed, until it is dismissed, retried or that output forgotten. */
  failure: KeepFailure | null;
}

/** `db` and `onError`: the database and who hears of a failed forget (connection-stores.ts). */
export interface KeepersDeps extends LocalIo {
  fetch?: typeof fetch;
  /** navigator.storage.persist: asked once a first output is kept, so the browser does not evict it. */
  persist?: () => Promise<boolean>;
  now?: () => number;
}

/**
 * Saves that run at once; the others wait their turn.
 * @internal
 */
export const KEEP_CONCURRENCY = 4;
/**
 * A failed save is not tried again before this; each failure after doubles it, up to KEEP_RETRY_MAX_MS.
 * @internal
 */
export const KEEP_RETRY_MS = 60_000;
const KEEP_RETRY_MAX_MS = 6 * 3_600_000;

interface Remembered {
  failure: KeepFailure;
  attempts: number;
  /** Not tried again before then; Infinity while it is being tried. */
  retryAt: number;
}

/**
 * The studio's own words for a full device (a failure's message is shown as it was made).
 * @internal
 */
export const quotaMessage = (): string =>
  t`This device's storage for the studio is full, so the output is starred but not saved here. Free some space (forget kept outputs you no longer need, or free disk space on this device), then star it again.`;

const notSavedMessage = (error: unknown): string => {
  const reason = reasonOf(error);
  return t`The output could not be saved on this device: ${reason}.`;
};

const isQuotaError = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'name' in error &&
  (error as { name: unknown }).name === 'QuotaExceededError';

const reasonOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : String(error);

function infoOf({ blob: _b, connectionId: _c, ...info }: KeeperRecord): KeeperInfo {
  return info;
}

export class KeepersStore {
  private state: KeepersSnapshot = { kept: new Map(), bytes: 0, saving: 0, failure: null };
  private readonly listeners = new Listeners();
  private inFlight = new Map<string, Promise<KeepResult>>();
  /** In flight and not yet started (waiting its turn). */
  private queued = new Set<string>();
  /** Saves waiting their turn, first come first served (`next` is the head: no shift of a long array). */
  private queue: Array<() => Promise<void>> = [];
  private next = 0;
  private running = 0;
  /** Failed saves, by output key, until they succeed or the output is forgotten. */
  private failed = new Map<string, Remembered>();
  /** No remembered failure is due before this (it may be earlier than any: then a scan finds none). */
  private earliestRetry = Infinity;
  private urls = new Map<string, string>();
  private asked = false;
  /** Outputs forgotten while their save was in flight: the save is undone when it lands. */
  private forgotten = new Set<string>();

  private constructor(
    readonly connectionId: string,
    private readonly deps: KeepersDeps,
    private readonly records: LocalRecords<'keepers', KeeperRecord>,
  ) {}

  static async open(connectionId: string, deps: KeepersDeps): Promise<KeepersStore> {
    const records = new LocalRecords('keepers', connectionId, KeeperRecordSchema, deps);
    const store = new KeepersStore(connectionId, deps, records);
    const kept = new Map<string, KeeperInfo>();
    for (const record of await records.load()) {
      if (record.connectionId === connectionId) kept.set(record.outputKey, infoOf(record));
    }
    store.state = { ...store.state, kept, bytes: sum(kept) };
    return store;
  }

  subscribe = this.listeners.subscribe;

  snapshot = (): KeepersSnapshot => this.state;

  has(outputKey: string): boolean {
    return this.state.kept.has(outputKey);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Outputs whose save failed and is remembered (so an un-starred one can be let go). */
  failedKeys(): Iterable<string> {
    return this.failed.keys();
  }

  /** Lets a remembered failure go: the next keep() of that output tries at once (starred again). */
  clearFailure(outputKey: string): void {
    this.failed.delete(outputKey);
    if (this.state.failure?.outputKey === outputKey) this.set({ failure: null });
  }

  /**
   * The outputs whose failed save may be tried again now. Nothing is scanned before the earliest
   * back-off ends, so asking on every change of the history costs nothing while none is due.
   */
  dueForRetry(): string[] {
    const now = this.now();
    if (now < this.earliestRetry) return [];
    const due: string[] = [];
    let earliest = Infinity;
    for (const [key, remembered] of this.failed) {
      if (remembered.retryAt <= now) due.push(key);
      else earliest = Math.min(earliest, remembered.retryAt);
    }
    this.earliestRetry = earliest;
    return due;
  }

  private set(patch: Partial<KeepersSnapshot>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.notify();
  }

  /**
   * Fetches the output and saves its bytes on this device, when its turn comes. Never rejects: a failure
   * is the result. A failure remembered and still in its back-off is answered at once, without a request.
   */
  keep(item: KeepableOutput): Promise<KeepResult> {
    const known = this.state.kept.get(item.key);
    if (known) return Promise.resolve({ ok: true, info: known });
    const running = this.inFlight.get(item.key);
    if (running) {
      // Starred again while it waited its turn: the forget() in between no longer applies.
      if (this.queued.has(item.key)) this.forgotten.delete(item.key);
      return running;
    }
    const remembered = this.failed.get(item.key);
    if (remembered && this.now() < remembered.retryAt)
      return Promise.resolve({ ok: false, failure: remembered.failure });
    if (remembered) remembered.retryAt = Infinity;
    this.forgotten.delete(item.key);
    const run = new Promise<KeepResult>((resolve) => {
      this.queued.add(item.key);
      this.queue.push(async () => {
        this.queued.delete(item.key);
        const result = await this.save(item).catch((error: unknown) =>
          this.fail(item.key, 'storage', notSavedMessage(error)),
        );
        this.inFlight.delete(item.key);
        this.set({ saving: this.state.saving - 1 });
        resolve(result);
      });
    });
    this.inFlight.set(item.key, run);
    this.set({ saving: this.state.saving + 1 });
    this.pump();
    return run;
  }

  /** Starts waiting saves while fewer than KEEP_CONCURRENCY run. */
  private pump(): void {
    while (this.running < KEEP_CONCURRENCY && this.next < this.queue.length) {
      const job = this.queue[this.next]!;
      this.next += 1;
      this.running += 1;
      void job().finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
    // The queue has run dry: drop the finished jobs rather than keep a 10,000-long array.
    if (this.next === this.queue.length) {
      this.queue = [];
      this.next = 0;
    }
  }

  private fail(outputKey: string, reason: KeepFailureReason, message: string): KeepResult {
    const failure = { outputKey, reason, message };
    const before = this.failed.get(outputKey);
    const attempts = (before?.attempts ?? 0) + 1;
    const retryAt = this.now() + Math.min(KEEP_RETRY_MS * 2 ** (attempts - 1), KEEP_RETRY_MAX_MS);
    this.failed.set(outputKey, { failure, attempts, retryAt });
    this.earliestRetry = Math.min(this.earliestRetry, retryAt);
    // Only a first failure is news: a retry that fails again leaves a dismissed alert dismissed.
    if (!before) this.set({ failure });
    return { ok: false, failure };
  }

  private async save(item: KeepableOutput): Promise<KeepResult> {
    // Forgotten while it waited its turn: nothing to fetch.
    if (this.forgotten.delete(item.key)) return forgottenResult(item.key);
    if (!item.output) return this.fail(item.key, 'no-output', t`This task has no output to keep.`);
    const fetchOutput = this.deps.fetch ?? globalThis.fetch.bind(globalThis);
    let blob: Blob;
    let contentType: string | null;
    try {
      // Output URLs are the service's CDN, not the API: no key, no cookies.
      const response = await fetchOutput(item.output.url, { credentials: 'omit' });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const status = response.status;
        return this.fail(
          item.key,
          'fetch',
          t`The output could not be saved on this device: the file server answered ${status}.`,
        );
      }
      contentType = response.headers.get('content-type');
      blob = await response.blob();
    } catch (error) {
      return this.fail(item.key, 'fetch', notSavedMessage(error));
    }
    const record: KeeperRecord = {
      connectionId: this.connectionId,
      outputKey: item.key,
      taskId: item.entry.taskId,
      url: item.output.url,
      contentType,
      size: blob.size,
      savedAt: this.now(),
      blob,
    };
    try {
      // A full disk shows as the put's error or, at commit, as the transaction's: commit rejects with it.
      // Not the reporter's: the failure is this keep's result, which the storage meter says.
      await this.records.commit([{ put: record }]);
    } catch (error) {
      if (isQuotaError(error)) return this.fail(item.key, 'quota', quotaMessage());
      return this.fail(item.key, 'storage', notSavedMessage(error));
    }
    if (this.forgotten.delete(item.key)) {
      await this.records.commit([{ remove: item.key }]);
      return forgottenResult(item.key);
    }
    const info = infoOf(record);
    this.failed.delete(item.key);
    const kept = new Map(this.state.kept).set(item.key, info);
    const failure = this.state.failure?.outputKey === item.key ? null : this.state.failure;
    this.set({ kept, bytes: sum(kept), failure });
    this.askToPersist();
    return { ok: true, info };
  }

  /** Once: kept outputs should survive the browser's clean-up under storage pressure. */
  private askToPersist(): void {
    if (this.asked) return;
    this.asked = true;
    const persist =
      this.deps.persist ??
      (typeof navigator !== 'undefined' && typeof navigator.storage?.persist === 'function'
        ? () => navigator.storage.persist()
        : null);
    void persist?.().catch(() => false);
  }

  /** Removes the saved bytes (the output was un-starred, or space is needed). */
  async forget(outputKey: string): Promise<void> {
    if (this.inFlight.has(outputKey)) this.forgotten.add(outputKey);
    this.failed.delete(outputKey);
    // Written at once: un-starred and reloaded at once, the bytes are gone (commitNow).
    await this.records.write([{ remove: outputKey }]);
    const url = this.urls.get(outputKey);
    if (url) URL.revokeObjectURL(url);
    this.urls.delete(outputKey);
    const kept = new Map(this.state.kept);
    kept.delete(outputKey);
    const failure = this.state.failure?.outputKey === outputKey ? null : this.state.failure;
    this.set({ kept, bytes: sum(kept), failure });
  }

  dismissFailure(): void {
    if (this.state.failure) this.set({ failure: null });
  }

  /** The saved bytes of a kept output, or null when it is not kept (or its record is unreadable). */
  async blobFor(outputKey: string): Promise<Blob | null> {
    return (await this.records.get(outputKey))?.blob ?? null;
  }

  /** An object URL of the saved bytes, made once per output and revoked by forget() or close(). */
  async objectUrlFor(outputKey: string): Promise<string | null> {
    const made = this.urls.get(outputKey);
    if (made) return made;
    const blob = await this.blobFor(outputKey);
    if (!blob) return null;
    const url = URL.createObjectURL(blob);
    this.urls.set(outputKey, url);
    return url;
  }

  /** The connection ends: frees the object URLs. */
  close(): void {
    for (const url of this.urls.values()) URL.revokeObjectURL(url);
    this.urls.clear();
    this.listeners.clear();
  }
}

const forgottenResult = (outputKey: string): KeepResult => ({
  ok: false,
  failure: { outputKey, reason: 'forgotten', message: t`Forgotten while it was being saved.` },
});

function sum(kept: ReadonlyMap<string, KeeperInfo>): number {
  let bytes = 0;
  for (const info of kept.values()) bytes += info.size;
  return bytes;
}
