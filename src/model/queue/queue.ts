import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import { ApiError, toApiError } from '../../api/errors';
import { TaskStatusSchema, type TaskCreated, type TaskRequest } from '../../../contract/task';
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

/**
 * Why the queue paused itself, as a code and its data: worded when shown (pauseReasonText), in the language
 * of that moment, never stored as text of one language (the settings outlive a change of language).
 */
export type PauseReason =
  /** The service refused a send with 402 or the daily cap's 429: the error as it came, to be worded. */
  | {
      code: 'refused';
      status: number;
      errorCode: string;
      type: string;
      param?: string | undefined;
      extra?: Record<string, unknown> | undefined;
      retryAfterSeconds?: number | undefined;
    }
  /** The credits sent this session would pass the stop. */
  | { code: 'credit-stop'; limit: number }
  /** A credit stop is set and the next task's price could not be known: it is not sent blind. */
  | { code: 'unpriced'; limit: number };

const PauseReasonSchema = z.discriminatedUnion('code', [
  z.object({
    code: z.literal('refused'),
    status: z.number(),
    errorCode: z.string(),
    type: z.string(),
    param: z.optional(z.string()),
    extra: z.optional(z.record(z.string(), z.unknown())),
    retryAfterSeconds: z.optional(z.number()),
  }),
  z.object({ code: z.literal('credit-stop'), limit: z.number() }),
  z.object({ code: z.literal('unpriced'), limit: z.number() }),
]);

/** A pause reason in the studio's current language (call it where the text is shown). */
export function pauseReasonText(pause: PauseReason): string {
  switch (pause.code) {
    case 'refused': {
      const error = new ApiError({
        status: pause.status,
        code: pause.errorCode,
        type: pause.type,
        ...(pause.param === undefined ? {} : { param: pause.param }),
        ...(pause.extra === undefined ? {} : { extra: pause.extra }),
        ...(pause.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: pause.retryAfterSeconds }),
      });
      const reason = blockedReason(error);
      return t`Paused: ${reason}`;
    }
    case 'credit-stop': {
      const limit = formatCredits(pause.limit);
      return t`Stopped before passing ${limit} this session.`;
    }
    case 'unpriced': {
      const limit = formatCredits(pause.limit);
      return t`Paused: the next task's price is unknown, and the queue stops before passing ${limit} this session. Remove it, or raise or clear the stop in Queue settings.`;
    }
  }
}

