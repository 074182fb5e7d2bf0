import { abortError } from '../../api/errors';
import { isTerminal, type TaskStatus } from '../../../contract/task';
import type { ClearTimer, PollBudget, SetTimer, TimerHandle } from './poll-budget';
import { Listeners } from '../../lib/store';

// When each unfinished task is polled (product-notes §3 "History and gallery": "Polls go where a finish
// is likely"). The service runs a key's tasks first in, first out, at most `concurrency` at once (api-notes
// §8: personal keys the user's setting, default 3; team keys a shared pool), each for about its quote's
// estimate. So the schedule simulates that queue: every unfinished task of the connection (submitted
// here, in another tab, imported, or left from before a reload) gets a predicted start and finish, and
// its poll is due just after the predicted finish. What each poll shows corrects the simulation:
// - seen queued: neither it nor anything after it had started then (FIFO);
// - seen running: it had started; with the tasks ahead that have not finished, that many run at once,
//   so the concurrency is at least that;
// - finished: its completedAt anchors the slot it frees, and gives a sample of how long a run takes
//   (from a known start) or how long an unqueued task takes from creation;
// - still unfinished after its predicted finish (late): polled again after a growing step.
// While the concurrency has not been seen at its limit, the head of the predicted queue is probed once
// just after it would have started if there were one more slot. Turns come from the connection's
// PollBudget (under the GET /tasks/{id} limit, paused by a 429 for its Retry-After); a first poll at its
// prediction may not use the last `reserve` turns of the window, which stay for polls that correct a
// wrong prediction (a task found unfinished, a probe). The reserve follows how often first polls miss.

/** A poll goes this long after the predicted finish (clock and transit between us and the service). */
export const POLL_LAG_MS = 300;
/** Never two polls of one task closer than this. */
const MIN_POLL_GAP_MS = 1_000;
/** Steps after a poll that found a task unfinished past its predicted finish: a fifth of a run, doubling. */
const LATE_STEP_MIN_MS = 1_000;
const LATE_STEP_MAX_MS = 15_000;
/** A probe of the queue's head goes at least this long after it could have started with one more slot. */
const PROBE_DELAY_MS = 700;
/**
 * The run time guessed for a task with no estimate and nothing learned yet (api-notes §2: estimatedSeconds is
 * null for a model with no history): short, so the first poll is early; a late task is looked at again
 * after growing steps, and its finish teaches the real time.
 */
const DEFAULT_RUN_SECONDS = 3;
/** api-notes §8: a personal key's default concurrency; a team pool starts there too and is learned. */
export const DEFAULT_CONCURRENCY = 3;
const MIN_RESERVE = 2;
/**
 * The poller keeps a query only for tasks whose poll is due within this lead (or under way), at most
 * ACTIVE_MAX of them: a thousand queued tasks are a thousand predictions, not a thousand observers.
 */
const ACTIVE_LEAD_MS = 2_000;
const ACTIVE_MAX = 30;
const MAX_RESERVE_SHARE = 0.25;
/** Learned run and latency times: the median of this many recent samples per model. */
const SAMPLES = 9;
/**
 * A task seen queued at least this long (and half a run) after its creation, and past its predicted
 * start, waits for a slot, not for a dispatch: the tasks ahead of it that may still run bound the
 * concurrency from above.
 */
const QUEUED_GRACE_MS = 2_000;
/** Finished tasks that freed a slot this long before the oldest unfinished one was created are forgotten. */
const FORGET_AFTER_MS = 10 * 60_000;

export interface ScheduleTask {
  taskId: string;
  /** ms since epoch: the service's createdAt when known, else the submit time. */
  createdAt: number;
  /** The quote's estimatedSeconds at submit time. */
  estimatedSeconds: number | null;
  /** What ran (model and version, tool or template): run times are learned per model. */
  model?: string;
  status: TaskStatus;
  completedAt?: number | null;
}

/** What GET /tasks/{id} answered, as far as the schedule cares. */
export interface PollAnswer {
  status: TaskStatus;
  createdAt?: number | null;
  completedAt?: number | null;
}

export type Forecast =
  | { phase: 'queued'; ahead: number; startsInMs: number; finishesInMs: number }
  | { phase: 'running'; finishesInMs: number }
  | { phase: 'checking' };

