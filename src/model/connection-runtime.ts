import type { ApiClient } from '../api/client';
import type { Quote } from '../../contract/quote';
import type { TaskCreated, TaskRequest } from '../../contract/task';
import { abortError } from '../api/errors';
import { openConnectionStores, type ConnectionStores, type ConnectionStoresLease } from './connection-stores';
import type { OutboxEntry } from './db';
import { lazySection, type HistoryStore } from './history/history-store';
import type { HistoryEntry } from './history/history-types';
import { withParents } from './history/parents';
import type { PresetStore } from './library/presets';
import type { PromptLibrary } from './library/prompt-library';
import {
  DISPATCH_GUESS_MS,
  RELEASE_LEAD_MS,
  slotsToFill,
  submitThroughQueue,
  TaskQueue,
  type PoolShare,
  type SettingsStorage,
} from './queue/queue';
import { createdEntry } from './tasks/created-entry';
import { Outbox, type SubmitResult, type TimerHandle } from './tasks/outbox';
import { PollBudget } from './tasks/poll-budget';
import { loadLearning, saveLearning } from './tasks/poll-learning';
import { PollSchedule } from './tasks/poll-schedule';
import { startPolling, type TaskPollerDeps } from './tasks/task-poller';
import { shareHistory } from './history/tab-sync';
import type { TeamContext } from './team/team-doc';
import { onPresence, poolShare, publishHeld } from './team/team-queue-share';

// The lifecycle of one connection's tasks, without React (docs/ARCHITECTURE.md "From Generate to the
// gallery"; STYLE "Records that more than one program writes": long-lived work is a plain runtime that
// React observes). open() builds what a connected studio needs to send tasks: the history and its file
// sections, presets and prompts, the poll budget and schedule, the outbox that makes a submit idempotent
// and re-sends what was left unanswered, the queue that holds tasks until the pool has room; it wires
// them together and starts them, with the poller that keeps every unfinished task current (one tab of
// the connection polls) and the sharing of the history with the connection's other tabs. close() undoes
// all of it. useTasks opens one per connection; a test opens several (one per tab) against a real sandbox.

/** What the runtime asks of the API client (ApiClient fits). */
type RuntimeApi = Pick<ApiClient, 'createTask' | 'getTask' | 'quote' | 'health'>;

export interface ConnectionRuntimeDeps {
  api: RuntimeApi;
  connectionId: string;
  /**
   * Where the poll schedule starts when this connection learned nothing yet (concurrencyPrior of GET
   * /me), and the key's task limit per minute (the poll budget's).
   */
  prior: { concurrency: number; confirmed: boolean; tasksPerMin: number };
  /** A task was created and recorded (the balance changed: the studio refetches GET /me). */
  onCreated?: () => void;
  /**
   * The price the queue checks before it sends a held task (default POST /quote straight); the studio
   * asks it through its price queries (api/queries/quote-queries.ts), never from a cached answer.
   */
  quote?: (request: TaskRequest) => Promise<Quote>;
  /** The connection's stores: shared with the gallery by default; a test gives each tab its own. */
  openStores?: (connectionId: string) => ConnectionStoresLease;
  /** The queue's settings (default localStorage, shared by the tabs). */
  storage?: SettingsStorage | null;
  now?: () => number;
  /** Who polls among the tabs (default the connection's Web Lock) and whether the user looks (TaskPoller). */
  leadership?: TaskPollerDeps['leadership'];
  seen?: TaskPollerDeps['seen'];
  /** The outbox's re-sends and the queue's tick (tests shorten them). */
  setTimer?: (fn: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
}

/** What one click (Generate, Runs, Variations) came to: sent at once, or held in the queue. */
export type SubmitOutcome =
  | { held: false; results: SubmitResult[] }
  | {
      held: true;
      /** The keys written down with the held tasks, in order. */
      keys: string[];
      /** Each task's outcome once sent (null: removed before it went), as TaskQueue.settled. */
      settled: Promise<(SubmitResult | null)[]>;
    };

/** The parts a submit goes through (a ConnectionRuntime; a hook's test may hand a fake of these). */
export type SubmitParts = Pick<ConnectionRuntime, 'outbox' | 'queue' | 'prompts' | 'store'>;

/**
 * The one submit path of a click: what the queue would send this instant goes through the outbox at once
 * (its answer, a refused field, shows on the form); otherwise every task of the click is held in the
 * queue, its key written down, nothing charged yet (docs/queue.md). Several requests are one batch: each
 * its own Idempotency-Key, all written to the outbox before the first is sent. The prompts sent go to the
 * prompt library.
 */
export async function submitTasks(
  parts: SubmitParts,
  requests: TaskRequest | readonly TaskRequest[],
  meta: HistoryEntry['meta'],
  { prompts = [] }: { prompts?: readonly string[] } = {},
): Promise<SubmitOutcome> {
  void parts.prompts.record(prompts);
  const list: readonly TaskRequest[] = Array.isArray(requests) ? requests : [requests as TaskRequest];
  // The outputs the tasks are made from, as they are sent (history/parents.ts).
  const made = withParents(meta, list, parts.store.outputAt);
  if (!parts.queue.wouldSendNow(list.length)) {
    const keys = await parts.queue.enqueue(list.map((request) => ({ request, meta: made })));
    return { held: true, keys, settled: Promise.all(keys.map((key) => parts.queue.settled(key))) };
  }
  if (list.length === 1) return { held: false, results: [await parts.outbox.submit(list[0]!, made)] };
  return {
    held: false,
    results: await parts.outbox.submitBatch(list.map((request) => ({ request, meta: made }))),
  };
}

/** How many held tasks the pool has room for now, by the schedule's forecast (docs/queue.md). */
function freeSlots(
  now: number,
  schedule: PollSchedule,
  outbox: Outbox,
  store: HistoryStore,
  { othersWaiting, rank }: PoolShare,
): number {
  // A task sent now starts a dispatch later at the earliest: sent that much before the slot frees.
  const at = now + RELEASE_LEAD_MS + (schedule.dispatchMs() ?? DISPATCH_GUESS_MS);
  return slotsToFill({
    concurrency: schedule.concurrency,
    confirmed: schedule.confirmed,
    busy: schedule.busyAt(at),
    mineBusy: schedule.busyAt(at, (taskId) => store.isLocal(taskId)),
    sending: outbox.entries().filter((e) => !e.expired).length,
    othersWaiting,
    rank,
  });
}

export class ConnectionRuntime {
  readonly connectionId: string;
  /** The history of everything this key created (IndexedDB; the API cannot list tasks). */
  readonly store: HistoryStore;
  readonly outbox: Outbox;
  readonly budget: PollBudget;
  /** When each unfinished task is polled (its forecast: "queued, about 4 ahead", ...). */
  readonly schedule: PollSchedule;
  /** This key's presets and prompt library (local, in the history file too). */
  readonly presets: PresetStore;
  readonly prompts: PromptLibrary;
  /** The gallery's stores of this connection: stars and ratings, hidden tasks, kept copies. */
  readonly judgements: ConnectionStores['judgements'];
  readonly reviews: ConnectionStores['reviews'];
  /** Tags of outputs and saved searches (both in the history file too). */
  readonly tags: ConnectionStores['tags'];
  readonly searches: ConnectionStores['searches'];
  readonly hidden: ConnectionStores['hidden'];
  readonly keepers: ConnectionStores['keepers'];
  /** The tasks this device holds back until the pool is about to free a place (docs/queue.md). */
  readonly queue: TaskQueue;
  private readonly offs: (() => void)[];
  private closed = false;

