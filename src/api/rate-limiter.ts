import { abortError } from './errors';
import type { Me } from '../../contract/me';
import { RATE_LIMITS, RATE_WINDOW_MS, type EndpointGroup } from '../../contract/rate-limits';

// Keeps every endpoint group under its api-notes §8 per-minute limit (contract/rate-limits.ts, the figures
// the sandbox enforces) so the studio never earns a 429 by itself (product-notes §3: "with 100 tasks in
// flight it still sends no request that earns a 429").
// Each group has a sliding 60 s window of send times: a request may go when fewer than `limit` sends
// happened in the window. The service counts in fixed windows opened by the first request (see
// sandbox/README); any fixed 60 s window is inside some sliding one, so the sliding count is the
// stricter of the two. A small margin absorbs the transit time between our clock and the server's.
// Waiters are served first come, first served per group.

export type { EndpointGroup };
/** The window the limits count in (api-notes §8), for callers that bound a wait by it. */
export const WINDOW_MS = RATE_WINDOW_MS;

const DEFAULT_MARGIN_MS = 1_000;

/** Schedules fn after ms; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

// Looked up at call time so vi.useFakeTimers() applies to limiters built before it.
const defaultSetTimer: SetTimer = (fn, ms) => {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
};

export interface RateLimiterOptions {
  now?: () => number;
  setTimer?: SetTimer;
  limits?: Partial<Record<EndpointGroup, number | null>>;
  /** Extra wait past the 60 s window before a slot counts as free; default 1 s. */
  marginMs?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface GroupState {
  /** Send times in the window, oldest first. */
  sent: number[];
  pausedUntil: number;
  queue: Waiter[];
  cancelTimer?: () => void;
}

export class RateLimiter {
  private readonly now: () => number;
  private readonly setTimer: SetTimer;
  private readonly marginMs: number;
  private readonly limits: Record<EndpointGroup, number | null>;
  private readonly groups = new Map<EndpointGroup, GroupState>();

  constructor(options: RateLimiterOptions = {}) {
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? defaultSetTimer;
    this.marginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
    this.limits = { ...RATE_LIMITS, ...options.limits };
  }

  /** Resolves when a request of this group may be sent, and counts it as sent. Rejects (aborted) on abort. */
  acquire(group: EndpointGroup, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    const state = this.state(group);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = state.queue.indexOf(waiter);
          if (i >= 0) state.queue.splice(i, 1);
          reject(abortError());
          // The head may have changed: let the next waiter go if it can.
          this.pump(group);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      state.queue.push(waiter);
      this.pump(group);
    });
  }

  /** After a 429: hold every request of the group for `seconds` (the Retry-After). */
  pause(group: EndpointGroup, seconds: number): void {
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    const state = this.state(group);
    state.pausedUntil = Math.max(state.pausedUntil, this.now() + seconds * 1000);
    this.pump(group);
  }

  /**
   * The key's own limits from GET /me (api-notes §8). tasksPerMin governs POST /tasks and, as product-notes §3 reads
   * it, the GET /tasks/{id} polling budget too; uploadsPerMin POST /uploads; uploadPollPerMin
   * GET /uploads/{id}. Values that are not positive numbers are ignored.
   */
  setLimits(limits: Partial<Me['limits']>): void {
    const apply = (group: EndpointGroup, value: number | undefined) => {
      if (value === undefined || !Number.isFinite(value) || value <= 0) return;
      this.limits[group] = Math.floor(value);
      this.pump(group);
    };
    apply('tasks.create', limits.tasksPerMin);
    apply('tasks.get', limits.tasksPerMin);
    apply('uploads.create', limits.uploadsPerMin);
    apply('uploads.get', limits.uploadPollPerMin);
  }

  limitOf(group: EndpointGroup): number | null {
    return this.limits[group];
  }

  /** How long a request of this group would wait if asked now (0 = at once), ignoring queued waiters. */
  waitMs(group: EndpointGroup): number {
    const state = this.state(group);
    const now = this.now();
    const span = RATE_WINDOW_MS + this.marginMs;
    while (state.sent.length > 0 && (state.sent[0] ?? 0) + span <= now) state.sent.shift();
    const paused = Math.max(0, state.pausedUntil - now);
    const limit = this.limits[group];
    if (limit === null || state.sent.length < limit) return paused;
    // The slot frees when the send `limit` places from the newest leaves the window.
    const freeing = state.sent[state.sent.length - limit] ?? now;
    return Math.max(paused, freeing + span - now);
  }

  /** How many requests of this group are waiting for a slot. */
  pending(group: EndpointGroup): number {
    return this.state(group).queue.length;
  }

  private state(group: EndpointGroup): GroupState {
    let state = this.groups.get(group);
    if (!state) {
      state = { sent: [], pausedUntil: 0, queue: [] };
      this.groups.set(group, state);
    }
    return state;
  }

  private pump(group: EndpointGroup): void {
    const state = this.state(group);
    state.cancelTimer?.();
    state.cancelTimer = undefined;
    while (state.queue.length > 0) {
      const wait = this.waitMs(group);
      if (wait > 0) {
        state.cancelTimer = this.setTimer(() => {
          state.cancelTimer = undefined;
          this.pump(group);
        }, wait);
        return;
      }
      const waiter = state.queue.shift();
      if (!waiter) return;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      state.sent.push(this.now());
      waiter.resolve();
    }
  }
}
