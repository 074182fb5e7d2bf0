import { t } from '@lingui/core/macro';
import { provesNoEffect, toApiError, type ApiError } from '../../api/errors';
import type { TaskCreated, TaskRequest } from '../../../contract/task';
import type { OutboxEntry } from '../db';
import type { HistoryEntry } from '../history/history-types';
import {
  StoredEntrySchema,
  deleteStored,
  isStored,
  readStored,
  toEntry,
  writeStored,
} from './outbox-storage';
export { StoredEntrySchema } from './outbox-storage';
import { Listeners } from '../../lib/store';

// The outbox of one connection: how a click on "Generate" becomes at most one task and one charge, and
// never a lost one (product-notes §3 "Submit"). Each submit gets a fresh Idempotency-Key and is written to
// IndexedDB with its exact request BEFORE it is sent. Then:
// - the service answers 2xx: the caller records the task (onCreated), then the entry is deleted;
// - the service refuses (an error that proves nothing was created): the entry is deleted;
// - no answer, or one that leaves the outcome unknown: the entry stays and the identical request is
//   re-sent with the identical key (api-notes §7) on a back-off, when the browser comes back online, and
//   after a reload or crash (resume). api-notes §4 rule 7: a repeat within 24 h returns the original task.
// Keys are kept by the service for 24 h (api-notes §8), so an entry older than 23 h is no longer re-sent
// on its own (a late repeat could create and charge a second task): it stays, flagged expired, for the
// user to check or discard.

/** Waits before re-sending after the 1st, 2nd and 3rd attempt without an answer; then RESEND_STEADY_MS. */
const RESEND_DELAYS_MS: readonly number[] = [5_000, 15_000, 30_000];
const RESEND_STEADY_MS = 60_000;
/**
 * api-notes §8: idempotency keys are kept 24 h; an hour of margin for clocks and the last attempt in flight.
 * @internal
 */
export const RESEND_WINDOW_MS = 23 * 60 * 60_000;

export type TimerHandle = ReturnType<typeof setTimeout>;

/** What the UI shows for a submit still in the outbox ("Sending..."). */
export interface OutboxItem extends OutboxEntry {
  /** A request is out right now. */
  sending: boolean;
  /** When the next automatic re-send is due (ms since epoch); null while sending or when expired. */
  nextAttemptAt: number | null;
  /** Older than RESEND_WINDOW_MS: never re-sent automatically; the user checks or discards it. */
  expired: boolean;
}

export type SubmitResult =
  | { kind: 'created'; created: TaskCreated; idempotencyKey: string }
  | { kind: 'refused'; error: ApiError; idempotencyKey: string }
  | { kind: 'pending'; error: ApiError; idempotencyKey: string };

export interface OutboxDeps {
  connectionId: string;
  /**
   * POST /tasks with the Idempotency-Key (ApiClient.createTask, which itself retries connection failures
   * with the same key and body). The outbox never aborts a send: an answer that arrives late, even after
   * dispose, is still recorded, so the signal is never passed.
   */
  createTask: (request: TaskRequest, idempotencyKey: string, signal?: AbortSignal) => Promise<TaskCreated>;
  /** Records the created task (the history entry). The outbox entry is deleted only after it resolves. */
  onCreated: (entry: OutboxEntry, created: TaskCreated) => Promise<void>;
  newKey?: () => string;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
}

/**
 * Whether a failed POST /tasks may still have created (and charged) the task, so its entry must stay
 * and be re-sent with the same key. No response at all (network_error, timeout; also an abort, which
 * may come after the request left), a 2xx whose body could not be read (the task exists), and every 5xx
 * (a gateway or server failing after the request may have reached the service) leave the outcome
 * unknown. So do 429 and 503, though the service answers them before it reads the key: the answer the
 * page gets may not be to the first send. A browser re-sends a request by itself, once, when a kept-alive
 * connection closes before any answer (Chromium does, for a POST too), and the page never hears of the
 * first send: when that one took effect and the re-send is refused with a 429 or a 503, the refusal is
 * all the page sees, yet the task exists and is charged. A re-send with the key settles it: the task, or
 * a refusal by the task's own rules. Those (every other 4xx, and the daily cap's 429,
 * token_daily_cap_reached) answer for the key: api-notes §4 rule 7 has a repeat of a created task return
 * that task, so a refusal by the rules proves there is none. Re-sent, a capped task would wait for
 * midnight and be charged then.
 * @internal
 */
