import { ApiError, abortError, isRetryable } from './errors';

// api-notes §7 client retry guidance: "retry connection failures without an HTTP status, 429 (honor
// Retry-After) and 502, 503, 504, up to 3 attempts with delays of 1, 3 and 9 seconds".
// Our reading: the first try, then up to 3 retries, waiting 1 s before the first retry, 3 s before the
// second and 9 s before the third: at most 4 requests in all. A 429's Retry-After replaces the scheduled
// delay of that retry (it does not add to it).

/** @internal */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000, 9_000];

/**
 * A Retry-After longer than this is not waited for: the error is surfaced with retryAfterSeconds so
 * the UI can say when to come back (rate windows are 60 s, api-notes §8; longer waits mean a quota).
 * @internal
 */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** Waits ms milliseconds; rejects with an `aborted` ApiError as soon as the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    // Looked up at call time so vi.useFakeTimers() installed later still applies.
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface RetryInfo {
  /** 1 for the first retry, up to `maxRetries`. */
  retry: number;
  maxRetries: number;
  delayMs: number;
  /** Clock time at which the retry will be sent (for a "Retrying in 3 s..." countdown). */
  retryAt: number;
  /** 'retry-after' when a 429's Retry-After decided the delay. */
  reason: 'schedule' | 'retry-after';
  error: ApiError;
}

export interface RetryOptions {
  signal?: AbortSignal;
  sleep?: Sleep;
  now?: () => number;
  onRetry?: (info: RetryInfo) => void;
  /** Which failures may be retried; defaults to api-notes §7 (isRetryable). */
  shouldRetry?: (error: ApiError) => boolean;
  delaysMs?: readonly number[];
  maxRetryAfterSeconds?: number;
}

/**
 * The wait before retry number `retry` (1-based), or undefined when the error must not be retried.
 * @internal
 */
export function retryDelay(
  error: ApiError,
  retry: number,
  delaysMs: readonly number[] = RETRY_DELAYS_MS,
  maxRetryAfterSeconds: number = MAX_RETRY_AFTER_SECONDS,
): { delayMs: number; reason: RetryInfo['reason'] } | undefined {
  const scheduled = delaysMs[retry - 1];
  if (scheduled === undefined) return undefined;
  if (error.status === 429 && error.retryAfterSeconds !== undefined) {
    if (error.retryAfterSeconds > maxRetryAfterSeconds) return undefined;
    return { delayMs: Math.max(0, error.retryAfterSeconds * 1000), reason: 'retry-after' };
  }
  return { delayMs: scheduled, reason: 'schedule' };
}

/**
 * Runs `attempt` and retries it per api-notes §7. `attempt` receives the 0-based attempt number and must
 * throw ApiError; anything else is rethrown at once. An abort stops a wait immediately.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const {
    signal,
    sleep: wait = sleep,
    now = () => Date.now(),
    onRetry,
    shouldRetry = isRetryable,
    delaysMs = RETRY_DELAYS_MS,
    maxRetryAfterSeconds = MAX_RETRY_AFTER_SECONDS,
  } = options;
  for (let n = 0; ; n += 1) {
    if (signal?.aborted) throw abortError();
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'aborted') throw error;
      if (signal?.aborted) throw abortError();
      if (!shouldRetry(error)) throw error;
      const next = retryDelay(error, n + 1, delaysMs, maxRetryAfterSeconds);
      if (!next) throw error;
      onRetry?.({
        retry: n + 1,
        maxRetries: delaysMs.length,
        delayMs: next.delayMs,
        retryAt: now() + next.delayMs,
        reason: next.reason,
        error,
      });
      try {
        await wait(next.delayMs, signal);
      } catch (waitError) {
        throw signal?.aborted ? abortError() : waitError;
      }
    }
  }
}
