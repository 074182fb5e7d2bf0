import { abortError } from '../api/errors';

// One budget for every GET /tasks/{id} poll of a connection (PRODUCT 3: "All polling shares one budget
// under the GET /tasks limit from GET /me (60/min when unknown): with 100 tasks in flight it still sends
// no request that earns a 429"). Each poll asks for a turn with the time it is due; turns are handed out
// earliest due time first (ties first come, first served), never before the due time, never during a
// pause after a 429, and never more than `perMinute` in any sliding 60 s window. The service counts in
// fixed windows (spec 8); any fixed 60 s window lies inside some sliding one, so the sliding count is the
// stricter. A small margin absorbs the transit time between our clock and the server's.
// The API client's RateLimiter still guards GET /tasks/{id} as a whole; this budget decides which task
// gets the scarce polls, and when, so polls do not pile up in the limiter's queue.

export const POLL_WINDOW_MS = 60_000;
/** spec 8: GET /tasks/{id} is "60 in another place"; GET /me limits.tasksPerMin replaces it when known. */
export const DEFAULT_POLLS_PER_MINUTE = 60;
export const DEFAULT_POLL_MARGIN_MS = 1_000;

export type TimerHandle = ReturnType<typeof setTimeout>;
export type SetTimer = (fn: () => void, ms: number) => TimerHandle;
export type ClearTimer = (handle: TimerHandle) => void;

// Looked up at call time so vi.useFakeTimers() applies to budgets built before it.
const defaultSetTimer: SetTimer = (fn, ms) => setTimeout(fn, ms);
const defaultClearTimer: ClearTimer = (handle) => clearTimeout(handle);

export interface PollBudgetOptions {
  /** Polls allowed in any 60 s window; default 60 (spec 8). */
  perMinute?: number;
  now?: () => number;
  setTimer?: SetTimer;
  clearTimer?: ClearTimer;
  /** Extra wait past the 60 s window before a send stops counting; default 1 s. */
  marginMs?: number;
}

interface Waiter {
  notBefore: number;
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

const validLimit = (value: number): number | undefined =>
  Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;

export class PollBudget {
  private readonly now: () => number;
  private readonly setTimer: SetTimer;
  private readonly clearTimer: ClearTimer;
  private readonly marginMs: number;
  private limit: number;
  /** Times turns were handed out that may still be in the window, oldest first. */
  private readonly sent: number[] = [];
  /** Waiting polls, sorted by (notBefore, seq). */
  private readonly queue: Waiter[] = [];
  private seq = 0;
  private pausedUntil = 0;
  private timer: TimerHandle | undefined;

  constructor(options: PollBudgetOptions = {}) {
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? defaultSetTimer;
    this.clearTimer = options.clearTimer ?? defaultClearTimer;
    this.marginMs = Math.max(0, options.marginMs ?? DEFAULT_POLL_MARGIN_MS);
    this.limit = validLimit(options.perMinute ?? DEFAULT_POLLS_PER_MINUTE) ?? DEFAULT_POLLS_PER_MINUTE;
  }

