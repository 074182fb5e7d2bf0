import { abortError } from '../../api/errors';
import type { ClearTimer, PollBudget, SetTimer, TimerHandle } from './poll-budget';
import { Listeners } from '../../lib/store';
import {
  QueueForecast,
  type Forecast,
  type LearnedState,
  type ScheduleTask,
  type PollAnswer,
  type Tracked,
} from './poll-forecast';

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

// This file hands out the turns (the budget, the waiting polls, the timer, the active set); the
// simulation and what it learns are poll-forecast.ts and poll-run-times.ts.

export { DEFAULT_CONCURRENCY } from './poll-forecast';
export type { Forecast, LearnedState, PollAnswer, ScheduleTask } from './poll-forecast';
export { forecastText } from './forecast-text';
export { registerSchedule, subscribeForecasts, taskForecast } from './forecast-registry';

const MIN_RESERVE = 2;
/**
 * The poller keeps a query only for tasks whose poll is due within this lead (or under way), at most
 * ACTIVE_MAX of them: a thousand queued tasks are a thousand predictions, not a thousand observers.
 */
const ACTIVE_LEAD_MS = 2_000;
const ACTIVE_MAX = 30;
const MAX_RESERVE_SHARE = 0.25;

interface Waiter {
  id: string;
  resolve: () => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
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

export class PollSchedule {
  private readonly budget: PollBudget;
  private readonly now: () => number;
  private readonly setTimer: SetTimer;
  private readonly clearTimer: ClearTimer;
  private readonly queue: QueueForecast;
  private readonly waiters = new Map<string, Waiter>();
  private readonly listeners = new Listeners();
  private readonly onLearn: ((state: LearnedState) => void) | undefined;
  private pumpQueued = false;
  /** The listeners are to hear of a change at the next pump. */
  private tell = false;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private offBudget: (() => void) | null = null;
  private activeIds: readonly string[] = [];

  constructor(options: PollScheduleOptions) {
    this.budget = options.budget;
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? defaultSetTimer;
    this.clearTimer = options.clearTimer ?? defaultClearTimer;
    this.onLearn = options.onLearn;
    this.queue = new QueueForecast(this.now, options);
    this.start();
  }

  /** How many tasks run at once, as learned; `confirmed` once a task was seen waiting behind them. */
  get concurrency(): number {
    return this.queue.concurrency;
  }
  set concurrency(value: number) {
    this.queue.concurrency = value;
  }
  get confirmed(): boolean {
    return this.queue.confirmed;
  }
  set confirmed(value: boolean) {
    this.queue.confirmed = value;
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
    this.queue.sync(tasks, this.now());
    this.settle();
  }

  /**
   * The history's tasks that changed since the last sync() or update() (new submits, other tabs'
   * writes, answers): as sync() for these, without reading the whole history; the others stay as they
   * are (a finished one leaves once it no longer anchors the queue).
   */
  update(tasks: readonly ScheduleTask[]): void {
    const now = this.now();
    for (const task of tasks) this.queue.take(task, now);
    this.settle();
  }

  /** Turns waiting for tasks that left or finished are called off; a changed queue is planned again. */
  private settle(): void {
    for (const waiter of [...this.waiters.values()]) {
      if (!this.queue.has(waiter.id)) this.cancelWaiter(waiter);
    }
    if (this.queue.dirty) this.schedulePump();
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
    this.queue.follow(task);
    if (!this.queue.has(taskId)) return Promise.reject(abortError());
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
    const outcome = this.queue.observe(taskId, answer, sentAt);
    if (outcome === null) return;
    if (outcome === 'learned') this.onLearn?.(this.learnedState());
    this.changed();
  }

  /** The concurrency and run times learned so far (for the next session of this connection). */
  learnedState(): LearnedState {
    return this.queue.learnedState();
  }

