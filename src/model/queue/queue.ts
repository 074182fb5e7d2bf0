import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import { toApiError, type ApiError } from '../../api/errors';
import type { TaskRequest } from '../../../contract/task';
import { formatCredits } from '../../lib/format';
import { db, type HeldInfo, type OutboxEntry } from '../db';
import type { HistoryEntry } from '../history/history-types';
import { StoredEntrySchema, type SubmitResult } from '../tasks/outbox';
import { Listeners } from '../../lib/store';

// The queue of one connection (docs/queue.md). The service charges a task when it is created and cannot
// cancel one, so the studio holds tasks back on this device and sends each only when the key's pool is
// about to free a place: until then a task can be reordered, paused, removed (never sent, never charged)
// or sent at once. A held task is an outbox entry with `held` set, in the outbox's IndexedDB store, with
// its Idempotency-Key from the moment it is queued; releasing it is one write of the same entry without
// `held` (under a Web Lock, so two tabs never release it both), after which the outbox's own guarantee
// holds: re-sent with its key after a crash, charged at most once.

/** How often the queue looks at the pool while it holds tasks (and after each change it hears of). */
const QUEUE_TICK_MS = 1_000;
/**
 * "About to free a place": a task the forecast has finishing within this lead no longer holds a slot. It
 * covers a tick and the send itself (the price asked again, the claim, POST /tasks); the queue adds the
 * service's dispatch to it (a task sent to a free slot starts that much later).
 */
export const RELEASE_LEAD_MS = 1_500;
/**
 * The dispatch assumed until the poll schedule has learned it (PollSchedule.dispatchMs: it needs a task
 * that found a slot free to finish, a run after the first sends). Too long sends a task that much early
 * (it waits at the service, charged, no longer removable); too short leaves a slot idle by the shortfall.
 */
export const DISPATCH_GUESS_MS = 1_500;

export interface QueueItem extends OutboxEntry {
  held: HeldInfo;
}

export interface QueueSettings {
  paused: boolean;
  /** Why the queue paused itself (a 402 or 429 on sending, the credit stop), for the user. */
  pausedReason: string | null;
  /** Send every task at once, as without a queue. */
  sendAtOnce: boolean;
  /** Stop (pause) before the credits sent this session would pass this many; null: no stop. */
  stopAfterCredits: number | null;
}

const DEFAULT_SETTINGS: QueueSettings = {
  paused: false,
  pausedReason: null,
  sendAtOnce: false,
  stopAfterCredits: null,
};

const SettingsSchema = z.object({
  paused: z.catch(z.boolean(), false),
  pausedReason: z.catch(z.nullable(z.string()), null),
  sendAtOnce: z.catch(z.boolean(), false),
  stopAfterCredits: z.catch(z.nullable(z.number().check(z.nonnegative())), null),
});

const HeldSchema = z.object({
  position: z.number(),
  paused: z.catch(z.boolean(), false),
  queuedAt: z.number(),
  credits: z.catch(z.nullable(z.number()), null),
  blocked: z.catch(z.nullable(z.string()), null),
  newPrice: z.catch(z.nullable(z.number()), null),
});

/** The outbox's stored entry (parsed, never trusted; the request kept whole), with its hold read strictly. */
const StoredItemSchema = z.extend(StoredEntrySchema, { held: HeldSchema });

/** Where the settings of a connection's queue are kept (localStorage by default: small, shared by tabs). */
export interface SettingsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * How many held tasks may go now: enough to keep every slot of the pool busy, no more. `busy` counts the
 * pool's tasks the forecast still has unfinished shortly from now (every member's, on a team's pool),
 * `sending` those sent and not yet answered. With other members waiting (their own queues hold tasks),
 * this device keeps no more than its fair share of the pool busy: the pool divided by the members
 * waiting, this one included, at least one slot each (docs/queue.md).
 */