export function outcomeUnknown(error: ApiError): boolean {
  if (error.status === 0) return true;
  if (error.status >= 200 && error.status < 300) return true;
  if (error.code === 'token_daily_cap_reached') return false;
  if (provesNoEffect(error)) return true;
  return error.status >= 500;
}

interface Slot {
  item: OutboxItem;
  timer?: TimerHandle;
  /** Whether the entry reached IndexedDB (a failed write still sends, but only this tab knows it). */
  persisted: boolean;
}

export class Outbox {
  readonly connectionId: string;
  private readonly deps: OutboxDeps;
  private readonly newKey: () => string;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle;
  private readonly clearTimer: (handle: TimerHandle) => void;
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Listeners();
  private snapshot: OutboxItem[] | null = null;
  private disposed = false;
  private readonly onOnline = (): void => this.resendWaiting();

  constructor(deps: OutboxDeps) {
    this.deps = deps;
    this.connectionId = deps.connectionId;
    this.newKey = deps.newKey ?? (() => crypto.randomUUID());
    this.now = deps.now ?? (() => Date.now());
    // Looked up at call time so vi.useFakeTimers() applies to an outbox built before it.
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle));
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
  }

  // ---- for the UI ---------------------------------------------------------------------------------

  subscribe = this.listeners.subscribe;

  /** The submits still in the outbox, newest first; the same array until something changes. */
  entries = (): OutboxItem[] => {
    this.snapshot ??= [...this.slots.values()]
      .map((slot) => slot.item)
      .sort((a, b) => b.createdAt - a.createdAt);
    return this.snapshot;
  };

  // ---- submitting -----------------------------------------------------------------------------------

  /** One click on "Generate": a fresh key, written down with the exact request before it is sent. */
  /**
   * `idempotencyKey`: a caller that records the key before sending (a compare board's cell) passes it,
   * so the cell can find its task after a reload; a key already in the outbox is not sent twice.
   */
  async submit(
    request: TaskRequest,
    meta: HistoryEntry['meta'],
    { idempotencyKey }: { idempotencyKey?: string } = {},
  ): Promise<SubmitResult> {
    const existing = idempotencyKey ? this.slots.get(idempotencyKey) : undefined;
    if (existing) return this.send(existing);
    const item: OutboxItem = {
      idempotencyKey: idempotencyKey ?? this.newKey(),
      connectionId: this.connectionId,
      // A copy: whatever the caller does to its object later, every (re)send is this request.
      request: structuredClone(request),
      meta: structuredClone(meta),
      createdAt: this.now(),
      attempts: 0,
      lastAttemptAt: null,
      lastError: null,
      sending: false,
      nextAttemptAt: null,
      expired: false,
    };
    const slot: Slot = { item, persisted: false };
    this.slots.set(item.idempotencyKey, slot);
    this.changed();
    return this.send(slot);
  }

  /**
   * One click that makes several tasks (product-notes §3 "Runs", "Variations"): each request gets its own
   * Idempotency-Key and the batch's id (in the entry and its meta, so the history groups them). Every
   * entry is written down before the first is sent: after a reload, resume() sends exactly the ones
   * not yet created, each once, with its own key.
   */
  async submitBatch(
    items: ReadonlyArray<{ request: TaskRequest; meta: HistoryEntry['meta'] }>,
    { batchId = this.newKey() }: { batchId?: string } = {},
  ): Promise<SubmitResult[]> {
    const at = this.now();
    const slots: Slot[] = items.map(({ request, meta }, i) => ({
      persisted: false,
      item: {
        idempotencyKey: this.newKey(),
        connectionId: this.connectionId,
        request: structuredClone(request),
        meta: { ...structuredClone(meta), batchId, batchIndex: i + 1, batchSize: items.length },
        // Apart by a millisecond each, so "newest first" keeps the batch in its order.
        createdAt: at + i,
        attempts: 0,
        lastAttemptAt: null,
        lastError: null,
        batchId,
        sending: false,
        nextAttemptAt: null,
        expired: false,
      },
    }));
    for (const slot of slots) this.slots.set(slot.item.idempotencyKey, slot);
    this.changed();
    // IndexedDB unavailable or full: this tab still sends each with its key (see persist).
    if (await writeStored(slots.map((slot) => slot.item))) for (const slot of slots) slot.persisted = true;
    return Promise.all(slots.map((slot) => this.send(slot)));
  }

  /**
   * After a reload or crash: every entry of this connection left in IndexedDB is re-sent, identically.
   * Entries past RESEND_WINDOW_MS are only listed (expired). Resolves with the outcome of each re-send.
   */
  async resume(): Promise<SubmitResult[]> {
    return (await this.readBack())();
  }

  /**
   * The first half of resume(): the entries left in IndexedDB read back and listed (entries() has them);
   * resolves with the re-send, to start when the caller is ready. The studio reads them before it shows
   * the outbox, so the list does not change under its first render (connection-runtime.ts).
   */
  async readBack(): Promise<() => Promise<SubmitResult[]>> {
    const none = () => Promise.resolve([]);
    if (this.disposed) return none;
    const stored = await readStored(this.connectionId);
    if (stored === null) return none;
    const due: Slot[] = [];
    for (const raw of stored) {
      const parsed = StoredEntrySchema.safeParse(raw);
      // Not ours to send (unreadable, or another connection's): left as it is.
      if (!parsed.success || parsed.data.connectionId !== this.connectionId) continue;
      // Held by the queue: never sent yet, and sent only when the queue releases it (model/queue/).
      if (parsed.data.held !== undefined) continue;
      if (this.slots.has(parsed.data.idempotencyKey)) continue; // already known here (submitted or resumed)
      const { held: _held, ...stored } = parsed.data;
      const item: OutboxItem = {
        ...stored,
        sending: false,
        nextAttemptAt: null,
        expired: this.isExpired(parsed.data.createdAt),
      };
      const slot: Slot = { item, persisted: true };
      this.slots.set(item.idempotencyKey, slot);
      if (!item.expired) due.push(slot);
    }
    this.changed();
    return () => (this.disposed ? none() : Promise.all(due.map((slot) => this.send(slot))));
  }

  /** Re-sends a waiting entry now (a "Retry now" button). Expired or already sending: nothing happens. */
  async retryNow(idempotencyKey: string): Promise<SubmitResult | undefined> {
    const slot = this.slots.get(idempotencyKey);
    if (!slot || slot.item.sending || this.refreshExpired(slot)) return undefined;
    return this.send(slot);
  }

  /**
   * The user gives up on an entry (typically an expired one). It is forgotten here and in IndexedDB;
   * a request already out still has its answer recorded.
   */
  async discard(idempotencyKey: string): Promise<void> {
    const slot = this.slots.get(idempotencyKey);
    if (slot) this.forget(slot);
    await deleteStored(idempotencyKey);
  }

  /** Stops re-sends (timers, the online listener). Requests already out finish and are recorded. */
  dispose(): void {
    this.disposed = true;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    for (const slot of this.slots.values()) this.cancelTimer(slot);
    this.changed();
  }

  // ---- the machinery -------------------------------------------------------------------------------

  private changed(): void {
    this.snapshot = null;
    this.listeners.notify();
  }

  private update(slot: Slot, patch: Partial<OutboxItem>): void {
    slot.item = { ...slot.item, ...patch };
    if (this.slots.get(slot.item.idempotencyKey) === slot) this.changed();
  }

  private isExpired(createdAt: number): boolean {
    return this.now() - createdAt >= RESEND_WINDOW_MS;
  }

  /** Flags the entry expired when its time is up; returns whether it is. */
  private refreshExpired(slot: Slot): boolean {
    if (slot.item.expired) return true;
    if (!this.isExpired(slot.item.createdAt)) return false;
    this.cancelTimer(slot);
    this.update(slot, { expired: true, nextAttemptAt: null });
    return true;
  }

  private cancelTimer(slot: Slot): void {
    if (slot.timer !== undefined) this.clearTimer(slot.timer);
    slot.timer = undefined;
    if (slot.item.nextAttemptAt !== null) slot.item = { ...slot.item, nextAttemptAt: null };
  }

  private forget(slot: Slot): void {
    this.cancelTimer(slot);
    if (this.slots.get(slot.item.idempotencyKey) === slot) {
      this.slots.delete(slot.item.idempotencyKey);
      this.changed();
    }
  }

  private async persist(slot: Slot): Promise<void> {
    // A discarded entry is never written back.
    if (this.slots.get(slot.item.idempotencyKey) !== slot) return;
    // IndexedDB unavailable or full: this tab still re-sends with the same key; only a reload loses it.
    if (await writeStored([slot.item])) slot.persisted = true;
  }

  /** One attempt: persist (the first time: BEFORE sending), send, then settle the entry by the answer. */
  private async send(slot: Slot): Promise<SubmitResult> {
    const key = slot.item.idempotencyKey;
    this.cancelTimer(slot);
    this.update(slot, { sending: true, attempts: slot.item.attempts + 1, lastAttemptAt: this.now() });
    await this.persist(slot);

    let created: TaskCreated;
    try {
      // api-notes §7: the identical request with the identical key, every time.
      created = await this.deps.createTask(structuredClone(slot.item.request), key);
    } catch (thrown) {
      const error = toApiError(thrown);
      // A refusal before the service looked at the key (429, 503) proves nothing about an earlier send
      // (a re-send after no clear answer, the tab closed while it was out, the browser's own re-send):
      // the task may exist, so the entry stays and is sent again with its key until an answer says.
      if (!outcomeUnknown(error)) {
        // Refused: nothing was created, so there is nothing to re-send.
        this.forget(slot);
        await deleteStored(key);
        return { kind: 'refused', error, idempotencyKey: key };
      }
      // The service's own words when it sent some (keys masked), as sent; else the studio's explanation.
      this.update(slot, { sending: false, lastError: error.serverMessage ?? error.message });
      await this.persist(slot);
      this.schedule(slot);
      return { kind: 'pending', error, idempotencyKey: key };
    }

    try {
      await this.deps.onCreated(toEntry(slot.item), created);
    } catch (thrown) {
      // The task exists but is not recorded yet: keep the entry; the re-send (same key) answers with the
      // same task (api-notes §4 rule 7) and onCreated gets another chance, here or after a reload.
      this.update(slot, {
        sending: false,
        lastError: thrown instanceof Error ? thrown.message : t`The task could not be recorded.`,
      });
      await this.persist(slot);
      this.schedule(slot);
      return { kind: 'created', created, idempotencyKey: key };
    }
    this.forget(slot);
    await deleteStored(key);
    return { kind: 'created', created, idempotencyKey: key };
  }

  private schedule(slot: Slot): void {
    this.cancelTimer(slot);
    if (this.disposed || this.slots.get(slot.item.idempotencyKey) !== slot) return;
    if (this.refreshExpired(slot)) return;
    const now = this.now();
    const delay = RESEND_DELAYS_MS[slot.item.attempts - 1] ?? RESEND_STEADY_MS;
    const expiresAt = slot.item.createdAt + RESEND_WINDOW_MS;
    // Past the window the timer only flags the entry expired, on time for the UI.
    const at = Math.min(now + delay, expiresAt);
    slot.timer = this.setTimer(() => {
      slot.timer = undefined;
      void this.resendFromTimer(slot);
    }, at - now);
    this.update(slot, { nextAttemptAt: at < expiresAt ? at : null });
  }

  private async resendFromTimer(slot: Slot): Promise<void> {
    if (this.disposed || slot.item.sending || this.refreshExpired(slot)) return;
    if (slot.persisted) {
      // Another tab may have settled or discarded it meanwhile: then there is nothing left to send.
      if (!(await isStored(slot.item.idempotencyKey))) {
        this.forget(slot);
        return;
      }
      if (this.disposed || slot.item.sending || this.slots.get(slot.item.idempotencyKey) !== slot) return;
    }
    await this.send(slot);
  }

  /**
   * Back online, or the service answers again: every waiting entry goes now instead of at its back-off
   * time (same key, same request).
   */
  resendWaiting(): void {
    if (this.disposed) return;
    for (const slot of [...this.slots.values()]) {
      if (slot.item.sending || slot.item.expired || slot.timer === undefined) continue;
      this.cancelTimer(slot);
      void this.resendFromTimer(slot);
    }
  }
}
