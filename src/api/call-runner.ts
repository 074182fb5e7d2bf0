import { type ApiError, toApiError, isRetryable, provesNoEffect } from './errors';
import type { NetworkHealth } from './network-health';
import type { RateLimiter } from './rate-limiter';
import type { Call } from './request-building';
import { withRetry, type RetryInfo, type Sleep } from './retry';
import type { Transport } from './transport';

// How a call is run (client.ts describes the calls): each attempt waits for the rate limiter (api-notes
// §8) and is reported to the network health line; failures are retried per api-notes §7 (retry.ts), a
// failure that may have reached the service only when the call may be repeated.

export interface ClientRetryInfo extends RetryInfo {
  method: 'GET' | 'POST';
  path: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onRetry?: (info: ClientRetryInfo) => void;
}

export interface CallRunnerOptions {
  transport: Transport;
  limiter: RateLimiter;
  health: NetworkHealth;
  sleep: Sleep | undefined;
  now: () => number;
  /** Called before every retry of every call. */
  onRetry: ((info: ClientRetryInfo) => void) | undefined;
}

export class CallRunner {
  readonly #transport: Transport;
  readonly #limiter: RateLimiter;
  readonly #health: NetworkHealth;
  readonly #sleep: Sleep | undefined;
  readonly #now: () => number;
  readonly #onRetry: ((info: ClientRetryInfo) => void) | undefined;

  constructor(options: CallRunnerOptions) {
    this.#transport = options.transport;
    this.#limiter = options.limiter;
    this.#health = options.health;
    this.#sleep = options.sleep;
    this.#now = options.now;
    this.#onRetry = options.onRetry;
  }

  run<T>(call: Call<T>, options: RunOptions): Promise<T> {
    const { signal } = options;
    let repeats = 0;
    const mayRepeat = () => call.repeatable && (call.maxRepeats === undefined || repeats++ < call.maxRepeats);
    // An attempt that may have taken effect (no answer, a 502 or 504) followed by one refused before
    // the service looked at the request (429, 503: refused before the Idempotency-Key's replay) leaves
    // the call's outcome unknown: the first may have created, and charged, the task. The call then fails
    // with that first, unknown outcome, so its caller keeps the request and re-sends it with its key,
    // rather than take the refusal for proof that nothing happened.
    let unknownOutcome: ApiError | undefined;
    const attempt = async () => {
      try {
        return await this.#attempt(call, options);
      } catch (thrown) {
        const error = toApiError(thrown);
        if (call.repeatable && (error.status === 0 || error.status >= 500) && !provesNoEffect(error))
          unknownOutcome ??= error;
        throw thrown;
      }
    };
    return withRetry(attempt, {
      signal,
      sleep: this.#sleep,
      now: this.#now,
      shouldRetry: (error) => isRetryable(error) && (provesNoEffect(error) || mayRepeat()),
      onRetry: (info) => {
        this.#health.retrying(info.retryAt);
        const full: ClientRetryInfo = { ...info, method: call.method, path: call.path };
        this.#onRetry?.(full);
        options.onRetry?.(full);
      },
    }).catch((thrown: unknown) => {
      throw unknownOutcome && provesNoEffect(thrown) ? unknownOutcome : thrown;
    });
  }

  async #attempt<T>(call: Call<T>, options: RunOptions): Promise<T> {
    await this.#limiter.acquire(call.group, options.signal);
    // An upload, or a description by a vision model, is long by nature and shows its own progress: it
    // never makes the service look slow.
    const token = this.#health.started({
      countsAsSlow: call.body?.kind !== 'blob' && call.group !== 'describe',
    });
    try {
      const result = await this.#transport.exchange(call, options);
      this.#health.ended(token);
      return result;
    } catch (error) {
      this.#health.ended(token, toApiError(error));
      throw error;
    }
  }
}
