import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, clientError, errorFromResponse } from './errors';
import {
  MAX_RETRY_AFTER_SECONDS,
  RETRY_DELAYS_MS,
  retryDelay,
  sleep,
  withRetry,
  type RetryInfo,
} from './retry';

const httpError = (status: number, code = 'whatever', retryAfter?: string) =>
  errorFromResponse({
    status,
    bodyText: JSON.stringify({ error: { message: 'm', type: 'api_error', code } }),
    retryAfterHeader: retryAfter ?? null,
  });

/** An operation that fails with the given errors in turn, then succeeds. */
const failing = (...errors: unknown[]) => {
  const fn = vi.fn(async (): Promise<string> => {
    const next = errors.shift();
    if (next !== undefined) throw next;
    return 'ok';
  });
  return fn;
};

/** A sleep that records the delays and returns at once (no timers). */
const recordingSleep = () => {
  const delays: number[] = [];
  const fn = async (ms: number) => {
    delays.push(ms);
  };
  return { delays, fn };
};

describe('withRetry: what is retried (api-notes §7)', () => {
  it.each([
    ['network failure', () => clientError('network_error')],
    ['timeout', () => clientError('timeout')],
    ['429', () => httpError(429, 'rate_limited')],
    ['502', () => httpError(502)],
    ['503', () => httpError(503)],
    ['504', () => httpError(504)],
  ])('retries a %s', async (_name, make) => {
    const op = failing(make());
    const { fn } = recordingSleep();
    await expect(withRetry(op, { sleep: fn })).resolves.toBe('ok');
    expect(op).toHaveBeenCalledTimes(2);
  });

  it.each([
    [400, 'invalid_payload'],
    [401, 'invalid_token'],
    [402, 'arrears'],
    [403, 'account_banned'],
    [404, 'unknown_task'],
    [409, 'conflict'],
    [413, 'file_too_large'],
    [422, 'moderation_blocked'],
    [451, 'moderation_blocked'],
    [500, 'internal_error'],
    [403, 'token_project_unbound'],
    [422, 'token_project_unbound'],
  ])('does not retry %i %s', async (status, code) => {
    const error = httpError(status, code);
    const op = failing(error);
    const { fn, delays } = recordingSleep();
    await expect(withRetry(op, { sleep: fn })).rejects.toBe(error);
    expect(op).toHaveBeenCalledTimes(1);
    expect(delays).toEqual([]);
  });

  it('rethrows errors that are not ApiErrors without retrying', async () => {
    const op = failing(new RangeError('bug'));
    await expect(withRetry(op, { sleep: recordingSleep().fn })).rejects.toBeInstanceOf(RangeError);
    expect(op).toHaveBeenCalledTimes(1);
  });

  it('honours a custom shouldRetry', async () => {
    const op = failing(clientError('network_error'));
    await expect(
      withRetry(op, { sleep: recordingSleep().fn, shouldRetry: () => false }),
    ).rejects.toMatchObject({
      code: 'network_error',
    });
    expect(op).toHaveBeenCalledTimes(1);
  });
});

describe('withRetry: the schedule', () => {
  it('waits 1, 3 and 9 s, then gives up after 3 retries (4 tries) with the last error', async () => {
    const last = httpError(503, 'last');
    const op = failing(httpError(503), httpError(502), httpError(504), last, 'never reached');
    const { fn, delays } = recordingSleep();
    await expect(withRetry(op, { sleep: fn })).rejects.toBe(last);
    expect(op).toHaveBeenCalledTimes(4);
    expect(delays).toEqual([1000, 3000, 9000]);
    expect(RETRY_DELAYS_MS).toEqual([1000, 3000, 9000]);
  });

  it('sends the retries exactly 1 s, 3 s and 9 s apart on real (fake) timers', async () => {
    vi.useFakeTimers();
    try {
      const op = vi.fn(async (): Promise<string> => {
        throw httpError(503);
      });
      const done = withRetry(op).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      expect(op).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(op).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(op).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(2_999);
      expect(op).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(op).toHaveBeenCalledTimes(3);
      await vi.advanceTimersByTimeAsync(8_999);
      expect(op).toHaveBeenCalledTimes(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(op).toHaveBeenCalledTimes(4);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(op).toHaveBeenCalledTimes(4);
      expect(await done).toBeInstanceOf(ApiError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits Retry-After instead of the scheduled delay on a 429', async () => {
    const op = failing(httpError(429, 'rate_limited', '7'), httpError(503));
    const { fn, delays } = recordingSleep();
    await expect(withRetry(op, { sleep: fn })).resolves.toBe('ok');
    // 7 s replaces the first 1 s; the next retry keeps its own slot (3 s).
    expect(delays).toEqual([7000, 3000]);
  });

  it('uses the schedule for a 429 without Retry-After', async () => {
    const op = failing(httpError(429, 'rate_limited'));
    const { fn, delays } = recordingSleep();
    await withRetry(op, { sleep: fn });
    expect(delays).toEqual([1000]);
  });

  it(`surfaces a 429 whose Retry-After is over ${MAX_RETRY_AFTER_SECONDS} s instead of waiting`, async () => {
    const error = httpError(429, 'rate_limited', '3600');
    const op = failing(error);
    await expect(withRetry(op, { sleep: recordingSleep().fn })).rejects.toBe(error);
    expect(op).toHaveBeenCalledTimes(1);
    expect(retryDelay(httpError(429, 'x', '60'), 1)).toEqual({ delayMs: 60_000, reason: 'retry-after' });
  });

  it('tells onRetry what is about to happen', async () => {
    const infos: RetryInfo[] = [];
    const op = failing(httpError(503), httpError(429, 'rate_limited', '2'));
    let clock = 10_000;
    await withRetry(op, {
      sleep: async (ms) => {
        clock += ms;
      },
      now: () => clock,
      onRetry: (info) => infos.push(info),
    });
    expect(
      infos.map(({ retry, maxRetries, delayMs, retryAt, reason }) => ({
        retry,
        maxRetries,
        delayMs,
        retryAt,
        reason,
      })),
    ).toEqual([
      { retry: 1, maxRetries: 3, delayMs: 1000, retryAt: 11_000, reason: 'schedule' },
      { retry: 2, maxRetries: 3, delayMs: 2000, retryAt: 13_000, reason: 'retry-after' },
    ]);
    expect(infos[0]?.error.status).toBe(503);
  });
});

describe('withRetry: abort', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops waiting at once when aborted during a wait', async () => {
    const controller = new AbortController();
    const op = vi.fn(async (): Promise<string> => {
      throw httpError(503);
    });
    const done = withRetry(op, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    const error = await done;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'aborted', status: 0 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(op).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not start when the signal is already aborted', async () => {
    const op = vi.fn(async () => 'ok');
    await expect(withRetry(op, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
    expect(op).not.toHaveBeenCalled();
  });

  it('turns a failure after an abort into aborted, not retried', async () => {
    const controller = new AbortController();
    const op = vi.fn(async (): Promise<string> => {
      controller.abort();
      throw clientError('network_error');
    });
    await expect(withRetry(op, { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(op).toHaveBeenCalledTimes(1);
  });

  it('sleep resolves after ms and rejects as aborted on abort', async () => {
    let resolved = false;
    void sleep(1000).then(() => (resolved = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved).toBe(true);
    const controller = new AbortController();
    const waiting = sleep(1000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
  });
});
