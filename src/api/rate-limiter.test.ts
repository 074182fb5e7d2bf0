import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter, type EndpointGroup } from './rate-limiter';

/** Starts an acquire and tracks whether it has resolved. */
const track = (limiter: RateLimiter, group: EndpointGroup, signal?: AbortSignal) => {
  const state = { done: false, error: undefined as unknown };
  limiter.acquire(group, signal).then(
    () => (state.done = true),
    (e: unknown) => (state.error = e),
  );
  return state;
};

const acquireMany = async (limiter: RateLimiter, group: EndpointGroup, n: number) => {
  for (let i = 0; i < n; i += 1) await limiter.acquire(group);
};

describe('RateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has the api-notes §8 limits', () => {
    const limiter = new RateLimiter();
    const groups: EndpointGroup[] = [
      'tasks.create',
      'tasks.get',
      'uploads.create',
      'uploads.get',
      'me',
      'quote',
      'ai-tools',
      'templates',
      'describe',
      'models',
    ];
    expect(Object.fromEntries(groups.map((g) => [g, limiter.limitOf(g)]))).toEqual({
      'tasks.create': 60,
      'tasks.get': 60,
      'uploads.create': 30,
      'uploads.get': 120,
      me: 120,
      quote: 120,
      'ai-tools': 120,
      templates: 120,
      describe: 10,
      models: null,
    });
  });

  it('holds the 61st POST /tasks of a minute until the window frees', async () => {
    const limiter = new RateLimiter({ marginMs: 0 });
    await acquireMany(limiter, 'tasks.create', 60);
    const sixtyFirst = track(limiter, 'tasks.create');
    await vi.advanceTimersByTimeAsync(0);
    expect(sixtyFirst.done).toBe(false);
    expect(limiter.pending('tasks.create')).toBe(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(sixtyFirst.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sixtyFirst.done).toBe(true);
  });

  it('keeps a safety margin past the window by default', async () => {
    const limiter = new RateLimiter();
    await acquireMany(limiter, 'describe', 10);
    const eleventh = track(limiter, 'describe');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(eleventh.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(eleventh.done).toBe(true);
  });

  it('slides: a slot frees when the oldest send leaves the window', async () => {
    const limiter = new RateLimiter({ marginMs: 0, limits: { describe: 3 } });
    await limiter.acquire('describe'); // t = 0
    await vi.advanceTimersByTimeAsync(20_000);
    await limiter.acquire('describe'); // t = 20 s
    await limiter.acquire('describe'); // t = 20 s
    const fourth = track(limiter, 'describe');
    await vi.advanceTimersByTimeAsync(39_999); // t = 59.999 s
    expect(fourth.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // t = 60 s: the t = 0 send is out
    expect(fourth.done).toBe(true);
    const fifth = track(limiter, 'describe');
    await vi.advanceTimersByTimeAsync(19_999); // t = 79.999 s
    expect(fifth.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // t = 80 s
    expect(fifth.done).toBe(true);
  });

  it('keeps groups apart (templates have their own bucket) and never limits GET /models', async () => {
    const limiter = new RateLimiter({ marginMs: 0 });
    await acquireMany(limiter, 'ai-tools', 120);
    const templates = track(limiter, 'templates');
    const tool = track(limiter, 'ai-tools');
    await vi.advanceTimersByTimeAsync(0);
    expect(templates.done).toBe(true);
    expect(tool.done).toBe(false);
    await acquireMany(limiter, 'models', 1000);
    expect(limiter.waitMs('models')).toBe(0);
  });

  it('serves waiters first come, first served', async () => {
    const limiter = new RateLimiter({ marginMs: 0, limits: { quote: 1 } });
    const order: number[] = [];
    await limiter.acquire('quote');
    const all = [1, 2, 3].map((n) => limiter.acquire('quote').then(() => order.push(n)));
    await vi.advanceTimersByTimeAsync(180_000);
    await Promise.all(all);
    expect(order).toEqual([1, 2, 3]);
  });

  it('pauses a group for a 429 Retry-After, and only that group', async () => {
    const limiter = new RateLimiter({ marginMs: 0 });
    limiter.pause('tasks.get', 7);
    const poll = track(limiter, 'tasks.get');
    const submit = track(limiter, 'tasks.create');
    await vi.advanceTimersByTimeAsync(0);
    expect(submit.done).toBe(true);
    expect(poll.done).toBe(false);
    await vi.advanceTimersByTimeAsync(6_999);
    expect(poll.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll.done).toBe(true);
  });

  it('a pause never shortens an earlier, longer one', async () => {
    const limiter = new RateLimiter({ marginMs: 0 });
    limiter.pause('me', 10);
    limiter.pause('me', 2);
    expect(limiter.waitMs('me')).toBe(10_000);
    limiter.pause('me', -1);
    expect(limiter.waitMs('me')).toBe(10_000);
  });

  it('takes the key limits from GET /me', async () => {
    const limiter = new RateLimiter({ marginMs: 0 });
    limiter.setLimits({ tasksPerMin: 2, uploadsPerMin: 1, uploadPollPerMin: 3 });
    expect(limiter.limitOf('tasks.create')).toBe(2);
    expect(limiter.limitOf('tasks.get')).toBe(2);
    expect(limiter.limitOf('uploads.create')).toBe(1);
    expect(limiter.limitOf('uploads.get')).toBe(3);
    expect(limiter.limitOf('describe')).toBe(10);
    await acquireMany(limiter, 'tasks.create', 2);
    const third = track(limiter, 'tasks.create');
    await limiter.acquire('uploads.create');
    const secondUpload = track(limiter, 'uploads.create');
    await vi.advanceTimersByTimeAsync(59_999);
    expect(third.done).toBe(false);
    expect(secondUpload.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(third.done).toBe(true);
    expect(secondUpload.done).toBe(true);
  });

  it('lets waiters go at once when setLimits raises a limit, and ignores nonsense values', async () => {
    const limiter = new RateLimiter({ marginMs: 0, limits: { 'tasks.create': 1 } });
    await limiter.acquire('tasks.create');
    const second = track(limiter, 'tasks.create');
    await vi.advanceTimersByTimeAsync(10);
    expect(second.done).toBe(false);
    limiter.setLimits({ tasksPerMin: 0 });
    limiter.setLimits({ tasksPerMin: Number.NaN });
    expect(limiter.limitOf('tasks.create')).toBe(1);
    limiter.setLimits({ tasksPerMin: 5 });
    await vi.advanceTimersByTimeAsync(0);
    expect(second.done).toBe(true);
  });

  it('an aborted waiter leaves the queue at once and takes no slot', async () => {
    const limiter = new RateLimiter({ marginMs: 0, limits: { describe: 1 } });
    await limiter.acquire('describe');
    const controller = new AbortController();
    const aborted = track(limiter, 'describe', controller.signal);
    const next = track(limiter, 'describe');
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(aborted.error).toMatchObject({ code: 'aborted' });
    expect(limiter.pending('describe')).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(next.done).toBe(true);
    expect(limiter.pending('describe')).toBe(0);
  });

  it('rejects at once with an already aborted signal', async () => {
    const limiter = new RateLimiter();
    await expect(limiter.acquire('me', AbortSignal.abort())).rejects.toMatchObject({ code: 'aborted' });
  });

  it('works on an injected clock and timer', async () => {
    let clock = 0;
    const timers: Array<{ at: number; fn: () => void }> = [];
    const limiter = new RateLimiter({
      now: () => clock,
      marginMs: 0,
      limits: { describe: 1 },
      setTimer: (fn, ms) => {
        const timer = { at: clock + ms, fn };
        timers.push(timer);
        return () => timers.splice(timers.indexOf(timer), 1);
      },
    });
    await limiter.acquire('describe');
    let done = false;
    void limiter.acquire('describe').then(() => (done = true));
    expect(timers.map((t) => t.at)).toEqual([60_000]);
    clock = 60_000;
    timers.shift()?.fn();
    await Promise.resolve();
    expect(done).toBe(true);
  });
});