  /**
   * Opens the connection's stores, builds the runtime over them and starts it: what a reload or crash
   * left unanswered in the outbox is re-sent (identically), the queue reads what it holds. Rejects when
   * the stores cannot be opened (IndexedDB refused), or with an abort when `signal` aborted meanwhile
   * (the stores are released then, nothing started).
   */
  static async open(
    deps: ConnectionRuntimeDeps,
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<ConnectionRuntime> {
    const lease = (deps.openStores ?? openConnectionStores)(deps.connectionId);
    // The service answers again after an outage: what waits in the outbox goes now, not at its back-off.
    let outbox: Outbox | null = null;
    const offRecovered = deps.api.health.onRecovered(() => outbox?.resendWaiting());
    let stores;
    try {
      stores = await lease.stores;
      if (signal?.aborted) throw abortError();
    } catch (error) {
      offRecovered();
      lease.release();
      throw error;
    }
    const runtime = new ConnectionRuntime(deps, stores, lease, offRecovered);
    outbox = runtime.outbox;
    // What the outbox and the queue hold is read before the runtime is handed over: the studio's first
    // render with them (a transition, in slices) would otherwise see their lists change under it, and
    // React renders all of it again at once, in one long task (total blocking time, docs/benchmarks.md
    // "lighthouse"). A submit that never got an answer before a reload or crash is then re-sent, identically.
    const [resend] = await Promise.all([runtime.outbox.readBack(), runtime.queue.start()]);
    void resend();
    return runtime;
  }

  private constructor(
    deps: ConnectionRuntimeDeps,
    {
      history: store,
      presets,
      prompts,
      judgements,
      reviews,
      tags,
      searches,
      hidden,
      keepers,
    }: ConnectionStores,
    lease: ConnectionStoresLease,
    offRecovered: () => void,
  ) {
    const { api, connectionId, prior } = deps;
    const now = deps.now ?? (() => Date.now());
    const timers = {
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.setTimer ? { setTimer: deps.setTimer } : {}),
      ...(deps.clearTimer ? { clearTimer: deps.clearTimer } : {}),
    };
    this.connectionId = connectionId;
    this.store = store;
    this.presets = presets;
    this.prompts = prompts;
    this.judgements = judgements;
    this.reviews = reviews;
    this.tags = tags;
    this.searches = searches;
    this.hidden = hidden;
    this.keepers = keepers;
    const sections = [
      // The stars and ratings, the reviews, the tags and the saved searches travel in the history file.
      store.addSection('judgements', judgements.historySection()),
      store.addSection('reviews', reviews.historySection()),
      store.addSection('tags', tags.historySection()),
      store.addSection('searches', searches.historySection()),
      store.addSection('presets', presets.historySection()),
      store.addSection('prompts', prompts.historySection()),
      // The blind votes' module loads only when a file is made or read.
      store.addSection(
        'votes',
        lazySection(() => import('./compare/votes').then((m) => m.votesHistorySection(connectionId))),
      ),
    ];
    this.budget = new PollBudget({ perMinute: prior.tasksPerMin });
    // Starts from what GET /me says of the key, or from what earlier sessions of it learned.
    const schedule = new PollSchedule({
      budget: this.budget,
      concurrency: prior.concurrency,
      confirmed: prior.confirmed,
      learned: loadLearning(connectionId),
      onLearn: (state) => saveLearning(connectionId, state),
    });
    this.schedule = schedule;
    const outbox = new Outbox({
      connectionId,
      createTask: (request, idempotencyKey, signal) => api.createTask(request, { idempotencyKey, signal }),
      onCreated: async (entry: OutboxEntry, created: TaskCreated) => {
        await store.put(createdEntry(entry, created, store.get(created.taskId), connectionId));
        // The balance and today's spend just changed.
        deps.onCreated?.();
      },
      ...timers,
    });
    this.outbox = outbox;
    this.queue = new TaskQueue({
      connectionId,
      submit: (request, meta, options) => outbox.submit(request, meta, options),
      freeSlots: (share) => freeSlots(now(), schedule, outbox, store, share),
      quote: deps.quote ?? ((request) => api.quote(request)),
      ...(deps.storage !== undefined ? { storage: deps.storage } : {}),
      ...timers,
    });
    // A place may have freed: a task finished or was answered, a send settled.
    const kick = this.queue.kick;
    this.offs = [
      offRecovered,
      // Every change this tab makes to the history reaches the connection's other tabs, and theirs this one.
      shareHistory(store, connectionId),
      startPolling({
        api,
        connectionId,
        store,
        schedule,
        ...(deps.leadership ? { leadership: deps.leadership } : {}),
        ...(deps.seen ? { seen: deps.seen } : {}),
      }),
      ...sections,
      outbox.subscribe(kick),
      store.subscribe(kick),
      schedule.subscribe(kick),
      () => this.queue.dispose(),
      () => outbox.dispose(),
      () => schedule.stop(),
      () => lease.release(),
    ];
  }

