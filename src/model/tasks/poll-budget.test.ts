import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { POLL_WINDOW_MS, PollBudget } from './poll-budget';

const T0 = Date.parse('2025-06-01T12:00:00Z');

interface Tracked {
  id: number;
  resolvedAt?: number;
  error?: unknown;
}

/** Starts acquires and records when each resolves (or why it was rejected). */
function start(budget: PollBudget, count: number, notBefore = Date.now(), signals: AbortSignal[] = []) {
  const served: Tracked[] = [];
  const all: Tracked[] = [];
  for (let id = 0; id < count; id += 1) {
    const tracked: Tracked = { id };
    all.push(tracked);
    budget.acquire(notBefore, signals[id]).then(
      () => {
        tracked.resolvedAt = Date.now();
        served.push(tracked);
      },
      (error: unknown) => (tracked.error = error),
    );
  }
  return { served, all };
}

/** The largest number of times inside any window [t, t + 60 s). */
function maxInAnyWindow(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi += 1) {
    while ((sorted[hi] ?? 0) - (sorted[lo] ?? 0) >= POLL_WINDOW_MS) lo += 1;
    max = Math.max(max, hi - lo + 1);
  }
  return max;
}

describe('PollBudget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves 100 polls asked at once in order, never more than 60 in any 60 s window', async () => {
    const budget = new PollBudget();
    const { served } = start(budget, 100);
    await vi.advanceTimersByTimeAsync(0);
    expect(served).toHaveLength(60);
    expect(budget.size).toBe(40);

    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(served).toHaveLength(100);
    expect(budget.size).toBe(0);
    expect(served.map((t) => t.id)).toEqual([...Array(100).keys()]);
    const times = served.map((t) => t.resolvedAt ?? NaN);
    expect(maxInAnyWindow(times)).toBe(60);
    // The 61st waits for the window (plus the 1 s margin), not longer.
    expect(times[60]).toBe(T0 + POLL_WINDOW_MS + 1_000);
  });

  it('keeps the limit with polls arriving over time, with no margin', async () => {
    const budget = new PollBudget({ marginMs: 0 });
    const times: number[] = [];
    // 300 polls, one asked every 250 ms (240 a minute wanted), each due when asked.
    for (let i = 0; i < 300; i += 1) {
      void budget.acquire(Date.now()).then(() => times.push(Date.now()));
      await vi.advanceTimersByTimeAsync(250);
    }
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(times).toHaveLength(300);
    expect(maxInAnyWindow(times)).toBe(60);
  });

  it('lets an aborted waiter go at once, and gives its place to the next', async () => {
    const budget = new PollBudget({ perMinute: 2, marginMs: 0 });
    const controllers = [0, 1, 2, 3].map(() => new AbortController());
    const { served, all } = start(
      budget,
      4,
      Date.now(),
      controllers.map((c) => c.signal),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(served.map((t) => t.id)).toEqual([0, 1]);
    expect(budget.size).toBe(2);

    // Task 2 reached a terminal state: its waiting poll is dropped and rejected at once.
    controllers[2]?.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(all[2]?.error).toBeInstanceOf(ApiError);
    expect((all[2]?.error as ApiError).code).toBe('aborted');
    expect(budget.size).toBe(1);

    await vi.advanceTimersByTimeAsync(POLL_WINDOW_MS);
    expect(served.map((t) => t.id)).toEqual([0, 1, 3]);
    expect(all[3]?.resolvedAt).toBe(T0 + POLL_WINDOW_MS);
    // Aborting after it was served changes nothing.
    controllers[3]?.abort();
    expect(all[3]?.error).toBeUndefined();
  });

  it('rejects at once when the signal is already aborted, without taking a place', async () => {
    const budget = new PollBudget({ perMinute: 1 });
    await expect(budget.acquire(Date.now(), AbortSignal.abort())).rejects.toMatchObject({ code: 'aborted' });
    expect(budget.size).toBe(0);
    const { served } = start(budget, 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(served).toHaveLength(1);
  });

  it('never serves an aborted head waiter, and leaves nothing waiting', async () => {
    const budget = new PollBudget();
    const early = new AbortController();
    const a = start(budget, 1, T0 + 10_000, [early.signal]);
    const b = start(budget, 1, T0 + 3_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(b.served).toHaveLength(1);
    early.abort();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(a.served).toHaveLength(0);
    expect(budget.size).toBe(0);
  });

  it('pause(7) holds every poll for 7 s', async () => {
    const budget = new PollBudget();
    const first = start(budget, 3);
    await vi.advanceTimersByTimeAsync(0);
    expect(first.served).toHaveLength(3);

    budget.pause(7); // a 429 with Retry-After: 7
    const held = start(budget, 5);
    await vi.advanceTimersByTimeAsync(6_999);
    expect(held.served).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.served.map((t) => t.resolvedAt)).toEqual(Array(5).fill(T0 + 7_000));
  });

  it('a shorter pause does not cut a longer one short, and nonsense is ignored', async () => {
    const budget = new PollBudget();
    budget.pause(10);
    budget.pause(2);
    budget.pause(-1);
    budget.pause(Number.NaN);
    const { served } = start(budget, 1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(served).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(served).toHaveLength(1);
  });

  it('setLimit lowers the rate, for polls already waiting too', async () => {
    const budget = new PollBudget({ marginMs: 0 });
    const { served } = start(budget, 30, T0 + 1_000);
    budget.setLimit(10); // GET /me said tasksPerMin: 10
    expect(budget.perMinute).toBe(10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(served).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(POLL_WINDOW_MS - 1);
    expect(served).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(served).toHaveLength(20);
    await vi.advanceTimersByTimeAsync(POLL_WINDOW_MS);
    expect(served).toHaveLength(30);
    expect(maxInAnyWindow(served.map((t) => t.resolvedAt ?? NaN))).toBe(10);
  });

  it('setLimit raising the limit releases waiters at once; invalid limits are ignored', async () => {
    const budget = new PollBudget({ perMinute: 5 });
    const { served } = start(budget, 8);
    await vi.advanceTimersByTimeAsync(0);
    expect(served).toHaveLength(5);
    budget.setLimit(0);
    budget.setLimit(Number.NaN);
    expect(budget.perMinute).toBe(5);
    budget.setLimit(8);
    await vi.advanceTimersByTimeAsync(0);
    expect(served).toHaveLength(8);
  });

  it('honours notBefore in the future, and serves the earliest due first', async () => {
    const budget = new PollBudget();
    const late = start(budget, 1, T0 + 5_000);
    const soon = start(budget, 1, T0 + 2_000);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(late.served).toHaveLength(0);
    expect(soon.served).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(soon.served[0]?.resolvedAt).toBe(T0 + 2_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(late.served[0]?.resolvedAt).toBe(T0 + 5_000);
  });

  it('with a full window, hands the next free slot to the earliest due poll, ties first come first served', async () => {
    const budget = new PollBudget({ perMinute: 1, marginMs: 0 });
    start(budget, 1);
    await vi.advanceTimersByTimeAsync(0);
    const order: string[] = [];
    for (const [name, due] of [
      ['c', T0 + 3_000],
      ['a1', T0 + 1_000],
      ['b', T0 + 2_000],
      ['a2', T0 + 1_000],
    ] as const) {
      void budget.acquire(due).then(() => order.push(name));
    }
    await vi.advanceTimersByTimeAsync(4 * POLL_WINDOW_MS);
    expect(order).toEqual(['a1', 'a2', 'b', 'c']);
  });

  it('dispose rejects every waiting poll', async () => {
    const budget = new PollBudget({ perMinute: 1 });
    const { all } = start(budget, 3);
    await vi.advanceTimersByTimeAsync(0);
    budget.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(all[0]?.resolvedAt).toBe(T0);
    expect(all.slice(1).map((t) => (t.error as ApiError).code)).toEqual(['aborted', 'aborted']);
    expect(budget.size).toBe(0);
  });

  it('uses the injected clock and timers', async () => {
    let now = 1_000;
    const timers: { fn: () => void; ms: number }[] = [];
    const budget = new PollBudget({
      perMinute: 1,
      marginMs: 0,
      now: () => now,
      setTimer: (fn, ms) => {
        timers.push({ fn, ms });
        return setTimeout(() => undefined, 0);
      },
      clearTimer: () => undefined,
    });
    let served = 0;
    void budget.acquire(0).then(() => served++);
    void budget.acquire(0).then(() => served++);
    await Promise.resolve();
    expect(served).toBe(1);
    expect(timers.at(-1)?.ms).toBe(POLL_WINDOW_MS);
    now += POLL_WINDOW_MS;
    timers.at(-1)?.fn();
    await Promise.resolve();
    expect(served).toBe(2);
  });

  it('nextFreeAt keeps a reserve of the window; take() counts a turn given outside acquire()', () => {
    const budget = new PollBudget({ perMinute: 5 });
    for (let i = 0; i < 3; i += 1) budget.take(T0 + i * 1_000);
    // 3 of 5 used: a poll that leaves 2 in reserve waits for the oldest to leave the window (+1 s margin).
    expect(budget.nextFreeAt(T0 + 3_000, 2)).toBe(T0 + POLL_WINDOW_MS + 1_000);
    expect(budget.nextFreeAt(T0 + 3_000, 1)).toBe(T0 + 3_000);
    expect(budget.nextFreeAt(T0 + 3_000)).toBe(T0 + 3_000);
    expect(budget.sentInWindow(T0 + 3_000)).toBe(3);
    // A pause holds every poll, reserve or not, and is announced to listeners.
    const changes = vi.fn();
    budget.onChange(changes);
    budget.pause(10);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(budget.nextFreeAt(Date.now(), 0)).toBe(Date.now() + 10_000);
    expect(budget.pausedUntilMs).toBe(Date.now() + 10_000);
  });
});
