import { abortError } from '../../api/errors';
import { Listeners } from '../../lib/store';

// One budget for every GET /tasks/{id} poll of a connection (product-notes §3: "All polling shares one budget
// under the GET /tasks limit from GET /me (60/min when unknown): with 100 tasks in flight it still sends
// no request that earns a 429"). Each poll asks for a turn with the time it is due; turns are handed out
// earliest due time first (ties first come, first served), never before the due time, never during a
// pause after a 429, and never more than `perMinute` in any sliding 60 s window. The service counts in
// fixed windows (api-notes §8); any fixed 60 s window lies inside some sliding one, so the sliding count is the
// stricter. A small margin absorbs the transit time between our clock and the server's.
// The API client's RateLimiter still guards GET /tasks/{id} as a whole; this budget decides which task
// gets the scarce polls, and when, so polls do not pile up in the limiter's queue. The poll schedule
// (poll-schedule.ts) hands out its own turns through nextFreeAt() and take(), keeping a reserve.

/** @internal */
export const POLL_WINDOW_MS = 60_000;
/** api-notes §8: GET /tasks/{id} is "60 in another place"; GET /me limits.tasksPerMin replaces it when known. */
const DEFAULT_POLLS_PER_MINUTE = 60;
const DEFAULT_POLL_MARGIN_MS = 1_000;

export type TimerHandle = ReturnType<typeof setTimeout>;
export type SetTimer = (fn: () => void, ms: number) => TimerHandle;
export type ClearTimer = (handle: TimerHandle) => void;

// Looked up at call time so vi.useFakeTimers() applies to budgets built before it.
const defaultSetTimer: SetTimer = (fn, ms) => setTimeout(fn, ms);
const defaultClearTimer: ClearTimer = (handle) => clearTimeout(handle);

export interface PollBudgetOptions {
  /** Polls allowed in any 60 s window; default 60 (api-notes §8). */
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
  private readonly listeners = new Listeners();

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
    this.listeners.notify();
  }

  /** Called when a pause or the limit changes (the poll schedule re-times its wake-up). */
  onChange(listener: () => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** The key's GET /tasks budget from GET /me (limits.tasksPerMin). Values below 1 are ignored. */
  setLimit(perMinute: number): void {
    const limit = validLimit(perMinute);
    if (limit === undefined) return;
    this.limit = limit;
    this.pump();
    this.listeners.notify();
  }

  get perMinute(): number {
    return this.limit;
  }

  /**
   * The earliest time (ms since epoch) one more poll may go while leaving `reserve` of the window's
   * turns unused: after any pause, with a free slot in the sliding window. The poll schedule
   * (poll-schedule.ts) asks this for its planned polls with a reserve, and for corrections without.
   */
  nextFreeAt(now: number = this.now(), reserve = 0): number {
    const usable = Math.max(1, this.limit - Math.max(0, Math.floor(reserve)));
    return this.freeAt(now, usable);
  }

  /** Counts one poll sent now outside acquire() (the poll schedule hands out its own turns). */
  take(now: number = this.now()): void {
    this.sent.push(now);
  }

  /** Until when a 429 holds every poll (ms since epoch; in the past when there is no pause). */
  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  /** Polls counted in the current sliding window. */
  sentInWindow(now: number = this.now()): number {
    this.freeAt(now, this.limit);
    return this.sent.length;
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
  private freeAt(now: number, usable: number = this.limit): number {
    const span = POLL_WINDOW_MS + this.marginMs;
    while (this.sent.length > 0 && (this.sent[0] ?? 0) + span <= now) this.sent.shift();
    const slot = this.sent.length < usable ? now : (this.sent[this.sent.length - usable] ?? now) + span;
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
