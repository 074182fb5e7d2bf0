import { isTerminal, type TaskStatus } from '../../../contract/task';
import { RunTimes } from './poll-run-times';

// The poll schedule's forecast (poll-schedule.ts holds the why): a simulation of the key's first-in,
// first-out queue over `concurrency` slots, giving every unfinished task a predicted start and finish,
// corrected by what each poll saw, and the concurrency and run times learned from those answers. It
// says when each task's poll is due; handing out the turns under the budget is the schedule's job.

/**
 * A poll goes this long after the predicted finish (clock and transit between us and the service).
 * @internal
 */
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

/** What the schedule learned of a connection: kept across reloads (poll-learning.ts). */
export interface LearnedState {
  concurrency: number;
  /** Whether the concurrency was seen at its limit (a task waited behind it): no probes then. */
  confirmed: boolean;
  /** Recent run times and creation-to-finish times, in seconds, by model ('' for all). */
  runSamples: Record<string, number[]>;
  latencySamples: Record<string, number[]>;
}

export interface Tracked {
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

const validEstimate = (s: number | null | undefined): number | null =>
  typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : null;

export class QueueForecast {
  private readonly tasks = new Map<string, Tracked>();
  readonly runTimes: RunTimes;
  private seq = 0;
  /** The tasks changed since the last prediction. */
  dirty = true;
  /** Predicted starts of the unfinished tasks in queue order, never decreasing (for "N ahead"). */
  private pendingStarts: number[] = [];
  probeId: string | null = null;
  /** How many tasks run at once, as learned; `confirmed` once a task was seen waiting behind them. */
  concurrency: number;
  confirmed: boolean;

  constructor(
    private readonly now: () => number,
    {
      concurrency,
      confirmed,
      learned,
    }: { concurrency?: number; confirmed?: boolean; learned?: LearnedState | null },
  ) {
    this.concurrency = Math.max(1, Math.floor(concurrency ?? DEFAULT_CONCURRENCY));
    this.confirmed = confirmed ?? false;
    if (learned) {
      this.concurrency = Math.max(1, Math.floor(learned.concurrency));
      this.confirmed = learned.confirmed;
    }
    this.runTimes = new RunTimes(learned);
  }

  // ---- what the history holds ------------------------------------------------------------------

  /** Every task of the connection: each taken in, and the ones not among them leave. */
  sync(tasks: readonly ScheduleTask[], now: number): void {
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
  }