export function slotsToFill({
  concurrency: believed,
  confirmed = true,
  busy,
  mineBusy,
  sending,
  othersWaiting = 0,
}: {
  concurrency: number;
  /**
   * Whether the pool's concurrency was seen at its limit. A guess (a team's pool starts at 3 and is
   * learned) is offered half as many slots again (at least one more): the schedule learns a larger pool
   * only from more tasks running at once than it believed, so a queue that never sent more would keep the
   * pool at the guess for good, and one slot more at a time would take a poll round per slot to learn it
   * (a pool of 8 from 3: five rounds, each leaving a slot idle; by half again: three). What it costs: a
   * few tasks sent a run early, until the first one seen waiting confirms the pool.
   */
  confirmed?: boolean;
  busy: number;
  mineBusy: number;
  sending: number;
  othersWaiting?: number;
}): number {
  const concurrency = confirmed ? believed : believed + Math.max(1, Math.ceil(believed / 2));
  let free = concurrency - busy - sending;
  if (othersWaiting > 0) {
    const share = Math.max(1, Math.floor(concurrency / (othersWaiting + 1)));
    free = Math.min(free, share - mineBusy - sending);
  }
  return Math.max(0, free);
}

export interface QueueCost {
  /** The held tasks' credits, in queue order, those of unknown price left out. */
  total: number;
  /** Tasks whose price is unknown (not quoted when queued). */
  unpriced: number;
  /** The first task that the service would refuse if everything before it ran, and why. */
  firstRefused: { idempotencyKey: string; reason: 'balance' | 'cap' } | null;
}

/** The queue's total against the balance and what is left under today's cap (null: no cap or unknown). */
export function queueCost(
  items: readonly QueueItem[],
  { balance, capRemaining }: { balance: number | null; capRemaining: number | null },
): QueueCost {
  let total = 0;
  let unpriced = 0;
  let firstRefused: QueueCost['firstRefused'] = null;
  for (const item of items) {
    const credits = item.held.newPrice ?? item.held.credits;
    if (credits === null) {
      unpriced++;
      continue;
    }
    total = Math.round((total + credits) * 1e6) / 1e6;
    if (firstRefused) continue;
    if (capRemaining !== null && total > capRemaining)
      firstRefused = { idempotencyKey: item.idempotencyKey, reason: 'cap' };
    else if (balance !== null && total > balance)
      firstRefused = { idempotencyKey: item.idempotencyKey, reason: 'balance' };
  }
  return { total, unpriced, firstRefused };
}

/** The outbox's part in submitThroughQueue (Outbox.submit). */
export type KeyedSubmit = (
  request: TaskRequest,
  meta: HistoryEntry['meta'],
  options: { idempotencyKey: string },
) => Promise<SubmitResult>;

/**
 * Sends tasks whose keys the caller has already written down (a Compare board's cells) the way Generate
 * sends: at once when the queue would send them this instant (nothing held, room in the pool, or "send
 * every task at once"), otherwise held in the queue with those keys, nothing charged yet. `held` says
 * which it was; `results` resolve to each task's outcome once sent (null: removed before it went).
 */
export async function submitThroughQueue(
  queue: TaskQueue,
  submit: KeyedSubmit,
  tasks: ReadonlyArray<{ request: TaskRequest; meta: HistoryEntry['meta']; idempotencyKey: string }>,
): Promise<{ held: boolean; results: Promise<SubmitResult | null>[] }> {
  if (queue.wouldSendNow(tasks.length)) {
    return {
      held: false,
      results: tasks.map((t) => submit(t.request, t.meta, { idempotencyKey: t.idempotencyKey })),
    };
  }
  const keys = await queue.enqueue(tasks, { asBatch: false });
  return { held: true, results: keys.map((key) => queue.settled(key)) };
}

export interface QueueDeps {
  connectionId: string;
  /** Sends a released task with its key (Outbox.submit). */
  submit: (
    request: TaskRequest,
    meta: HistoryEntry['meta'],
    options: { idempotencyKey: string },
  ) => Promise<SubmitResult>;
  /**
   * How many held tasks may go now (slotsToFill over the poll schedule's forecast), given how many other
   * members of the team hold tasks (0 without the team space).
   */
  freeSlots: (othersWaiting: number) => number;
  /** Prices a task again just before it goes (POST /quote); absent: no check. */
  quote?: (request: TaskRequest) => Promise<{ credits: number }>;
  newKey?: () => string;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimer?: (handle: ReturnType<typeof setTimeout>) => void;
  storage?: SettingsStorage | null;
  /** Whether this tab is the one that releases tasks (one tab per connection; see start()). */
  leader?: boolean;
}