  /**
   * Resolves when one poll may be sent (and counts it as sent): not before `notBefore` (ms since epoch),
   * earliest `notBefore` first, within the per-minute limit, not during a pause. An abort (the task
   * reached a terminal state, its card went away) rejects at once with an `aborted` ApiError and gives
   * the place to the next poll.
   */
  acquire(notBefore: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        notBefore: Number.isFinite(notBefore) ? notBefore : 0,
        seq: this.seq++,
        resolve,
        reject,
        signal,
      };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortError());
          // The head may have changed: let the next waiter go, or re-time the wake-up.
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.insert(waiter);
      this.pump();
    });
  }

  /** After a 429: no poll goes out for `seconds` (the Retry-After). Longer pauses win over shorter ones. */
  pause(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + seconds * 1000);
    this.pump();
  }

  /** The key's GET /tasks budget from GET /me (limits.tasksPerMin). Values below 1 are ignored. */
  setLimit(perMinute: number): void {
    const limit = validLimit(perMinute);
    if (limit === undefined) return;
    this.limit = limit;
    this.pump();
  }

  get perMinute(): number {
    return this.limit;
  }

  /** How many polls are waiting for their turn. */
  get size(): number {
    return this.queue.length;
  }

  /** Rejects every waiting poll (aborted) and stops the timer: the connection is going away. */
  dispose(): void {
    this.stopTimer();
    for (const waiter of this.queue.splice(0)) {
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(abortError());
    }
  }

  private insert(waiter: Waiter): void {
    // Binary search for the first waiter due later; equal due times keep arrival order.
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.queue[mid];
      if (other && other.notBefore <= waiter.notBefore) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, waiter);
  }

  /** The earliest time a poll may go, ignoring due times: after the pause, with a free slot in the window. */
  private freeAt(now: number): number {
    const span = POLL_WINDOW_MS + this.marginMs;
    while (this.sent.length > 0 && (this.sent[0] ?? 0) + span <= now) this.sent.shift();
    const slot =
      this.sent.length < this.limit ? now : (this.sent[this.sent.length - this.limit] ?? now) + span;
    return Math.max(slot, this.pausedUntil);
  }

  private stopTimer(): void {
    if (this.timer === undefined) return;
    this.clearTimer(this.timer);
    this.timer = undefined;
  }

  private pump(): void {
    this.stopTimer();
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      const now = this.now();
      const at = Math.max(head.notBefore, this.freeAt(now));
      if (at > now) {
        this.timer = this.setTimer(() => {
          this.timer = undefined;
          this.pump();
        }, at - now);
        return;
      }
      this.queue.shift();
      if (head.onAbort) head.signal?.removeEventListener('abort', head.onAbort);
      this.sent.push(now);
      head.resolve();
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// When each task is polled

/** The first poll waits for the quote's estimate plus 10 %, plus this slack for the service to settle. */
export const FIRST_POLL_FACTOR = 1.1;
export const FIRST_POLL_SLACK_MS = 250;
/** The first poll of a task without an estimate (estimatedSeconds is null with no history, spec 2). */
export const FIRST_POLL_NO_ESTIMATE_MS = 2_000;
/** Waits after the 1st, 2nd, 3rd and 4th poll; after that, STEADY_POLL_MS. */
export const POLL_BACKOFF_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];
export const STEADY_POLL_MS = 15_000;

export interface PollTiming {
  /** ms since epoch the task was created (the service's createdAt, else the submit time). */
  createdAt: number;
  /** The quote's estimatedSeconds at submit time; null or undefined when there was none. */
  estimatedSeconds?: number | null;
}

export interface PollProgress {
  /** Polls already sent for this task. */
  polls: number;
  /** When the last of them was sent (ms since epoch); null before the first. */
  lastPollAt: number | null;
}

/**
 * When the next poll of a task is due (ms since epoch; a time in the past means "now").
 *
 * Schedule (PRODUCT 3: "The first poll of a task is timed from the quote's estimatedSeconds"):
 * - 1st poll: createdAt + estimatedSeconds x 1.1 + 250 ms; without an estimate, createdAt + 2 s.
 * - then from the previous poll: +1 s, +2 s, +4 s, +8 s, and every 15 s after that.
 *
 * estimatedSeconds is the median of recent runs (spec 2), so about half the tasks are done by the first
 * poll and most of the rest within the next one or two: under 3 polls per task on average when the
 * estimate is right, and a task whose estimate is far off settles at 4 polls a minute, so 60 polls a
 * minute still serve about 15 such tasks at full speed. A createdAt ahead of `now` (the service's clock
 * running ahead of ours) is counted from `now`, so skew never postpones a poll.
 */
export function nextPollAt(task: PollTiming, progress: PollProgress, now: number): number {
  if (progress.polls <= 0) {
    const start = Math.min(task.createdAt, now);
    const estimate = task.estimatedSeconds;
    if (estimate === null || estimate === undefined || !Number.isFinite(estimate) || estimate < 0) {
      return start + FIRST_POLL_NO_ESTIMATE_MS;
    }
    return start + estimate * 1000 * FIRST_POLL_FACTOR + FIRST_POLL_SLACK_MS;
  }
  const last = Math.min(progress.lastPollAt ?? now, now);
  return last + (POLL_BACKOFF_MS[progress.polls - 1] ?? STEADY_POLL_MS);
}