interface Tracked {
  id: string;
  seq: number;
  createdAt: number;
  estimate: number | null;
  model: string;
  status: TaskStatus;
  completedAt: number | null;
  polls: number;
  lastPollAt: number | null;
  /** The last poll that saw it queued, and the first and last that saw it running. */
  lastQueuedAt: number | null;
  firstRunningAt: number | null;
  /** The last poll that found it unfinished (queued or running). */
  lastUnfinishedAt: number | null;
  /** Polls that found it unfinished at or after its predicted finish. */
  late: number;
  failures: number;
  expedite: boolean;
  inFlight: boolean;
  probed: boolean;
  // The simulation's answer.
  start: number;
  end: number;
  rank: number;
  /** Halfway between when it could start with one more slot and its predicted start (the probe). */
  probeAt: number | null;
  /** How the predicted start was decided: its creation (a free slot), or a finish before it. */
  startedBy: 'created' | 'finish' | 'predicted' | 'observed';
}

interface Waiter {
  id: string;
  resolve: () => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** What the schedule learned of a connection: kept across reloads (poll-learning.ts). */
export interface LearnedState {
  concurrency: number;
  /** Whether the concurrency was seen at its limit (a task waited behind it): no probes then. */
  confirmed: boolean;
  /** Recent run times and creation-to-finish times, in seconds, by model ('' for all). */
  runSamples: Record<string, number[]>;
  latencySamples: Record<string, number[]>;
}

export interface PollScheduleOptions {
  budget: PollBudget;
  now?: () => number;
  setTimer?: SetTimer;
  clearTimer?: ClearTimer;
  /** The first guess of how many tasks run at once; learned from then on. */
  concurrency?: number;
  /** Whether that guess is taken as the limit (no probes for one more slot) until observation says otherwise. */
  confirmed?: boolean;
  /** What an earlier session learned for this connection; wins over `concurrency` and `confirmed`. */
  learned?: LearnedState | null;
  /** Told what was learned after each poll's answer (to keep it across reloads). */
  onLearn?: (state: LearnedState) => void;
}

const defaultSetTimer: SetTimer = (fn, ms) => setTimeout(fn, ms);
const defaultClearTimer: ClearTimer = (handle) => clearTimeout(handle);

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? null) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const validEstimate = (s: number | null | undefined): number | null =>
  typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : null;

export class PollSchedule {
  private readonly budget: PollBudget;
  private readonly now: () => number;
  private readonly setTimer: SetTimer;
  private readonly clearTimer: ClearTimer;
  private readonly tasks = new Map<string, Tracked>();
  private readonly waiters = new Map<string, Waiter>();
  private readonly listeners = new Listeners();
  private readonly runSamples = new Map<string, number[]>();
  private readonly latencySamples = new Map<string, number[]>();
  private readonly medians = new Map<Map<string, number[]>, Map<string, number | null>>();
  private readonly onLearn: ((state: LearnedState) => void) | undefined;
  private seq = 0;
  private dirty = true;
  private pumpQueued = false;
  /** The listeners are to hear of a change at the next pump. */
  private tell = false;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private offBudget: (() => void) | null = null;
  /** Predicted starts of the unfinished tasks in queue order, never decreasing (for "N ahead"). */
  private pendingStarts: number[] = [];
  private missRate = 0.1;
  private probeId: string | null = null;
  private activeIds: readonly string[] = [];
  /** How many tasks run at once, as learned; `confirmed` once a task was seen waiting behind them. */
  concurrency: number;
  confirmed = false;

  constructor(options: PollScheduleOptions) {
    this.budget = options.budget;
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? defaultSetTimer;
    this.clearTimer = options.clearTimer ?? defaultClearTimer;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
    this.confirmed = options.confirmed ?? false;
    this.onLearn = options.onLearn;
    const learned = options.learned;
    if (learned) {
      this.concurrency = Math.max(1, Math.floor(learned.concurrency));
      this.confirmed = learned.confirmed;
      for (const [model, xs] of Object.entries(learned.runSamples))
        this.runSamples.set(model, xs.slice(-SAMPLES));
      for (const [model, xs] of Object.entries(learned.latencySamples))
        this.latencySamples.set(model, xs.slice(-SAMPLES));
    }
    this.start();
  }

  /** Hands out turns again after stop() (a component's effect that runs twice). */
  start(): void {
    this.stopped = false;
    this.offBudget ??= this.budget.onChange(() => this.schedulePump());
    this.schedulePump();
  }

  // ---- what the history holds ------------------------------------------------------------------

  /**
   * The tasks of the connection, as the history has them (new submits, other tabs' writes, imports,
   * reloads). Unfinished ones join the schedule; finished ones anchor the queue; gone ones leave it.
   */
  sync(tasks: readonly ScheduleTask[]): void {
    const now = this.now();
    const seen = new Set<string>();
    for (const task of tasks) {
      this.take(task, now);
      seen.add(task.taskId);
    }
    for (const id of [...this.tasks.keys()]) {
      if (!seen.has(id)) {
        this.tasks.delete(id);
        this.dirty = true;
      }
    }
    this.settle();
  }