export interface QueueSnapshot {
  items: readonly QueueItem[];
  settings: QueueSettings;
  /** Credits of the tasks this queue sent since it was opened (the stop after N credits counts them). */
  sentCredits: number;
}

const settingsKey = (connectionId: string) => `media-studio:queue:${connectionId}`;
const channelName = (connectionId: string) => `media-studio:queue:${connectionId}`;
const leaderLock = (connectionId: string) => `media-studio:queue-leader:${connectionId}`;
const claimLock = (connectionId: string) => `media-studio:queue-claim:${connectionId}`;

/** Positions are spaced so that a move usually writes one entry (between its new neighbours). */
const STEP = 1024;

/** An error that a later try would meet again: the task waits for the user instead of being lost. */
function blockedReason(error: ApiError): string {
  return error.remedy ? `${error.message} ${error.remedy}` : error.message;
}

export class TaskQueue {
  readonly connectionId: string;
  private readonly deps: QueueDeps;
  private readonly newKey: () => string;
  private readonly now: () => number;
  private readonly setTimer: NonNullable<QueueDeps['setTimer']>;
  private readonly clearTimer: NonNullable<QueueDeps['clearTimer']>;
  private readonly storage: SettingsStorage | null;
  private items = new Map<string, QueueItem>();
  private settings: QueueSettings;
  private sentCredits = 0;
  private readonly listeners = new Listeners();
  private current: QueueSnapshot | null = null;
  /** Tasks on their way out (price check, claim): they count as sending until the outbox has them. */
  private readonly starting = new Map<string, number>();
  /** What each task queued by this tab came to once released (or null: removed), for settled(). */
  private readonly outcomes = new Map<string, (result: SubmitResult | null) => void>();
  private readonly outcomePromises = new Map<string, Promise<SubmitResult | null>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private leader: boolean;
  private disposed = false;
  /** How many other members hold tasks (the team space sets it; see docs/queue.md, "Teams"). */
  private othersWaiting: () => number = () => 0;
  private pumping = false;
  private channel: BroadcastChannel | null = null;
  private offLeader: (() => void) | null = null;
  private readonly onStorage = (event: StorageEvent): void => {
    if (event.key === settingsKey(this.connectionId)) this.readSettings();
  };