export interface QueueSettings {
  paused: boolean;
  /** Why the queue paused itself (a 402 or 429 on sending, the credit stop), for the user; null: the user paused it. */
  pausedReason: PauseReason | null;
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
  // A reason stored as text by an older studio reads as none: the queue stays paused, the words go.
  pausedReason: z.catch(z.nullable(PauseReasonSchema), null),
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
 * Where this member stands among the team's members waiting for the pool (docs/queue.md, "Teams"): how
 * many others hold tasks that would go, and this member's place among all of them, itself included,
 * ordered by member id (every studio orders them alike, so the pool's remainder goes to the same ones).
 */
export interface PoolShare {
  othersWaiting: number;
  /** 0-based. */
  rank: number;
}

const ALONE: PoolShare = { othersWaiting: 0, rank: 0 };

/**
 * How many held tasks may go now: enough to keep every slot of the pool busy, no more. `busy` counts the
 * pool's tasks the forecast still has unfinished shortly from now (every member's, on a team's pool),
 * `sending` those sent and not yet answered. With other members waiting (their own queues hold tasks),
 * this device keeps no more than its fair share of the pool busy: the pool divided by the members
 * waiting, this one included, the remainder one slot each to the first by member id (`rank`), so the
 * shares add up to the whole pool; at least one slot each (docs/queue.md).
 */
export function slotsToFill({
  concurrency: believed,
  confirmed = true,
  busy,
  mineBusy,
  sending,
  othersWaiting = 0,
  rank = 0,
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
  /** This member's place among the members waiting, itself included, by member id (PoolShare). */
  rank?: number;
}): number {
  const concurrency = confirmed ? believed : believed + Math.max(1, Math.ceil(believed / 2));
  let free = concurrency - busy - sending;
  if (othersWaiting > 0) {
    const members = othersWaiting + 1;
    const extra = rank < concurrency % members ? 1 : 0;
    const share = Math.max(1, Math.floor(concurrency / members) + extra);
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
   * How many held tasks may go now (slotsToFill over the poll schedule's forecast), given where this
   * member stands among the team's members waiting (nobody else without the team space).
   */
  freeSlots: (share: PoolShare) => number;
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

/** A task queued by this tab, until its outcome is known (settled()). */
interface Outcome {
  promise: Promise<SubmitResult | null>;
  resolve: (result: SubmitResult | null) => void;
  /** Its outbox entry's createdAt: the history entry it makes, if sent, is created no earlier. */
  createdAt: number;
}

/** Of a stored outbox entry, its place in the queue when it is held (other fields are not needed here). */
const HeldPositionSchema = z.object({ held: z.object({ position: z.number() }) });

/** Of a stored history entry, what tells that a held task was created by another tab, and as what. */
const RecordedSchema = z.object({
  taskId: z.string(),
  status: TaskStatusSchema,
  idempotencyKey: z.optional(z.string()),
  request: z.object({ interfaceId: z.optional(z.string()), versionId: z.optional(z.string()) }),
});

/** What a tab says on the channel besides "read again": the held tasks it removed. */
const RemovedMessageSchema = z.object({ removed: z.array(z.string()) });

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
  /** The tasks queued by this tab whose outcome is not known yet, for settled(). */
  private readonly own = new Map<string, Outcome>();
  /** Tasks this tab queued that another tab said it removed (settled null once IndexedDB agrees). */
  private readonly removedElsewhere = new Set<string>();
  /** Tasks being priced before they may go (a credit stop is set and they were queued without a price). */
  private readonly pricing = new Set<string>();
  /** Tasks this tab claimed and sent, until their answer: their leaving the held set is this tab's doing. */
  private readonly sendingHere = new Set<string>();
  /** The last position this tab handed out (enqueue): two quick calls never take the same one. */
  private lastPosition = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private leader: boolean;
  private disposed = false;
  /** Where this member stands among those waiting for the team's pool (the team space sets it). */
  private poolShare: () => PoolShare = () => ALONE;
  private pumping = false;
  /**
   * The turn of the next release to hand its task to the service: releases run at once (a price check, the
   * claim), but each sends only after the service has answered the one released before it, so it receives
   * the tasks in the queue's order whichever price answer or database write comes back first.
   */
  private sendTurn: Promise<void> = Promise.resolve();
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
    return this.settings.sendAtOnce || this.deps.freeSlots(this.poolShare()) >= count;
  }

  /** Where the queue learns how the team's members waiting share the pool (fair share); null: alone. */
  setPoolShare(share: (() => PoolShare) | null): void {
    this.poolShare = share ?? (() => ALONE);
    this.kick();
  }

  /**
   * How many held tasks this tab speaks for in the team's presence (docs/queue.md, "Teams"): those that
   * would go as soon as the pool had room (the queue running; the task not paused, blocked or waiting for
   * the user to agree to a new price), and only in the tab that releases tasks: every tab of the
   * connection holds the same tasks, so the others say 0.
   */
  waitingForPool(): number {
    if (!this.leader || this.disposed || this.settings.paused) return 0;
    return this.eligible().length;
  }

  /**
   * How many tasks this tab tells the team it holds, paused or not (the team's queue shows them by member):
   * all of them from the tab that releases them, 0 from the others, which hold the same tasks.
   */
  heldForTeam(): number {
    return !this.leader || this.disposed ? 0 : this.items.size;
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
      this.channel.onmessage = (event: MessageEvent<unknown>) => {
        const removed = RemovedMessageSchema.safeParse(event.data);
        if (removed.success) for (const key of removed.data.removed) this.removedElsewhere.add(key);
        void this.reload();
      };
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
          // What this tab publishes to the team follows (waitingForPool): listeners hear of it.
          this.changed();
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

  /**
   * Reads the held tasks of this connection from IndexedDB again (another tab changed them). A task this
   * tab queued that another tab sent or removed meanwhile is settled here (settled()).
   */
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
    await this.settleGone();
  }

  /**
   * Settles the tasks this tab queued that are no longer held and that this tab is not sending: another
   * tab sent or removed them. IndexedDB tells which, in one read of both stores: an outbox entry without
   * `held` is on its way from that tab (its answer comes later: settled at a later reload, after that tab
   * says it changed); a history entry with its key is the task it created (the outbox records the
   * history entry before it deletes its own); neither, and the tab that removed it said so: null.
   */
  private async settleGone(): Promise<void> {
    const gone = [...this.own].filter(
      ([key]) => !this.items.has(key) && !this.starting.has(key) && !this.sendingHere.has(key),
    );
    if (gone.length === 0) return;
    const since = Math.min(...gone.map(([, outcome]) => outcome.createdAt));
    let outbox: unknown[];
    let recorded: unknown[];
    try {
      const tx = (await db()).transaction(['outbox', 'tasks'], 'readonly');
      [outbox, recorded] = await Promise.all([
        Promise.all(gone.map(([key]) => tx.objectStore('outbox').get(key))),
        tx
          .objectStore('tasks')
          .index('byConnection')
          .getAll(IDBKeyRange.bound([this.connectionId, since], [this.connectionId, Infinity])),
        tx.done,
      ]);
    } catch {
      return; // nothing can be told now; a later reload tries again
    }
    const created = new Map<string, TaskCreated>();
    for (const raw of recorded) {
      const entry = RecordedSchema.safeParse(raw);
      if (!entry.success || entry.data.idempotencyKey === undefined) continue;
      const { taskId, status, request } = entry.data;
      created.set(entry.data.idempotencyKey, {
        taskId,
        status,
        modelId: request.interfaceId ?? '',
        versionId: request.versionId ?? '',
      });
    }
    gone.forEach(([key], i) => {
      // Held again (taken back after a refusal) or still on its way: not settled yet.
      if (this.items.has(key) || this.sendingHere.has(key) || outbox[i] !== undefined) return;
      const task = created.get(key);
      if (task) this.settle(key, { kind: 'created', created: task, idempotencyKey: key });
      // In neither store: removed, never sent, when its remover said so. Otherwise the sending tab is
      // between the service's refusal and the task's return to the queue (402, 429): a later look tells.
      else if (this.removedElsewhere.delete(key)) this.settle(key, null);
    });
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
    const batch = asBatch && tasks.length > 1 ? (batchId ?? this.newKey()) : undefined;
    const build = (last: number): QueueItem[] => {
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
      this.lastPosition = Math.max(this.lastPosition, last + STEP * tasks.length);
      return added;
    };
    const added = await this.append(build);
    for (const item of added) {
      this.items.set(item.idempotencyKey, item);
      let resolve: Outcome['resolve'] = () => undefined;
      const promise = new Promise<SubmitResult | null>((r) => (resolve = r));
      this.own.set(item.idempotencyKey, { promise, resolve, createdAt: item.createdAt });
    }
    this.changed();
    return added.map((item) => item.idempotencyKey);
  }

  /**
   * Writes new held tasks after the last one, their positions read in the same IndexedDB transaction as
   * they are written: readwrite transactions on the outbox store run one at a time, in this tab and
   * across the connection's tabs, so two quick clicks (here or in two tabs) never take one position.
   * Without IndexedDB, this tab's own count of positions handed out keeps them apart.
   */
  private async append(build: (last: number) => QueueItem[]): Promise<QueueItem[]> {
    const lastHere = () => Math.max(this.lastPosition, this.snapshot().items.at(-1)?.held.position ?? 0);
    let added: QueueItem[] | null = null;
    try {
      const tx = (await db()).transaction('outbox', 'readwrite');
      const stored = await tx.store.index('byConnection').getAll(this.connectionId);
      let last = lastHere();
      for (const raw of stored) {
        const position = HeldPositionSchema.safeParse(raw);
        if (position.success) last = Math.max(last, position.data.held.position);
      }
      const built = build(last);
      added = built;
      await Promise.all([...built.map((item) => tx.store.put(item)), tx.done]);
    } catch {
      // IndexedDB unavailable or full: held in this tab's memory only.
      added ??= build(lastHere());
    }
    this.broadcast('changed');
    return added;
  }

  /**
   * What a task queued by this tab came to: the outbox's result once it was sent (created; refused for
   * good; pending: the outbox re-sends it with its key), or null once it was removed, never sent. A send
   * refused with 402 or the daily cap's 429 is not an outcome: the queue takes the task back, held at its
   * place, and it stays the queue's (one owner), so this stays open until it is sent or removed. Another
   * tab of the connection may send or remove it: reload() settles it then. Null at once for a key it does
   * not know.
   */
  settled(idempotencyKey: string): Promise<SubmitResult | null> {
    return this.own.get(idempotencyKey)?.promise ?? Promise.resolve(null);
  }

  private settle(idempotencyKey: string, result: SubmitResult | null): void {
    const outcome = this.own.get(idempotencyKey);
    this.own.delete(idempotencyKey);
    outcome?.resolve(result);
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

  pause(reason: PauseReason | null = null): void {
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
    // Only what is still held is removed: another tab may have released a task meanwhile, and that one
    // is on its way (it is settled when its answer is known, never as removed).
    let sentElsewhere = new Set<string>();
    try {
      const tx = (await db()).transaction('outbox', 'readwrite');
      const kept = await Promise.all(
        removed.map(async (item) => {
          const stored = await tx.store.get(item.idempotencyKey);
          if (!stored?.held) return item.idempotencyKey;
          await tx.store.delete(item.idempotencyKey);
          return null;
        }),
      );
      await tx.done;
      sentElsewhere = new Set(kept.filter((key): key is string => key !== null));
    } catch {
      // IndexedDB unavailable: removed here; a reload shows it again, still held and never sent.
    }
    for (const item of removed) this.items.delete(item.idempotencyKey);
    const gone = removed.filter((item) => !sentElsewhere.has(item.idempotencyKey));
    for (const item of gone) this.settle(item.idempotencyKey, null);
    // The other tabs: these were removed, never sent (a tab that queued one settles it with null).
    if (gone.length > 0) this.broadcast({ removed: gone.map((item) => item.idempotencyKey) });
    this.changed();
    if (sentElsewhere.size > 0) this.lookForGone();
    return gone;
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
    this.lookForGone();
  };

  /**
   * A task this tab queued may have been answered by another tab's outbox, or by this tab's taking up
   * what a closed tab left (Outbox.resume): no tab then says the queue changed, yet the history or the
   * outbox did (whose changes kick the queue). One look at a time, and none while nothing is gone.
   */
  private lookingForGone = false;
  private lookForGone(): void {
    if (this.lookingForGone || this.disposed) return;
    const anyGone = [...this.own.keys()].some(
      (key) => !this.items.has(key) && !this.starting.has(key) && !this.sendingHere.has(key),
    );
    if (!anyGone) return;
    this.lookingForGone = true;
    void this.settleGone().finally(() => (this.lookingForGone = false));
  }

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
      // A task being priced goes first, in its turn: nothing behind it passes it meanwhile.
      while (!this.disposed && this.leader && !this.settings.paused && this.pricing.size === 0) {
        const next = this.eligible()[0];
        if (!next) break;
        const room = this.settings.sendAtOnce
          ? Infinity
          : this.deps.freeSlots(this.poolShare()) - this.starting.size;
        if (room <= 0) break;
        const stop = this.settings.stopAfterCredits;
        if (stop !== null && next.held.credits === null) {
          // The stop cannot count a task of unknown price: it is priced first, or the queue stops.
          void this.priceFirst(next, stop);
          break;
        }
        const credits = next.held.credits ?? 0;
        let committed = this.sentCredits;
        for (const c of this.starting.values()) committed += c;
        if (stop !== null && committed + credits > stop + 1e-9) {
          this.pause({ code: 'credit-stop', limit: stop });
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
    const previous = this.sendTurn;
    let passTurn!: () => void;
    this.sendTurn = new Promise((resolve) => (passTurn = resolve));
    try {
      if (checkPrice && this.deps.quote) {
        const verdict = await this.checkPrice(item, this.deps.quote);
        if (verdict !== 'go') return null;
      }
      await previous;
      if (!(await this.claim(key))) {
        // Another tab released (or removed) it: what became of it is read as a reload reads it.
        this.items.delete(key);
        this.starting.delete(key);
        this.changed(false);
        await this.settleGone();
        return null;
      }
      this.items.delete(key);
      this.sendingHere.add(key);
      // The other tabs: it is no longer held.
      this.broadcast('changed');
      const credits = item.held.credits ?? 0;
      this.sentCredits = Math.round((this.sentCredits + credits) * 1e6) / 1e6;
      const sending = this.deps.submit(item.request, item.meta, { idempotencyKey: key });
      this.starting.delete(key);
      this.changed();
      const result = await sending;
      // The next release sends once the service has answered this one: the outbox writes each task down
      // before its POST, so a later task's POST could otherwise reach the service first.
      passTurn();
      if (result.kind === 'refused' && (await this.refused(item, result.error)) === 'taken back') {
        // Still the queue's, held at its place with the queue paused: its caller is told when it is sent
        // or removed, never "refused" beside a task that will still go (docs/queue.md).
        return result;
      }
      this.sendingHere.delete(key);
      this.settle(key, result);
      // The other tabs may settle it now: its answer is recorded.
      this.broadcast('changed');
      return result;
    } finally {
      passTurn();
      this.sendingHere.delete(key);
      if (this.starting.delete(key)) this.changed(false);
    }
  }

  /**
   * Under a credit stop, a task queued without a price (its quote had failed) is priced before it may go
   * (POST /quote), the price written down with it; when it cannot be priced the queue pauses and says why
   * (a refusal that would repeat blocks the task, as checkPrice does).
   */
  private async priceFirst(item: QueueItem, limit: number): Promise<void> {
    const key = item.idempotencyKey;
    const quote = this.deps.quote;
    if (!quote) {
      this.pause({ code: 'unpriced', limit });
      return;
    }
    this.pricing.add(key);
    try {
      const asked = (await quote(item.request)).credits;
      await this.patch(key, { credits: asked });
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status >= 400 && error.status < 500 && error.status !== 429 && error.status !== 408)
        await this.patch(key, { blocked: blockedReason(error) });
      else this.pause({ code: 'unpriced', limit });
    } finally {
      this.pricing.delete(key);
      this.changed();
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
   * or 429 (the balance, the daily cap, the rate) pauses the whole queue and says why: the task is taken
   * back, to go again on Resume; any other refusal (an upload gone, a param no longer valid) would
   * repeat, so the task waits for the user with the reason (blocked).
   */
  private async refused(item: QueueItem, error: ApiError): Promise<'taken back' | 'blocked'> {
    const takenBack = error.status === 402 || error.status === 429;
    const back: QueueItem = takenBack
      ? item
      : { ...item, held: { ...item.held, blocked: blockedReason(error) } };
    this.sentCredits = Math.max(0, Math.round((this.sentCredits - (item.held.credits ?? 0)) * 1e6) / 1e6);
    await this.writeAll([back]);
    this.items.set(back.idempotencyKey, back);
    if (!takenBack) {
      this.changed();
      return 'blocked';
    }
    // Paused before anything looks at the queue again: the task just taken back is first in line, and
    // with a slot free the pump would send it again at once (refused again, or charged past the stop).
    this.pause({
      code: 'refused',
      status: error.status,
      errorCode: error.code,
      type: error.type,
      param: error.param,
      extra: { ...error.extra },
      retryAfterSeconds: error.retryAfterSeconds,
    });
    return 'taken back';
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
    this.broadcast('changed');
  }

  /** Tells the connection's other tabs to read the queue again (and what this tab removed). */
  private broadcast(message: 'changed' | { removed: string[] }): void {
    if (this.disposed) return;
    try {
      this.channel?.postMessage(message);
    } catch {
      // Closed meanwhile: the other tabs read the queue again on their next message or load.
    }
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