  /**
   * The history's tasks that changed since the last sync() or update() (new submits, other tabs'
   * writes, answers): as sync() for these, without reading the whole history; the others stay as they
   * are (a finished one leaves once it no longer anchors the queue).
   */
  update(tasks: readonly ScheduleTask[]): void {
    const now = this.now();
    for (const task of tasks) this.take(task, now);
    this.settle();
  }

  /** One task of the history, as sync() and update() take it in. */
  private take(task: ScheduleTask, now: number): void {
    const terminal = isTerminal(task.status);
    const known = this.tasks.get(task.taskId);
    if (!known) {
      // A finished task matters only while it may have held a slot that an unfinished one waited for.
      if (terminal && (!task.completedAt || task.completedAt < now - FORGET_AFTER_MS)) return;
      this.tasks.set(task.taskId, this.track(task));
      this.dirty = true;
      return;
    }
    if (task.createdAt !== known.createdAt && Number.isFinite(task.createdAt)) {
      known.createdAt = task.createdAt;
      this.dirty = true;
    }
    if (terminal && !isTerminal(known.status)) {
      known.status = task.status;
      known.completedAt = task.completedAt ?? null;
      this.dirty = true;
    }
  }

  /** Turns waiting for tasks that left or finished are called off; a changed queue is planned again. */
  private settle(): void {
    for (const waiter of [...this.waiters.values()]) {
      const t = this.tasks.get(waiter.id);
      if (!t || isTerminal(t.status)) this.cancelWaiter(waiter);
    }
    if (this.dirty) this.schedulePump();
  }

  private track(task: ScheduleTask): Tracked {
    return {
      id: task.taskId,
      seq: this.seq++,
      createdAt: task.createdAt,
      estimate: validEstimate(task.estimatedSeconds),
      model: task.model ?? '',
      status: task.status,
      completedAt: task.completedAt ?? null,
      polls: 0,
      lastPollAt: null,
      lastQueuedAt: null,
      firstRunningAt: null,
      lastUnfinishedAt: null,
      late: 0,
      failures: 0,
      expedite: false,
      inFlight: false,
      probed: false,
      start: task.createdAt,
      end: task.createdAt,
      rank: 0,
      probeAt: null,
      startedBy: 'created',
    };
  }

  // ---- turns ---------------------------------------------------------------------------------------