  /** One task of the history, as sync() and update() take it in. */
  take(task: ScheduleTask, now: number): void {
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

  /** A task asked a turn for: followed from now on unless it is already, or finished. */
  follow(task: ScheduleTask): void {
    if (!this.tasks.has(task.taskId) && !isTerminal(task.status)) {
      this.tasks.set(task.taskId, this.track(task));
      this.dirty = true;
    }
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

  /** The unfinished task followed under this id, if any. */
  pending(taskId: string): Tracked | undefined {
    const t = this.tasks.get(taskId);
    return t && !isTerminal(t.status) ? t : undefined;
  }

  /** The task followed under this id, finished or not. */
  tracked(taskId: string): Tracked | undefined {
    return this.tasks.get(taskId);
  }

  has(taskId: string): boolean {
    return this.pending(taskId) !== undefined;
  }

  get pendingCount(): number {
    let n = 0;
    for (const t of this.tasks.values()) if (!isTerminal(t.status)) n++;
    return n;
  }

  // ---- what polls saw --------------------------------------------------------------------------------

  /** A turn went out for `t` at `now`. */
  sent(t: Tracked, now: number): void {
    if (t.id === this.probeId) t.probed = true;
    t.polls += 1;
    t.lastPollAt = now;
    t.inFlight = true;
  }

  /**
   * What the poll of `taskId`, sent at `sentAt`, found: 'unknown' (404 unknown_task) and it leaves,
   * 'learned' and the forecast took it in, or null for a task it does not follow.
   */
  observe(taskId: string, answer: PollAnswer | 'unknown', sentAt?: number): 'unknown' | 'learned' | null {
    const t = this.tasks.get(taskId);
    if (!t) return null;
    const at = sentAt ?? t.lastPollAt ?? this.now();
    t.inFlight = false;
    t.expedite = false;
    t.failures = 0;
    if (this.dirty) this.predict();
    if (answer === 'unknown') {
      this.tasks.delete(taskId);
      this.dirty = true;
      return 'unknown';
    }
    const firstPoll = t.polls === 1 && t.id !== this.probeId;
    if (answer.createdAt && Number.isFinite(answer.createdAt)) t.createdAt = answer.createdAt;
    const predictedEnd = t.end;
    if (isTerminal(answer.status)) {
      t.status = answer.status;
      t.completedAt = answer.completedAt ?? at;
      if (firstPoll) this.runTimes.learnMiss(false);
      this.learnFromFinish(t);
    } else {
      t.status = answer.status;
      t.lastUnfinishedAt = at;
      if (firstPoll) this.runTimes.learnMiss(true);
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
    return 'learned';
  }

  /** No usable answer: a failure makes the next try wait longer; an abort does not. */
  failed(taskId: string, failure: boolean): boolean {
    const t = this.tasks.get(taskId);
    if (!t) return false;
    t.inFlight = false;
    if (failure) t.failures += 1;
    return true;
  }

  /** A poll refused by a 429 does not count as a poll of its task. */
  unsent(taskId: string): void {
    const t = this.tasks.get(taskId);
    if (t) {
      t.inFlight = false;
      t.polls = Math.max(0, t.polls - 1);
    }
  }

  /** Every unfinished task is due at once. */
  expediteAll(): void {
    for (const t of this.tasks.values()) {
      if (!isTerminal(t.status)) {
        t.expedite = true;
        t.failures = 0;
      }
    }
  }

  learnedState(): LearnedState {
    return { concurrency: this.concurrency, confirmed: this.confirmed, ...this.runTimes.samples() };
  }

  // ---- what the forecast says ------------------------------------------------------------------------

  /** The forecast's view of one task, at `now`; null when it does not follow the task. */
  forecast(taskId: string, now: number): Forecast | null {
    const t = this.pending(taskId);
    if (!t) return null;
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
  nextPollAt(taskId: string, now: number): number | null {
    const t = this.pending(taskId);
    if (!t) return null;
    if (this.dirty) this.predict();
    return this.dueAt(t, now);
  }

  /** The predicted finish of a task (ms since epoch), or null. */
  predictedFinish(taskId: string): number | null {
    const t = this.pending(taskId);
    if (!t) return null;
    if (this.dirty) this.predict();
    return t.end;
  }

  /** Unfinished tasks still queued or running at `at` by the forecast (`only`: some of them). */
  busyAt(at: number, only?: (taskId: string) => boolean): number {
    if (this.dirty) this.predict();
    let n = 0;
    for (const t of this.tasks.values()) {
      if (!isTerminal(t.status) && t.end > at && (!only || only(t.id))) n++;
    }
    return n;
  }

  /** The unfinished tasks with when each is due (-Infinity while its poll is under way). */
  *dueTimes(now: number): Generator<{ id: string; at: number }> {
    for (const t of this.tasks.values()) {
      if (isTerminal(t.status)) continue;
      yield { id: t.id, at: t.inFlight ? -Infinity : this.dueAt(t, now) };
    }
  }

  /** The learned run time of a model's task (seconds), or null before any was seen. */
  learnedRunSeconds(model = ''): number | null {
    return this.runTimes.run(model);
  }

  /** Creation to start with a free slot (ms): learned creation-to-finish less the learned run. */
  dispatchMs(model = ''): number | null {
    const latency = this.runTimes.latency(model);
    const run = this.learnedRunSeconds(model);
    return latency === null || run === null ? null : Math.max(0, Math.round((latency - run) * 1000));
  }

  dueAt(t: Tracked, now: number): number {
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
  usesReserve(t: Tracked): boolean {
    return t.polls > 0 || t.expedite || t.id === this.probeId;
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
    const latency = this.runTimes.latency(t.model);
    const guess = t.estimate ?? latency ?? this.learnedRunSeconds('') ?? DEFAULT_RUN_SECONDS;
    return Math.max(guess, latency ?? 0);
  }

  /** From creation to finish with a free slot: the learned latency, else the estimate, never under a run. */
  private latencySeconds(t: Tracked, run: number): number {
    const learned = this.runTimes.latency(t.model);
    return Math.max(run, learned ?? t.estimate ?? run);
  }

  private learnFromFinish(t: Tracked): void {
    const done = t.completedAt;
    if (done === null) return;
    const run = this.runSeconds(t);
    // Seen queued, then running, close together: the start is known to within that gap.
    if (t.lastQueuedAt !== null && t.firstRunningAt !== null && t.firstRunningAt - t.lastQueuedAt <= 1_500) {
      const seconds = (done - (t.lastQueuedAt + t.firstRunningAt) / 2) / 1000;
      if (seconds > 0) this.runTimes.sampleRun(t.model, seconds);
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
      if (seconds > 0) this.runTimes.sampleRun(t.model, seconds);
      return;
    }
    if (t.startedBy === 'created' && t.lastQueuedAt === null) {
      const seconds = (done - t.createdAt) / 1000;
      if (seconds > 0) this.runTimes.sampleLatency(t.model, seconds);
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
  predict(): void {
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
}