  constructor(deps: QueueDeps) {
    this.deps = deps;
    this.connectionId = deps.connectionId;
    this.newKey = deps.newKey ?? (() => crypto.randomUUID());
    this.now = deps.now ?? (() => Date.now());
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle));
    this.storage =
      deps.storage !== undefined ? deps.storage : typeof localStorage === 'undefined' ? null : localStorage;
    this.leader = deps.leader ?? true;
    this.settings = DEFAULT_SETTINGS;
    this.readSettings();
  }

  // ---- for the UI ---------------------------------------------------------------------------------

  subscribe = this.listeners.subscribe;

  /** The held tasks in queue order, the settings, the credits sent; the same object until a change. */
  snapshot = (): QueueSnapshot => {
    this.current ??= {
      items: [...this.items.values()].sort((a, b) => a.held.position - b.held.position),
      settings: this.settings,
      sentCredits: this.sentCredits,
    };
    return this.current;
  };

  /**
   * Whether `count` new tasks would all be sent this instant: nothing held before them, the queue
   * running, and room in the pool (or "send at once"). The caller then sends them as before.
   */
  wouldSendNow(count: number): boolean {
    if (this.settings.paused || this.items.size > 0 || this.starting.size > 0) return false;
    // A credit stop counts what the queue sends: everything goes through it then.
    if (this.settings.stopAfterCredits !== null) return false;
    return this.settings.sendAtOnce || this.deps.freeSlots(this.othersWaiting()) >= count;
  }

  /** Where the queue learns how many other members of the team hold tasks (fair share); null: none. */
  setOthersWaiting(count: (() => number) | null): void {
    this.othersWaiting = count ?? (() => 0);
    this.kick();
  }

  /** The 1-based place of a held task, or null. */
  placeOf(idempotencyKey: string): number | null {
    const i = this.snapshot().items.findIndex((item) => item.idempotencyKey === idempotencyKey);
    return i < 0 ? null : i + 1;
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  /**
   * Reads what this connection holds, follows the other tabs (a BroadcastChannel says "read again"; the
   * settings come through the storage event), and takes part in choosing the one tab that releases tasks
   * (a Web Lock; without Web Locks every tab releases, and the claim below still sends each task once).
   */
  async start(): Promise<void> {
    await this.reload();
    if (this.disposed) return;
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(channelName(this.connectionId));
      this.channel.onmessage = () => void this.reload();
    }
    if (typeof window !== 'undefined') window.addEventListener('storage', this.onStorage);
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (locks && this.deps.leader === undefined) {
      this.leader = false;
      const controller = new AbortController();
      let release: (() => void) | null = null;
      locks
        .request(leaderLock(this.connectionId), { signal: controller.signal }, () => {
          if (this.disposed) return undefined;
          this.leader = true;
          this.kick();
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        })
        .catch(() => undefined);
      this.offLeader = () => {
        controller.abort();
        release?.();
      };
    }
    this.kick();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    this.channel?.close();
    this.offLeader?.();
    if (typeof window !== 'undefined') window.removeEventListener('storage', this.onStorage);
  }

  /** Reads the held tasks of this connection from IndexedDB again (another tab changed them). */
  async reload(): Promise<void> {
    let stored: unknown[] = [];
    try {
      stored = await (await db()).getAllFromIndex('outbox', 'byConnection', this.connectionId);
    } catch {
      return;
    }
    const next = new Map<string, QueueItem>();
    for (const raw of stored) {
      const parsed = StoredItemSchema.safeParse(raw);
      if (!parsed.success || parsed.data.connectionId !== this.connectionId) continue;
      const { batchId, ...rest } = parsed.data;
      next.set(rest.idempotencyKey, { ...rest, ...(batchId === undefined ? {} : { batchId }) });
    }
    this.items = next;
    this.changed(false);
  }

  // ---- adding -------------------------------------------------------------------------------------

  /**
   * Holds tasks at the end of the queue, each with a fresh Idempotency-Key, all written down in one
   * transaction before this resolves. `credits` is each task's quoted price (for the queue's total and
   * the check that the price has not risen when it goes). A task may bring the key its caller already
   * wrote down (a Compare board's cell); `asBatch: false` keeps several tasks apart in the history.
   * Returns the keys.
   */
  async enqueue(
    tasks: ReadonlyArray<{ request: TaskRequest; meta: HistoryEntry['meta']; idempotencyKey?: string }>,
    { batchId, asBatch = true }: { batchId?: string; asBatch?: boolean } = {},
  ): Promise<string[]> {
    const at = this.now();
    const last = this.snapshot().items.at(-1)?.held.position ?? 0;
    const batch = asBatch && tasks.length > 1 ? (batchId ?? this.newKey()) : undefined;
    const added: QueueItem[] = tasks.map(({ request, meta, idempotencyKey }, i) => ({
      idempotencyKey: idempotencyKey ?? this.newKey(),
      connectionId: this.connectionId,
      request: structuredClone(request),
      meta: batch
        ? { ...structuredClone(meta), batchId: batch, batchIndex: i + 1, batchSize: tasks.length }
        : structuredClone(meta),
      createdAt: at + i,
      attempts: 0,
      lastAttemptAt: null,
      lastError: null,
      ...(batch ? { batchId: batch } : {}),
      held: {
        position: last + STEP * (i + 1),
        paused: false,
        queuedAt: at,
        credits: meta.quotedCredits ?? null,
        blocked: null,
        newPrice: null,
      },
    }));
    await this.writeAll(added);
    for (const item of added) {
      this.items.set(item.idempotencyKey, item);
      this.outcomePromises.set(
        item.idempotencyKey,
        new Promise((resolve) => this.outcomes.set(item.idempotencyKey, resolve)),
      );
    }
    this.changed();
    return added.map((item) => item.idempotencyKey);
  }

  /**
   * What a task queued by this tab came to when it was sent: the outbox's result (created, refused,
   * pending), or null when it was removed or another tab sent it. Null at once for a key it does not know.
   */
  settled(idempotencyKey: string): Promise<SubmitResult | null> {
    return this.outcomePromises.get(idempotencyKey) ?? Promise.resolve(null);
  }

  private settle(idempotencyKey: string, result: SubmitResult | null): void {
    const resolve = this.outcomes.get(idempotencyKey);
    this.outcomes.delete(idempotencyKey);
    this.outcomePromises.delete(idempotencyKey);
    resolve?.(result);
  }

  /**
   * Of these keys (tasks a caller wrote down before queueing them: a Compare board's cells), those that
   * are neither held nor on their way: IndexedDB's outbox store, which every tab of the connection shares
   * and which keeps a task from the moment it is queued until its answer is recorded in the history, has
   * no entry with the key. A key that is in neither that store nor the history was never sent (removed
   * from the queue, or refused): nothing was charged for it. Null: IndexedDB could not be read, so
   * nothing can be told.
   */
  async unsent(keys: readonly string[]): Promise<string[] | null> {
    try {
      const tx = (await db()).transaction('outbox', 'readonly');
      const found = await Promise.all(keys.map((key) => tx.store.getKey(key)));
      await tx.done;
      return keys.filter((key, i) => found[i] === undefined && !this.starting.has(key));
    } catch {
      return null;
    }
  }

  // ---- the user's controls ------------------------------------------------------------------------

  pause(reason: string | null = null): void {
    this.writeSettings({ ...this.settings, paused: true, pausedReason: reason });
  }

  resume(): void {
    this.writeSettings({ ...this.settings, paused: false, pausedReason: null });
  }

  setSendAtOnce(sendAtOnce: boolean): void {
    this.writeSettings({ ...this.settings, sendAtOnce });
  }

  setStopAfterCredits(credits: number | null): void {
    this.writeSettings({ ...this.settings, stopAfterCredits: credits });
  }

  /** Holds one task even while the queue runs, or lets it go again. */
  async setTaskPaused(idempotencyKey: string, paused: boolean): Promise<void> {
    await this.patch(idempotencyKey, { paused });
  }

  /** The user agrees to the price asked now (it rose since the task was queued). */
  async acceptPrice(idempotencyKey: string): Promise<void> {
    const item = this.items.get(idempotencyKey);
    if (!item || item.held.newPrice === null) return;
    await this.patch(idempotencyKey, { credits: item.held.newPrice, newPrice: null });
  }

  /** Moves a held task to `index` (0-based, in queue order): one write, between its new neighbours. */
  async move(idempotencyKey: string, index: number): Promise<void> {
    const order = this.snapshot().items.filter((item) => item.idempotencyKey !== idempotencyKey);
    const item = this.items.get(idempotencyKey);
    if (!item) return;
    const to = Math.max(0, Math.min(order.length, Math.trunc(index)));
    const before = order[to - 1]?.held.position;
    const after = order[to]?.held.position;
    let position =
      before === undefined
        ? (after ?? STEP) - STEP
        : after === undefined
          ? before + STEP
          : (before + after) / 2;
    if (before !== undefined && after !== undefined && !(position > before && position < after)) {
      // No room left between them (many moves to one place): the whole order is spaced out again.
      order.splice(to, 0, item);
      const spaced = order.map((it, i) => ({ ...it, held: { ...it.held, position: STEP * (i + 1) } }));
      await this.writeAll(spaced);
      for (const it of spaced) this.items.set(it.idempotencyKey, it);
      this.changed();
      return;
    }
    position = Number.isFinite(position) ? position : STEP;
    await this.patch(idempotencyKey, { position });
  }

  /**
   * Removes held tasks: never sent, never charged. Returns them as they were, for undo (restore). A task
   * already released (sending) is not removed: it may be charged already.
   */
  async remove(keys: readonly string[]): Promise<QueueItem[]> {
    const removed = keys.flatMap((key) => {
      const item = this.items.get(key);
      return item && !this.starting.has(key) ? [item] : [];
    });
    if (removed.length === 0) return [];
    try {
      const tx = (await db()).transaction('outbox', 'readwrite');
      await Promise.all([
        ...removed.map(async (item) => {
          // Only if it is still held: another tab may have released it meanwhile.
          const stored = await tx.store.get(item.idempotencyKey);
          if (stored?.held) await tx.store.delete(item.idempotencyKey);
        }),
        tx.done,
      ]);
    } catch {
      // IndexedDB unavailable: removed here; a reload shows it again, still held and never sent.
    }
    for (const item of removed) {
      this.items.delete(item.idempotencyKey);
      this.settle(item.idempotencyKey, null);
    }
    this.changed();
    return removed;
  }

  /** Undo of remove(): the tasks come back at their places, with their keys. */
  async restore(items: readonly QueueItem[]): Promise<void> {
    await this.writeAll(items);
    for (const item of items) this.items.set(item.idempotencyKey, item);
    this.changed();
  }

  /** Sends one held task now, whatever the pool and the pause. */
  async sendNow(idempotencyKey: string): Promise<SubmitResult | null> {
    const item = this.items.get(idempotencyKey);
    if (!item || this.starting.has(idempotencyKey)) return null;
    return this.release(item, { checkPrice: false });
  }

  // ---- releasing ----------------------------------------------------------------------------------

  /** Looks at the pool now (after a change the caller heard of: a task finished, an answer came). */
  kick = (): void => {
    void this.pump();
  };

  /** The tasks that may go next, in order: not paused, not waiting for the user. */
  private eligible(): QueueItem[] {
    return this.snapshot().items.filter(
      (item) =>
        !item.held.paused &&
        item.held.blocked === null &&
        item.held.newPrice === null &&
        !this.starting.has(item.idempotencyKey),
    );
  }

  private async pump(): Promise<void> {
    if (this.disposed || this.pumping) return;
    this.pumping = true;
    try {
      while (!this.disposed && this.leader && !this.settings.paused) {
        const next = this.eligible()[0];
        if (!next) break;
        const room = this.settings.sendAtOnce
          ? Infinity
          : this.deps.freeSlots(this.othersWaiting()) - this.starting.size;
        if (room <= 0) break;
        const credits = next.held.credits ?? 0;
        const stop = this.settings.stopAfterCredits;
        let committed = this.sentCredits;
        for (const c of this.starting.values()) committed += c;
        if (stop !== null && committed + credits > stop + 1e-9) {
          const limit = formatCredits(stop);
          this.pause(t`Stopped before passing ${limit} this session.`);
          break;
        }
        // Not awaited whole: the next task's turn is decided while this one is on its way.
        void this.release(next, { checkPrice: true });
        await Promise.resolve();
      }
    } finally {
      this.pumping = false;
      this.arm();
    }
  }

  /** While tasks are held, the pool is looked at again every tick (the forecast moves with time). */
  private arm(): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    if (this.disposed || this.items.size === 0 || !this.leader) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.kick();
    }, QUEUE_TICK_MS);
  }

  private async release(
    item: QueueItem,
    { checkPrice }: { checkPrice: boolean },
  ): Promise<SubmitResult | null> {
    const key = item.idempotencyKey;
    this.starting.set(key, item.held.credits ?? 0);
    this.changed(false);
    try {
      if (checkPrice && this.deps.quote) {
        const verdict = await this.checkPrice(item, this.deps.quote);
        if (verdict !== 'go') return null;
      }
      if (!(await this.claim(key))) {
        // Another tab released (or removed) it.
        this.items.delete(key);
        this.settle(key, null);
        this.changed(false);
        return null;
      }
      this.items.delete(key);
      const credits = item.held.credits ?? 0;
      this.sentCredits = Math.round((this.sentCredits + credits) * 1e6) / 1e6;
      const sending = this.deps.submit(item.request, item.meta, { idempotencyKey: key });
      this.starting.delete(key);
      this.changed();
      const result = await sending;
      if (result.kind === 'refused') await this.refused(item, result.error);
      this.settle(key, result);
      return result;
    } finally {
      if (this.starting.delete(key)) this.changed(false);
    }
  }

  /** The price asked now against the one queued; an error that proves the task invalid blocks it. */
  private async checkPrice(item: QueueItem, quote: NonNullable<QueueDeps['quote']>): Promise<'go' | 'held'> {
    let asked: number;
    try {
      asked = (await quote(item.request)).credits;
    } catch (thrown) {
      const error = toApiError(thrown);
      // The model disabled, the tool gone, the params no longer valid: the same refusal would follow.
      if (error.status >= 400 && error.status < 500 && error.status !== 429 && error.status !== 408) {
        await this.patch(item.idempotencyKey, { blocked: blockedReason(error) });
        return 'held';
      }
      return 'go'; // the price could not be checked now; the service charges its own price
    }
    if (item.held.credits !== null && asked > item.held.credits + 1e-9) {
      await this.patch(item.idempotencyKey, { newPrice: asked });
      return 'held';
    }
    return 'go';
  }

  /**
   * A refusal proves nothing was created, so the task comes back, held at its place with its key: a 402
   * or 429 (the balance, the daily cap, the rate) pauses the whole queue and says why; any other refusal
   * (an upload gone, a param no longer valid) would repeat, so the task waits for the user with the reason.
   */
  private async refused(item: QueueItem, error: ApiError): Promise<void> {
    const back: QueueItem =
      error.status === 402 || error.status === 429
        ? item
        : { ...item, held: { ...item.held, blocked: blockedReason(error) } };
    this.sentCredits = Math.max(0, Math.round((this.sentCredits - (item.held.credits ?? 0)) * 1e6) / 1e6);
    await this.writeAll([back]);
    this.items.set(back.idempotencyKey, back);
    this.changed();
    if (error.status === 402 || error.status === 429) {
      const reason = blockedReason(error);
      this.pause(t`Paused: ${reason}`);
    }
  }

  /**
   * Takes a task out of the queue for sending: under the connection's claim lock, it is released only if
   * IndexedDB still has it held, and the entry is written back without `held` (an ordinary outbox
   * entry, with its key) before it goes, so every tab releases it at most once and a crash after this
   * leaves it to the outbox's resume, which re-sends it with the same key.
   */
  private async claim(idempotencyKey: string): Promise<boolean> {
    const take = async (): Promise<boolean> => {
      try {
        const tx = (await db()).transaction('outbox', 'readwrite');
        const stored = await tx.store.get(idempotencyKey);
        if (!stored?.held) {
          await tx.done;
          return false;
        }
        const { held: _held, ...entry } = stored;
        await tx.store.put(entry);
        await tx.done;
        return true;
      } catch {
        // IndexedDB unavailable: this tab holds the queue in memory only, so it alone can send it.
        return this.items.has(idempotencyKey);
      }
    };
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? locks.request(claimLock(this.connectionId), take) : take();
  }

  // ---- storage ------------------------------------------------------------------------------------

  private async patch(idempotencyKey: string, patch: Partial<HeldInfo>): Promise<void> {
    const item = this.items.get(idempotencyKey);
    if (!item) return;
    const next: QueueItem = { ...item, held: { ...item.held, ...patch } };
    this.items.set(idempotencyKey, next);
    this.changed();
    await this.writeAll([next], { onlyHeld: true });
  }

  /** Writes held entries; `onlyHeld`: an update that must not bring back one released meanwhile. */
  private async writeAll(items: readonly QueueItem[], { onlyHeld = false } = {}): Promise<void> {
    if (items.length === 0) return;
    try {
      const tx = (await db()).transaction('outbox', 'readwrite');
      await Promise.all([
        ...items.map(async (item) => {
          if (onlyHeld && !(await tx.store.get(item.idempotencyKey))?.held) return;
          await tx.store.put(item);
        }),
        tx.done,
      ]);
    } catch {
      // IndexedDB unavailable or full: held in this tab's memory only.
    }
    this.channel?.postMessage('changed');
  }

  private readSettings(): void {
    let next = DEFAULT_SETTINGS;
    try {
      const raw = this.storage?.getItem(settingsKey(this.connectionId));
      if (raw) {
        const parsed = SettingsSchema.safeParse(JSON.parse(raw));
        if (parsed.success) next = parsed.data;
      }
    } catch {
      // Unreadable: the defaults.
    }
    this.settings = next;
    this.changed(false);
  }

  private writeSettings(next: QueueSettings): void {
    this.settings = next;
    try {
      this.storage?.setItem(settingsKey(this.connectionId), JSON.stringify(next));
    } catch {
      // Storage full or denied: this tab keeps the setting until it closes.
    }
    this.changed();
  }

  private changed(kick = true): void {
    this.current = null;
    this.listeners.notify();
    if (kick) this.kick();
    else if (this.timer === undefined) this.arm();
  }
}