  /**
   * Resolves when this task's poll should be sent now (its turn is counted in the budget): when its
   * predicted finish has passed (or it is probed), and the budget allows. Rejects with an `aborted`
   * ApiError when the signal aborts, the task leaves the schedule or the schedule is stopped.
   */
  turn(task: ScheduleTask, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.stopped) return Promise.reject(abortError());
    const taskId = task.taskId;
    if (!this.tasks.has(taskId) && !isTerminal(task.status)) {
      this.tasks.set(taskId, this.track(task));
      this.dirty = true;
    }
    const t = this.tasks.get(taskId);
    if (!t || isTerminal(t.status)) return Promise.reject(abortError());
    const previous = this.waiters.get(taskId);
    if (previous) this.cancelWaiter(previous);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { id: taskId, resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => this.cancelWaiter(waiter);
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.set(taskId, waiter);
      this.schedulePump();
    });
  }

  /** What the poll of `taskId`, sent at `sentAt`, found. 'unknown' is 404 unknown_task: it leaves. */
  observe(taskId: string, answer: PollAnswer | 'unknown', sentAt?: number): void {
    const t = this.tasks.get(taskId);
    if (!t) return;
    const at = sentAt ?? t.lastPollAt ?? this.now();
    t.inFlight = false;
    t.expedite = false;
    t.failures = 0;
    if (this.dirty) this.predict();
    if (answer === 'unknown') {
      this.tasks.delete(taskId);
      this.dirty = true;
      this.changed();
      return;
    }
    const firstPoll = t.polls === 1 && t.id !== this.probeId;
    if (answer.createdAt && Number.isFinite(answer.createdAt)) t.createdAt = answer.createdAt;
    const predictedEnd = t.end;
    if (isTerminal(answer.status)) {
      t.status = answer.status;
      t.completedAt = answer.completedAt ?? at;
      if (firstPoll) this.learnMiss(false);
      this.learnFromFinish(t);
    } else {
      t.status = answer.status;
      t.lastUnfinishedAt = at;
      if (firstPoll) this.learnMiss(true);
      if (at >= predictedEnd) t.late += 1;
      if (answer.status === 'queued') {
        t.lastQueuedAt = Math.max(t.lastQueuedAt ?? -Infinity, at);
        this.learnFromQueued(t, at);
      } else {
        t.firstRunningAt ??= at;
        this.learnFromRunning(t, at);
      }
    }
    if (t.id === this.probeId) this.probeId = null;
    this.dirty = true;
    this.onLearn?.(this.learnedState());
    this.changed();
  }

  /** The concurrency and run times learned so far (for the next session of this connection). */
  learnedState(): LearnedState {
    return {
      concurrency: this.concurrency,
      confirmed: this.confirmed,
      runSamples: Object.fromEntries(this.runSamples),
      latencySamples: Object.fromEntries(this.latencySamples),
    };
  }

  /**
   * The poll got no usable answer: after a failure (network, 5xx after the client's retries) the task
   * is tried again after a growing wait; after an abort (`{ failure: false }`), at its usual time.
   */
  failed(taskId: string, { failure = true }: { failure?: boolean } = {}): void {
    const t = this.tasks.get(taskId);
    if (!t) return;
    t.inFlight = false;
    if (failure) t.failures += 1;
    this.changed();
  }

  /** A 429: every poll waits out the Retry-After (api-notes §7, §8); the poll that got it is due again after. */
  rateLimited(taskId: string | null, retryAfterSeconds: number | undefined): void {
    this.budget.pause(retryAfterSeconds ?? 60);
    if (taskId) {
      const t = this.tasks.get(taskId);
      if (t) {
        t.inFlight = false;
        t.polls = Math.max(0, t.polls - 1);
      }
    }
    this.changed();
  }

  /** The service answers again after an outage: every unfinished task is polled at once (in the budget). */
  expediteAll(): void {
    for (const t of this.tasks.values()) {
      if (!isTerminal(t.status)) {
        t.expedite = true;
        t.failures = 0;
      }
    }
    this.changed();
  }

  // ---- what the studio knows -------------------------------------------------------------------------

  /**
   * The tasks to keep a poll going for: due within ACTIVE_LEAD_MS or under way (earliest due first, at
   * most ACTIVE_MAX); a task that leaves the set has its waiting turn called off by its query. The same array until the set changes (for
   * useSyncExternalStore); listeners hear when it does.
   */
  active = (): readonly string[] => this.activeIds;

  /** The schedule's view of one task, at `now`; null when it does not follow the task. */
  forecast(taskId: string, now: number = this.now()): Forecast | null {
    const t = this.tasks.get(taskId);
    if (!t || isTerminal(t.status)) return null;
    if (this.dirty) this.predict();
    if (t.inFlight || this.dueAt(t, now) <= now) return { phase: 'checking' };
    if (t.start > now) {
      return {
        phase: 'queued',
        ahead: Math.max(0, t.rank - this.startedBy(now)),
        startsInMs: t.start - now,
        finishesInMs: t.end - now,
      };
    }
    return { phase: 'running', finishesInMs: t.end - now };
  }

  /** When the next poll of a task is due (ms since epoch), or null when it is not followed. */
  nextPollAt(taskId: string): number | null {
    const t = this.tasks.get(taskId);
    if (!t || isTerminal(t.status)) return null;
    if (this.dirty) this.predict();
    return this.dueAt(t, this.now());
  }

  /** The predicted finish of a task (ms since epoch), or null. */
  predictedFinish(taskId: string): number | null {
    const t = this.tasks.get(taskId);
    if (!t || isTerminal(t.status)) return null;
    if (this.dirty) this.predict();
    return t.end;
  }

  /**
   * How many unfinished tasks the forecast still has queued or running at `at`: the queue sends a held
   * task when this falls under the concurrency (docs/queue.md). `only` counts some of them (this device's).
   */
  busyAt(at: number, only?: (taskId: string) => boolean): number {
    if (this.dirty) this.predict();
    let n = 0;
    for (const t of this.tasks.values()) {
      if (!isTerminal(t.status) && t.end > at && (!only || only(t.id))) n++;
    }
    return n;
  }

  /** Turns of the budget's window that first polls leave for corrections. */
  get reserve(): number {
    const limit = this.budget.perMinute;
    const max = Math.max(MIN_RESERVE, Math.ceil(limit * MAX_RESERVE_SHARE));
    return Math.min(Math.max(MIN_RESERVE, Math.ceil(limit * this.missRate)), max, Math.max(0, limit - 1));
  }

  /**
   * How long the service takes from a task's creation to its start when a slot is free (its dispatch), ms:
   * the learned creation-to-finish time of a task that found a slot free, less the learned run, for the
   * model (any model's with none given). Null until both are learned. The queue sends a held task this
   * much earlier, so it starts as the slot frees rather than a dispatch later (docs/queue.md).
   */
  dispatchMs(model = ''): number | null {
    const latency = this.medianOf(this.latencySamples, model);
    const run = this.learnedRunSeconds(model);
    return latency === null || run === null ? null : Math.max(0, Math.round((latency - run) * 1000));
  }

  /** The learned run time of a model's task (seconds), or null before any was seen. */
  learnedRunSeconds(model = ''): number | null {
    return this.medianOf(this.runSamples, model);
  }

  get pendingCount(): number {
    let n = 0;
    for (const t of this.tasks.values()) if (!isTerminal(t.status)) n++;
    return n;
  }

  has(taskId: string): boolean {
    const t = this.tasks.get(taskId);
    return !!t && !isTerminal(t.status);
  }

  subscribe = this.listeners.subscribe;

  /** Rejects every waiting turn (aborted) and stops the timer: the connection is going away. */
  stop(): void {
    this.stopped = true;
    this.stopTimer();
    this.offBudget?.();
    this.offBudget = null;
    for (const waiter of [...this.waiters.values()]) this.cancelWaiter(waiter);
  }

  // ---- learning --------------------------------------------------------------------------------------

  /**
   * A run's time: as learned for the model; before that, the estimate, but never less than a learned
   * creation-to-finish time, which a run from a free slot took in full. An estimate that is too short
   * makes every poll early, and a missed poll is a turn of the budget that every later task waits for;
   * one that is long by the dispatch costs a second of delay until a run of its own is learned. With
   * no estimate, that creation-to-finish time itself, then what other models ran, then the default.
   */
  private runSeconds(t: Tracked): number {
    const learned = this.learnedRunSeconds(t.model);
    if (learned !== null) return learned;
    const latency = this.medianOf(this.latencySamples, t.model);
    const guess = t.estimate ?? latency ?? this.learnedRunSeconds('') ?? DEFAULT_RUN_SECONDS;
    return Math.max(guess, latency ?? 0);
  }

  /** From creation to finish with a free slot: the learned latency, else the estimate, never under a run. */
  private latencySeconds(t: Tracked, run: number): number {
    const learned = this.medianOf(this.latencySamples, t.model);
    return Math.max(run, learned ?? t.estimate ?? run);
  }

  /** The median of a model's samples, kept until a new sample (a prediction asks it for every task). */
  private medianOf(map: Map<string, number[]>, model: string): number | null {
    let cache = this.medians.get(map);
    if (!cache) this.medians.set(map, (cache = new Map()));
    let value = cache.get(model);
    if (value === undefined) cache.set(model, (value = median(map.get(model) ?? [])));
    return value;
  }

  private sample(map: Map<string, number[]>, model: string, seconds: number): void {
    this.medians.get(map)?.clear();
    for (const key of new Set([model, ''])) {
      const xs = map.get(key) ?? [];
      xs.push(seconds);
      map.set(key, xs.slice(-SAMPLES));
    }
  }

  private learnMiss(missed: boolean): void {
    this.missRate = this.missRate * 0.85 + (missed ? 0.15 : 0);
  }

  private learnFromFinish(t: Tracked): void {
    const done = t.completedAt;
    if (done === null) return;
    const run = this.runSeconds(t);
    // Seen queued, then running, close together: the start is known to within that gap.
    if (t.lastQueuedAt !== null && t.firstRunningAt !== null && t.firstRunningAt - t.lastQueuedAt <= 1_500) {
      const seconds = (done - (t.lastQueuedAt + t.firstRunningAt) / 2) / 1000;
      if (seconds > 0) this.sample(this.runSamples, t.model, seconds);
      return;
    }
    if (t.startedBy === 'finish') {
      // It waited for a slot that a known finish freed: it started then.
      const seconds = (done - t.start) / 1000;
      if (seconds < run * 0.25) {
        // Done far too soon for a task that waited for a slot: it did not wait; more run at once.
        this.raiseConcurrency(this.concurrency + 1, false);
        return;
      }
      if (seconds > 0) this.sample(this.runSamples, t.model, seconds);
      return;
    }
    if (t.startedBy === 'created' && t.lastQueuedAt === null) {
      const seconds = (done - t.createdAt) / 1000;
      if (seconds > 0) this.sample(this.latencySamples, t.model, seconds);
    }
  }

  /** Unfinished tasks ahead of `t` in the queue that may still run at `at` (the slots they hold). */
  private holdersAhead(t: Tracked, at: number): number {
    let n = 0;
    for (const other of this.tasks.values()) {
      if (other === t || !this.before(other, t)) continue;
      if (isTerminal(other.status) ? (other.completedAt ?? 0) > at : other.end > at) n++;
    }
    return n;
  }

  private learnFromRunning(t: Tracked, at: number): void {
    // Everything ahead of it started (FIFO); those not finished run beside it.
    const together = 1 + this.holdersAhead(t, at);
    if (together > this.concurrency) this.raiseConcurrency(together, this.confirmed);
  }

  private learnFromQueued(t: Tracked, at: number): void {
    // Still waiting where the simulation had it wait for a slot: the slots are all in use (the probe's
    // answer). Waiting longer than predicted moves its start past `at`, and everything behind it (FIFO).
    if (t.startedBy !== 'created' && at < t.start) this.confirmed = true;
    // Still waiting past its predicted start, well after its creation (half a run: longer than the time
    // a free slot takes to pick a task up): every slot is held by a task ahead of it (FIFO). Those that
    // may still run then (not seen finished before `at`) are at most that many: fewer than assumed run
    // together (a lower setting, or a team's pool shared with others). Lowered a step at a time, and
    // probed again for one more slot, so that a wrong reading costs a poll, not the queue's timing. With
    // nothing ahead of it, a wait says nothing of the concurrency.
    const grace = Math.max(QUEUED_GRACE_MS, (this.runSeconds(t) * 1000) / 2);
    if (at >= t.start + POLL_LAG_MS && at - t.createdAt >= grace) {
      const mayRun = this.mayRunAhead(t, at);
      if (mayRun >= 1 && mayRun < this.concurrency) {
        this.concurrency = Math.max(mayRun, this.concurrency - 1);
        this.confirmed = false;
      }
    }
  }

  /** Tasks ahead of `t` that may be running at `at`: unfinished, or finished after `at`. */
  private mayRunAhead(t: Tracked, at: number): number {
    let n = 0;
    for (const other of this.tasks.values()) {
      if (other === t || !this.before(other, t)) continue;
      if (!isTerminal(other.status) || (other.completedAt ?? Infinity) > at) n++;
    }
    return n;
  }

  private raiseConcurrency(to: number, confirmed: boolean): void {
    if (to <= this.concurrency) return;
    this.concurrency = to;
    this.confirmed = confirmed;
  }

  // ---- the simulation ---------------------------------------------------------------------------------

  private before(a: Tracked, b: Tracked): boolean {
    return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.seq < b.seq);
  }

  /** Predicts every unfinished task's start and finish: FIFO over `concurrency` slots, corrected by polls. */
  private predict(): void {
    this.dirty = false;
    const order = [...this.tasks.values()].sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq);
    let oldestPending = Infinity;
    for (const t of order) if (!isTerminal(t.status)) oldestPending = Math.min(oldestPending, t.createdAt);
    const slots = new Array<number>(this.concurrency).fill(-Infinity);
    const slotByFinish = new Array<boolean>(this.concurrency).fill(false);
    let floor = -Infinity;
    let rank = 0;
    let lastStart = -Infinity;
    /** Per model, the predicted ends of tasks found unfinished past their prediction, by run time. */
    const lateAhead = new Map<string, Array<{ run: number; end: number }>>();
    this.pendingStarts = [];
    this.probeId = null;
    for (const t of order) {
      let slot = 0;
      for (let i = 1; i < slots.length; i++) if ((slots[i] ?? 0) < (slots[slot] ?? 0)) slot = i;
      const free = slots[slot] ?? -Infinity;
      if (isTerminal(t.status)) {
        if (t.completedAt === null) continue;
        if (t.completedAt < oldestPending - FORGET_AFTER_MS) {
          this.tasks.delete(t.id);
          continue;
        }
        slots[slot] = Math.max(free, t.completedAt);
        slotByFinish[slot] = true;
        continue;
      }
      const run = this.runSeconds(t) * 1000;
      const dispatch = this.latencySeconds(t, run / 1000) * 1000 - run;
      const created = t.createdAt + dispatch;
      let start = Math.max(created, free);
      t.startedBy = free > created ? (slotByFinish[slot] ? 'finish' : 'predicted') : 'created';
      if (t.lastQueuedAt !== null) floor = Math.max(floor, t.lastQueuedAt);
      if (floor > start) {
        start = floor;
        t.startedBy = 'observed';
      }
      if (t.firstRunningAt !== null && t.firstRunningAt < start) {
        start = t.firstRunningAt;
        t.startedBy = 'observed';
      }
      let end = start + run;
      if (t.lastUnfinishedAt !== null && end <= t.lastUnfinishedAt) {
        end = t.lastUnfinishedAt + this.lateStep(run, t.late);
      }
      // A task of the same model ahead in the queue, predicted to run no longer, was found unfinished
      // past its prediction: the run takes longer than predicted, and this one, started no sooner,
      // finishes no sooner. It is polled only after that one's next poll has answered (which moves it
      // again if that one is still running), instead of missing as that one did: a missed poll is a
      // turn of the budget that every later task waits for.
      for (const ahead of lateAhead.get(t.model) ?? [])
        if (ahead.run <= run) end = Math.max(end, ahead.end + POLL_LAG_MS);
      if (t.late > 0 && t.status === 'running') {
        const list = lateAhead.get(t.model) ?? [];
        const same = list.find((x) => x.run === run);
        if (same) same.end = Math.max(same.end, end);
        else lateAhead.set(t.model, [...list, { run, end }]);
      }
      t.start = start;
      t.end = end;
      t.probeAt = free > created ? Math.max(created + PROBE_DELAY_MS, (created + free) / 2) : null;
      t.rank = rank++;
      lastStart = Math.max(lastStart, start);
      this.pendingStarts.push(lastStart);
      slots[slot] = end;
      slotByFinish[slot] = false;
      // The head of the queue, while the concurrency is a guess: probed when it would have started with
      // one slot more.
      if (
        !this.confirmed &&
        this.probeId === null &&
        free > created &&
        !t.probed &&
        t.lastQueuedAt === null &&
        t.firstRunningAt === null
      ) {
        this.probeId = t.id;
      }
    }
  }

  private lateStep(runMs: number, late: number): number {
    const step = runMs * 0.2 * 2 ** Math.max(0, late - 1);
    return Math.min(LATE_STEP_MAX_MS, Math.max(LATE_STEP_MIN_MS, step));
  }

  /** How many unfinished tasks have started by `now`, by the prediction. */
  private startedBy(now: number): number {
    let lo = 0;
    let hi = this.pendingStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.pendingStarts[mid] ?? 0) <= now) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private probeAt(t: Tracked): number | null {
    return t.id === this.probeId ? t.probeAt : null;
  }

  private dueAt(t: Tracked, now: number): number {
    if (t.expedite) return now;
    let due = t.end + POLL_LAG_MS;
    const probe = this.probeAt(t);
    if (probe !== null) due = Math.min(due, probe);
    if (t.lastPollAt !== null) {
      const retry = t.failures > 0 ? Math.min(15_000, 1_000 * 2 ** t.failures) : MIN_POLL_GAP_MS;
      due = Math.max(due, t.lastPollAt + retry);
    }
    return due;
  }

  /** A first poll at its prediction leaves the reserve; corrections and probes may use it. */
  private usesReserve(t: Tracked): boolean {
    return t.polls > 0 || t.expedite || t.id === this.probeId;
  }

  // ---- handing out turns -----------------------------------------------------------------------------

  private cancelWaiter(waiter: Waiter): void {
    if (this.waiters.get(waiter.id) === waiter) this.waiters.delete(waiter.id);
    if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.reject(abortError());
    this.schedulePump();
  }

  /**
   * Something the forecasts show changed: the listeners hear it from the next pump, once for all the
   * changes of the moment (the answers of a burst of polls), after one new prediction.
   */
  private changed(): void {
    this.tell = true;
    this.schedulePump();
  }

  private schedulePump(): void {
    if (this.pumpQueued || this.stopped) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private stopTimer(): void {
    if (this.timer === undefined) return;
    this.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** The active set at `now` (null when unchanged), and when a task next comes within the lead. */
  private activeNow(now: number): { ids: readonly string[] | null; wake: number } {
    const due: Array<{ id: string; at: number }> = [];
    let wake = Infinity;
    for (const t of this.tasks.values()) {
      if (isTerminal(t.status)) continue;
      const at = t.inFlight ? -Infinity : this.dueAt(t, now);
      if (at <= now + ACTIVE_LEAD_MS) due.push({ id: t.id, at });
      else wake = Math.min(wake, at - ACTIVE_LEAD_MS);
    }
    due.sort((a, b) => a.at - b.at);
    const ids = due.slice(0, ACTIVE_MAX).map((d) => d.id);
    // The ones left over join as soon as a place frees up (a poll's answer pumps again).
    const before = new Set(this.activeIds);
    const same = ids.length === before.size && ids.every((id) => before.has(id));
    return { ids: same ? null : ids, wake };
  }

  private pump(): void {
    if (this.stopped) return;
    this.stopTimer();
    if (this.dirty) this.predict();
    const now = this.now();
    let wake = Infinity;
    const ready: Array<{ t: Tracked; due: number; waiter: Waiter }> = [];
    for (const waiter of this.waiters.values()) {
      const t = this.tasks.get(waiter.id);
      if (!t) continue;
      const due = this.dueAt(t, now);
      if (due <= now) ready.push({ t, due, waiter });
      else wake = Math.min(wake, due);
    }
    // Earliest due first; ties in queue order.
    ready.sort((a, b) => a.due - b.due || a.t.createdAt - b.t.createdAt || a.t.seq - b.t.seq);
    const reserve = this.reserve;
    let granted = false;
    for (const { t, waiter } of ready) {
      const at = this.budget.nextFreeAt(now, this.usesReserve(t) ? 0 : reserve);
      if (at > now) {
        wake = Math.min(wake, at);
        continue;
      }
      this.budget.take(now);
      this.waiters.delete(waiter.id);
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      if (t.id === this.probeId) t.probed = true;
      t.polls += 1;
      t.lastPollAt = now;
      t.inFlight = true;
      granted = true;
      waiter.resolve();
    }
    const next = this.activeNow(now);
    if (next.ids !== null) this.activeIds = next.ids;
    wake = Math.min(wake, next.wake);
    if (granted || next.ids !== null || this.tell) {
      this.tell = false;
      this.listeners.notify();
    }
    if (wake < Infinity) {
      this.timer = this.setTimer(
        () => {
          this.timer = undefined;
          this.pump();
        },
        Math.max(0, wake - now),
      );
    }
  }
}

/**
 * "queued, about 4 ahead", "running, ~3s left", "checking": what the studio knows of a task. Beside a
 * status badge that already says the same word (`besides`), only the rest: "about 4 ahead", "~3s left";
 * beside a badge of another word, the predicted phase as likely: "likely running, ~3s left".
 */
export function forecastText(
  forecast: Forecast | null,
  { besides }: { besides?: string } = {},
): string | null {
  if (!forecast) return null;
  if (forecast.phase === 'checking') return 'checking';
  let detail: string;
  if (forecast.phase === 'queued') {
    detail = forecast.ahead > 0 ? `about ${forecast.ahead} ahead` : 'next to start';
  } else {
    const seconds = Math.max(1, Math.ceil(forecast.finishesInMs / 1000));
    detail = seconds < 90 ? `~${seconds}s left` : `~${Math.round(seconds / 60)} min left`;
  }
  if (besides === forecast.phase) return detail;
  // Beside a badge of the service's last word, a later phase the studio only predicts is said as likely
  // ("queued" and then "running, ~3s left" read as two answers that disagree).
  return besides ? `likely ${forecast.phase}, ${detail}` : `${forecast.phase}, ${detail}`;
}

// ---- the schedules of open connections, for views that show a task's forecast ----------------------

const active = new Set<PollSchedule>();
const registryListeners = new Set<() => void>();

/** Makes a schedule's forecasts available to taskForecast(); returns the undo. */
export function registerSchedule(schedule: PollSchedule): () => void {
  active.add(schedule);
  for (const l of registryListeners) l();
  return () => {
    active.delete(schedule);
    for (const l of registryListeners) l();
  };
}

/** Listens to every registered schedule (and to schedules coming and going). */
export function subscribeForecasts(listener: () => void): () => void {
  registryListeners.add(listener);
  const offs = new Map<PollSchedule, () => void>();
  const attach = () => {
    for (const s of active) if (!offs.has(s)) offs.set(s, s.subscribe(listener));
    for (const [s, off] of offs) {
      if (active.has(s)) continue;
      off();
      offs.delete(s);
    }
  };
  attach();
  const onRegistry = () => attach();
  registryListeners.add(onRegistry);
  return () => {
    registryListeners.delete(listener);
    registryListeners.delete(onRegistry);
    for (const off of offs.values()) off();
  };
}

/** The forecast of a task by any open connection's schedule. */
export function taskForecast(taskId: string, now: number = Date.now()): Forecast | null {
  for (const s of active) if (s.has(taskId)) return s.forecast(taskId, now);
  return null;
}