  /** One click's tasks, sent at once or held (submitTasks). */
  submit(
    requests: TaskRequest | readonly TaskRequest[],
    meta: HistoryEntry['meta'],
    options: { prompts?: readonly string[] } = {},
  ): Promise<SubmitOutcome> {
    return submitTasks(this, requests, meta, options);
  }

  /**
   * Tasks whose keys the caller wrote down already (a Compare board's cells), sent as a click's are: at
   * once when the queue would send them now, else held with those keys (submitThroughQueue). Each result
   * is the task's outcome once sent; null: removed from the queue before it went.
   */
  submitKeyed(
    tasks: ReadonlyArray<{ request: TaskRequest; meta: HistoryEntry['meta']; idempotencyKey: string }>,
  ): Promise<{ held: boolean; results: Promise<SubmitResult | null>[] }> {
    return submitThroughQueue(
      this.queue,
      (request, meta, options) => this.outbox.submit(request, meta, options),
      tasks.map((t) => ({ ...t, meta: withParents(t.meta, [t.request], this.store.outputAt) })),
    );
  }

  /**
   * The team space is on (docs/queue.md, "Teams"): this device tells the room how many tasks it holds
   * and how many of them wait for the pool (only the tab that releases them says so; the others say 0),
   * and the queue keeps to a fair share of the team's pool while other members' tasks wait for it.
   * Answers the undo (the team space off, or another room).
   */
  linkTeam(space: TeamContext): () => void {
    const queue = this.queue;
    let told = '';
    const tell = () => {
      const now = { held: queue.heldForTeam(), waiting: queue.waitingForPool() };
      const key = `${now.held}/${now.waiting}`;
      if (key === told) return;
      told = key;
      publishHeld(space, now);
    };
    tell();
    const offQueue = queue.subscribe(tell);
    queue.setPoolShare(() => poolShare(space));
    // Another member's queue emptied or filled: this one's share changed.
    const offPresence = onPresence(space, queue.kick);
    const unlink = () => {
      const at = this.offs.indexOf(unlink);
      if (at < 0) return;
      // Out of close()'s list too: a team space turned on and off again leaves nothing behind.
      this.offs.splice(at, 1);
      offQueue();
      offPresence();
      queue.setPoolShare(null);
      publishHeld(space, { held: 0, waiting: 0 });
    };
    this.offs.push(unlink);
    return unlink;
  }

  /** Stops everything open() started and releases the stores. Answers already on their way are still recorded. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    // A copy: an undo may take itself out of the list (linkTeam).
    for (const off of [...this.offs]) off();
  }
}
