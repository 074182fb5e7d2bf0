import { abortError, clientError, errorFromResponse, invalidResponse } from './errors';
import type { RateLimiter } from './rate-limiter';
import { WINDOW_MS } from './rate-limiter';
import { requestHeaders, requestUrl, type Call, type UploadProgress } from './request-building';

// One attempt of a call on the wire (call-runner.ts runs the attempts): fetch, or XMLHttpRequest for an
// upload that reports progress, with the key in the Authorization header and a per-attempt timeout; a
// non-2xx answer becomes an ApiError (api-notes §7), a 2xx body is parsed.

/** The parts of XMLHttpRequest the upload uses (so tests can pass a small fake). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  getResponseHeader(name: string): string | null;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null };
  onload: ((event: ProgressEvent) => void) | null;
  onerror: ((event: ProgressEvent) => void) | null;
  onabort: ((event: ProgressEvent) => void) | null;
}

interface RawResponse {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  createXhr: () => XhrLike;
  timeoutMs: number;
  now: () => number;
  /** Told of a rate-limit 429, which holds the call's whole group. */
  limiter: RateLimiter;
}

export class Transport {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #createXhr: () => XhrLike;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #limiter: RateLimiter;

  constructor(options: TransportOptions) {
    this.#baseUrl = options.baseUrl;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch;
    this.#createXhr = options.createXhr;
    this.#timeoutMs = options.timeoutMs;
    this.#now = options.now;
    this.#limiter = options.limiter;
  }

  /** One request and its answer: an ApiError for anything but a parsed 2xx. */
  async exchange<T>(call: Call<T>, options: { signal?: AbortSignal; timeoutMs?: number }): Promise<T> {
    const { signal } = options;

    // One controller per attempt: aborted by the caller's signal or by the timeout.
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      options.timeoutMs ?? call.timeoutMs ?? this.#timeoutMs,
    );

    try {
      let response: RawResponse;
      let text: string;
      try {
        if (signal?.aborted) throw abortError();
        response = await this.#send(call, controller.signal);
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw abortError();
        // api-notes §7: a timeout is a connection failure without an HTTP status.
        throw clientError(timedOut ? 'timeout' : 'network_error', error);
      }

      if (response.status < 200 || response.status > 299) {
        const error = errorFromResponse({
          status: response.status,
          bodyText: text,
          retryAfterHeader: response.header('Retry-After'),
          secrets: [this.#apiKey],
          now: this.#now(),
        });
        // A rate-limit 429 holds the whole group (api-notes §8). Not the daily cap (its Retry-After points
        // at midnight) nor describe-image's upstream limit, which are not this key's request rate.
        if (
          error.status === 429 &&
          error.retryAfterSeconds !== undefined &&
          error.code !== 'token_daily_cap_reached' &&
          error.code !== 'upstream_rate_limited'
        ) {
          this.#limiter.pause(call.group, Math.min(error.retryAfterSeconds, WINDOW_MS / 1000));
        }
        throw error;
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw invalidResponse(
          response.status,
          // A zod issue, for developers (the error's `issues`); the person reads the translated invalid_response.
          // eslint-disable-next-line lingui/no-unlocalized-strings
          [{ code: 'custom', message: 'The body is not JSON.', path: [] }],
          error,
        );
      }
      return call.parse(json, response.status);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #send(call: Call<unknown>, signal: AbortSignal): Promise<RawResponse> {
    const url = requestUrl(this.#baseUrl, call.path, call.query);
    const headers = requestHeaders(call.body, call.headers ?? {}, `Bearer ${this.#apiKey}`);
    if (call.body?.kind === 'blob' && call.onProgress) {
      return this.#sendXhr(url, headers, call.body.blob, signal, call.onProgress);
    }
    const doFetch = this.#fetch;
    const body =
      call.body === undefined ? undefined : call.body.kind === 'json' ? call.body.text : call.body.blob;
    return doFetch(url, { method: call.method, headers, body, signal }).then((res) => ({
      status: res.status,
      header: (name) => res.headers.get(name),
      text: () => res.text(),
    }));
  }

  #sendXhr(
    url: string,
    headers: Record<string, string>,
    blob: Blob,
    signal: AbortSignal,
    onProgress: (progress: UploadProgress) => void,
  ): Promise<RawResponse> {
    return new Promise<RawResponse>((resolve, reject) => {
      const xhr = this.#createXhr();
      const onAbort = () => xhr.abort();
      const done = () => signal.removeEventListener('abort', onAbort);
      xhr.open('POST', url);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) =>
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : blob.size });
      xhr.onload = () => {
        done();
        const text = xhr.responseText;
        resolve({
          status: xhr.status,
          header: (name) => xhr.getResponseHeader(name),
          text: async () => text,
        });
      };
      xhr.onerror = () => {
        done();
        reject(new TypeError('The upload failed: network error.'));
      };
      xhr.onabort = () => {
        done();
        reject(new DOMException('The upload was aborted.', 'AbortError'));
      };
      if (signal.aborted) {
        reject(new DOMException('The upload was aborted.', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      xhr.send(blob);
    });
  }
}