  /**
   * The poll got no usable answer: after a failure (network, 5xx after the client's retries) the task
   * is tried again after a growing wait; after an abort (`{ failure: false }`), at its usual time.
   */
  failed(taskId: string, { failure = true }: { failure?: boolean } = {}): void {
    if (this.queue.failed(taskId, failure)) this.changed();
  }

  /** A 429: every poll waits out the Retry-After (api-notes §7, §8); the poll that got it is due again after. */
  rateLimited(taskId: string | null, retryAfterSeconds: number | undefined): void {
    this.budget.pause(retryAfterSeconds ?? 60);
    if (taskId) this.queue.unsent(taskId);
    this.changed();
  }

  /** The service answers again after an outage: every unfinished task is polled at once (in the budget). */
  expediteAll(): void {
    this.queue.expediteAll();
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
    return this.queue.forecast(taskId, now);
  }

  /** When the next poll of a task is due (ms since epoch), or null when it is not followed. */
  nextPollAt(taskId: string): number | null {
    return this.queue.nextPollAt(taskId, this.now());
  }

  /** The predicted finish of a task (ms since epoch), or null. */
  predictedFinish(taskId: string): number | null {
    return this.queue.predictedFinish(taskId);
  }

  /**
   * How many unfinished tasks the forecast still has queued or running at `at`: the queue sends a held
   * task when this falls under the concurrency (docs/queue.md). `only` counts some of them (this device's).
   */
  busyAt(at: number, only?: (taskId: string) => boolean): number {
    return this.queue.busyAt(at, only);
  }

  /** Turns of the budget's window that first polls leave for corrections. */
  get reserve(): number {
    const limit = this.budget.perMinute;
    const max = Math.max(MIN_RESERVE, Math.ceil(limit * MAX_RESERVE_SHARE));
    const share = Math.ceil(limit * this.queue.runTimes.missRate);
    return Math.min(Math.max(MIN_RESERVE, share), max, Math.max(0, limit - 1));
  }

  /**
   * How long the service takes from a task's creation to its start when a slot is free (its dispatch), ms:
   * the learned creation-to-finish time of a task that found a slot free, less the learned run, for the
   * model (any model's with none given). Null until both are learned. The queue sends a held task this
   * much earlier, so it starts as the slot frees rather than a dispatch later (docs/queue.md).
   */
  dispatchMs(model = ''): number | null {
    return this.queue.dispatchMs(model);
  }

  /** The learned run time of a model's task (seconds), or null before any was seen. */
  learnedRunSeconds(model = ''): number | null {
    return this.queue.learnedRunSeconds(model);
  }

  get pendingCount(): number {
    return this.queue.pendingCount;
  }

  has(taskId: string): boolean {
    return this.queue.has(taskId);
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
    for (const { id, at } of this.queue.dueTimes(now)) {
      if (at <= now + ACTIVE_LEAD_MS) due.push({ id, at });
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
    if (this.queue.dirty) this.queue.predict();
    const now = this.now();
    let wake = Infinity;
    const ready: Array<{ t: Tracked; due: number; waiter: Waiter }> = [];
    for (const waiter of this.waiters.values()) {
      const t = this.queue.tracked(waiter.id);
      if (!t) continue;
      const due = this.queue.dueAt(t, now);
      if (due <= now) ready.push({ t, due, waiter });
      else wake = Math.min(wake, due);
    }
    // Earliest due first; ties in queue order.
    ready.sort((a, b) => a.due - b.due || a.t.createdAt - b.t.createdAt || a.t.seq - b.t.seq);
    const reserve = this.reserve;
    let granted = false;
    for (const { t, waiter } of ready) {
      const at = this.budget.nextFreeAt(now, this.queue.usesReserve(t) ? 0 : reserve);
      if (at > now) {
        wake = Math.min(wake, at);
        continue;
      }
      this.budget.take(now);
      this.waiters.delete(waiter.id);
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.queue.sent(t, now);
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
