import { z } from 'zod/mini';
import { normaliseBaseUrl } from './base-url';
import {
  abortError,
  type ApiError,
  clientError,
  toApiError,
  errorFromResponse,
  invalidResponse,
  isRetryable,
  provesNoEffect,
} from './errors';
import { NetworkHealth } from './network-health';
import { RateLimiter, WINDOW_MS, type EndpointGroup } from './rate-limiter';
import { API_KEY_PLACEHOLDER, type RequestDescription } from './request-code';
import { withRetry, type RetryInfo, type Sleep } from './retry';
import {
  AiToolListSchema,
  AiToolSchema,
  ModelListSchema,
  ModelSchema,
  TemplateListSchema,
  TemplateSchema,
} from '../../contract/catalog';
import type { AiTool, Model, Template } from '../../contract/catalog';
import type { MediaType, ModelType } from '../../contract/category';
import {
  ImageDescriptionSchema,
  type DescribeLanguage,
  type ImageDescription,
} from '../../contract/describe';
import { MeSchema, type Me } from '../../contract/me';
import { QuoteSchema, type Quote } from '../../contract/quote';
import {
  TaskCreatedSchema,
  TaskSchema,
  type Task,
  type TaskCreated,
  type TaskRequest,
} from '../../contract/task';
import {
  UploadCreatedSchema,
  UploadSchema,
  type Upload,
  type UploadContentType,
  type UploadCreated,
} from '../../contract/upload';

// The studio's one API client (product-notes §2: "Nothing else in the app calls fetch on the API"). Every
// request goes: rate limiter (api-notes §8) -> fetch (or XHR for an upload with progress) with the key in
// the Authorization header and a per-attempt timeout -> a non-2xx becomes an ApiError (api-notes §7) ->
// a 2xx body is parsed with its zod schema. Failures are retried per api-notes §7 (retry.ts).

/** @internal */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** A 100 MB upload on a slow line takes minutes; the 30 s default would cut it off. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/**
 * The largest upload sent again, once, after a failure whose effect is unknown (no answer, 502, 504).
 * A larger one is never re-sent by itself: such a failure of a large body is most often a refusal the
 * path lost on the way (a proxy that saw the connection reset after an early 413) or a link that cannot
 * carry it, and each attempt costs the whole file again; the person sees the failure and retries. 429 and
 * 503, which the API answers before it keeps anything, are retried on schedule whatever the size.
 * @internal
 */
export const UPLOAD_RESEND_MAX_BYTES = 8 * 1024 * 1024;

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

export interface ClientRetryInfo extends RetryInfo {
  method: 'GET' | 'POST';
  path: string;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** The wait between retries (retry.ts); tests pass a fake or use fake timers. */
  sleep?: Sleep;
  now?: () => number;
  limiter?: RateLimiter;
  /** Per-attempt timeout; default 30 s. A timeout is a connection failure for retry purposes. */
  timeoutMs?: number;
  createXhr?: () => XhrLike;
  /** Called before every retry of every request ("Retrying in 3 s..."). */
  onRetry?: (info: ClientRetryInfo) => void;
  /** Told of every attempt, for the studio's "can't reach the service" line; one is made if omitted. */
  health?: NetworkHealth;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onRetry?: (info: ClientRetryInfo) => void;
}

export interface CreateTaskOptions extends RequestOptions {
  /** api-notes §4: 1-256 characters. With it, a submit whose outcome is unknown is re-sent identically. */
  idempotencyKey?: string;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions extends RequestOptions {
  /** When given, the upload goes through XMLHttpRequest so progress can be reported. */
  onProgress?: (progress: UploadProgress) => void;
}

export interface SkippedEntry {
  index: number;
  /** The entry's id or slug when it had a readable one. */
  id?: string;
  issues: z.core.$ZodIssue[];
}

/** One bad catalog entry is reported and skipped, never breaking the list. */
export interface ListResult<T> {
  items: T[];
  skipped: SkippedEntry[];
}

export interface DescribeImageBody {
  imageUrl: string;
  language?: DescribeLanguage | (string & {});
}

/** The exact bytes sent as a JSON body; describeRequest uses the same function so "Copy request" is exact. */
const serializeBody = (body: unknown): string => JSON.stringify(body);

interface RawResponse {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
}

type Body = { kind: 'json'; text: string } | { kind: 'blob'; blob: Blob; contentType: string };

interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  group: EndpointGroup;
  body?: Body;
  headers?: Record<string, string>;
  /**
   * Whether the request may be repeated after a failure that may have reached the service (dropped
   * connection, timeout, 502, 504). False for charging POSTs without an Idempotency-Key.
   */
  repeatable: boolean;
  /** With `repeatable`, how many repeats after such a failure (default: the whole retry schedule). */
  maxRepeats?: number;
  timeoutMs?: number;
  onProgress?: (progress: UploadProgress) => void;
  parse: (json: unknown, status: number) => T;
}

const parseWith =
  <T>(schema: z.ZodMiniType<T>) =>
  (json: unknown, status: number): T => {
    const result = schema.safeParse(json);
    if (!result.success) throw invalidResponse(status, result.error.issues);
    return result.data;
  };

const EntryIdSchema = z.union([
  z.pipe(
    z.looseObject({ id: z.string() }),
    z.transform((e: { id: string }) => e.id),
  ),
  z.pipe(
    z.looseObject({ slug: z.string() }),
    z.transform((e: { slug: string }) => e.slug),
  ),
]);

function parseEntries<T>(entries: readonly unknown[], schema: z.ZodMiniType<T>): ListResult<T> {
  const result: ListResult<T> = { items: [], skipped: [] };
  entries.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) {
      result.items.push(parsed.data);
      return;
    }
    const id = EntryIdSchema.safeParse(entry);
    result.skipped.push({ index, ...(id.success ? { id: id.data } : {}), issues: parsed.error.issues });
  });
  return result;
}

const defaultCreateXhr = (): XhrLike => new XMLHttpRequest();

export class ApiClient {
  readonly baseUrl: string;
  readonly limiter: RateLimiter;
  readonly health: NetworkHealth;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #sleep: Sleep | undefined;
  readonly #now: () => number;
  readonly #timeoutMs: number;
  readonly #createXhr: () => XhrLike;
  readonly #onRetry: ((info: ClientRetryInfo) => void) | undefined;

  constructor(options: ApiClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    // Looked up at call time (and called without a receiver) so a global fetch swapped by tests applies.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#sleep = options.sleep;
    this.#now = options.now ?? (() => Date.now());
    this.limiter = options.limiter ?? new RateLimiter({ now: this.#now });
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#createXhr = options.createXhr ?? defaultCreateXhr;
    this.#onRetry = options.onRetry;
    this.health = options.health ?? new NetworkHealth({ now: this.#now });
  }

  /** The key stays private to the client: not enumerable, never in a URL, a message or a description. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  /**
   * The key itself, for the one other party that must check it: the team-space server, which asks GET
   * /me with it (the provider's token, sent in the WebSocket's first message). Nothing else reads it.
   */
  teamSpaceToken = (): string => this.#apiKey;

  // ---- account ---------------------------------------------------------------------------------

  /** GET /me. Also hands the key's own limits to the rate limiter (api-notes §8). */
  async me(options: RequestOptions = {}): Promise<Me> {
    const me = await this.#run(
      { method: 'GET', path: '/me', group: 'me', repeatable: true, parse: parseWith(MeSchema) },
      options,
    );
    this.limiter.setLimits(me.limits);
    return me;
  }

  // ---- catalog -----------------------------------------------------------------------------------

  /** GET /models?type=&subtype= (api-notes §4: the query parameter is spelled `subtype`). */
  listModels(type: ModelType, subType: string, options: RequestOptions = {}): Promise<ListResult<Model>> {
    return this.#run(
      {
        method: 'GET',
        path: '/models',
        query: { type, subtype: subType },
        group: 'models',
        repeatable: true,
        parse: (json, status) => parseEntries(parseWith(ModelListSchema)(json, status).models, ModelSchema),
      },
      options,
    );
  }

  listAiTools(type?: MediaType, options: RequestOptions = {}): Promise<ListResult<AiTool>> {
    return this.#run(
      {
        method: 'GET',
        path: '/ai-tools',
        query: { type },
        group: 'ai-tools',
        repeatable: true,
        parse: (json, status) =>
          parseEntries(parseWith(AiToolListSchema)(json, status).aiTools, AiToolSchema),
      },
      options,
    );
  }

  getAiTool(slug: string, options: RequestOptions = {}): Promise<AiTool> {
    return this.#run(
      {
        method: 'GET',
        path: `/ai-tools/${encodeURIComponent(slug)}`,
        group: 'ai-tools',
        repeatable: true,
        parse: parseWith(AiToolSchema),
      },
      options,
    );
  }

  listTemplates(type?: MediaType, options: RequestOptions = {}): Promise<ListResult<Template>> {
    return this.#run(
      {
        method: 'GET',
        path: '/templates',
        query: { type },
        group: 'templates',
        repeatable: true,
        parse: (json, status) =>
          parseEntries(parseWith(TemplateListSchema)(json, status).templates, TemplateSchema),
      },
      options,
    );
  }

  getTemplate(slug: string, options: RequestOptions = {}): Promise<Template> {
    return this.#run(
      {
        method: 'GET',
        path: `/templates/${encodeURIComponent(slug)}`,
        group: 'templates',
        repeatable: true,
        parse: parseWith(TemplateSchema),
      },
      options,
    );
  }

  // ---- pricing and tasks -------------------------------------------------------------------------

  /** POST /quote: never charges (api-notes §4), so it is always safe to repeat. */
  quote(body: TaskRequest, options: RequestOptions = {}): Promise<Quote> {
    return this.#run(
      {
        method: 'POST',
        path: '/quote',
        group: 'quote',
        body: { kind: 'json', text: serializeBody(body) },
        repeatable: true,
        parse: parseWith(QuoteSchema),
      },
      options,
    );
  }

  /**
   * POST /tasks. api-notes §7: after a submit that fails without a response, re-send the identical request
   * with the identical Idempotency-Key. The body is serialised once, so every attempt sends the same
   * bytes and the same key. Without a key a failure whose effect is unknown (connection failure,
   * timeout, 502, 504) is never retried: the task may exist and be charged; only 429 and 503, which
   * are refusals, are.
   */
  createTask(body: TaskRequest, options: CreateTaskOptions = {}): Promise<TaskCreated> {
    const { idempotencyKey } = options;
    return this.#run(
      {
        method: 'POST',
        path: '/tasks',
        group: 'tasks.create',
        body: { kind: 'json', text: serializeBody(body) },
        headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
        repeatable: idempotencyKey !== undefined,
        parse: parseWith(TaskCreatedSchema),
      },
      options,
    );
  }

  getTask(id: string, options: RequestOptions = {}): Promise<Task> {
    return this.#run(
      {
        method: 'GET',
        path: `/tasks/${encodeURIComponent(id)}`,
        group: 'tasks.get',
        repeatable: true,
        parse: parseWith(TaskSchema),
      },
      options,
    );
  }

  /**
   * The exact POST /tasks request createTask sends, with the key replaced by `$API_KEY`
   * ("Copy request", product-notes §3). Feed it to toCurl / toFetchCode (request-code.ts).
   */
  describeRequest(body: TaskRequest, idempotencyKey?: string): RequestDescription {
    return {
      method: 'POST',
      url: this.#url('/tasks'),
      headers: this.#headers(
        { kind: 'json', text: '' },
        idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
        `Bearer ${API_KEY_PLACEHOLDER}`,
      ),
      body: serializeBody(body),
    };
  }

  // ---- uploads -----------------------------------------------------------------------------------

  /**
   * POST /uploads: the Blob itself as the raw body with its true Content-Type (api-notes §4), streamed by
   * the browser, never read into memory here. 200 ready (image, audio) or 202 processing (video).
   * With onProgress it goes through XMLHttpRequest, the only browser API that reports upload progress.
   * Retried per api-notes §7 (429, 503); after a dropped connection, 502 or 504 only a small file is sent
   * again, once (UPLOAD_RESEND_MAX_BYTES): a repeat can at worst store the file twice; nothing is charged.
   */
  uploadFile(
    file: Blob,
    contentType: UploadContentType | (string & {}),
    options: UploadOptions = {},
  ): Promise<UploadCreated> {
    return this.#run(
      {
        method: 'POST',
        path: '/uploads',
        group: 'uploads.create',
        body: { kind: 'blob', blob: file, contentType },
        repeatable: file.size <= UPLOAD_RESEND_MAX_BYTES,
        maxRepeats: 1,
        timeoutMs: UPLOAD_TIMEOUT_MS,
        onProgress: options.onProgress,
        parse: parseWith(UploadCreatedSchema),
      },
      options,
    );
  }

  /** GET /uploads/{uploadId}: 202 processing, or 200 ready / blocked / errored (api-notes §3). */
  getUpload(id: string, options: RequestOptions = {}): Promise<Upload> {
    return this.#run(
      {
        method: 'GET',
        path: `/uploads/${encodeURIComponent(id)}`,
        group: 'uploads.get',
        repeatable: true,
        parse: parseWith(UploadSchema),
      },
      options,
    );
  }

  // ---- describe ----------------------------------------------------------------------------------

  /**
   * POST /describe-image. It charges 1 credit up front and has no Idempotency-Key, so like a keyless
   * submit it is retried only after 429 and 503 (refusals, refunded per api-notes §7), never after a failure
   * whose effect is unknown.
   */
  describeImage(body: DescribeImageBody, options: RequestOptions = {}): Promise<ImageDescription> {
    return this.#run(
      {
        method: 'POST',
        path: '/describe-image',
        group: 'describe',
        body: { kind: 'json', text: serializeBody(body) },
        repeatable: false,
        parse: parseWith(ImageDescriptionSchema),
      },
      options,
    );
  }

  // ---- the machinery -----------------------------------------------------------------------------

  #url(path: string, query?: Record<string, string | undefined>): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, value);
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  #headers(
    body: Body | undefined,
    extra: Record<string, string>,
    authorization: string,
  ): Record<string, string> {
    const headers: Record<string, string> = { Authorization: authorization };
    if (body?.kind === 'json') headers['Content-Type'] = 'application/json';
    if (body?.kind === 'blob') headers['Content-Type'] = body.contentType;
    return { ...headers, ...extra };
  }

  #run<T>(call: Call<T>, options: RequestOptions): Promise<T> {
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
        this.health.retrying(info.retryAt);
        const full: ClientRetryInfo = { ...info, method: call.method, path: call.path };
        this.#onRetry?.(full);
        options.onRetry?.(full);
      },
    }).catch((thrown: unknown) => {
      throw unknownOutcome && provesNoEffect(thrown) ? unknownOutcome : thrown;
    });
  }

  async #attempt<T>(call: Call<T>, options: RequestOptions): Promise<T> {
    await this.limiter.acquire(call.group, options.signal);
    // An upload, or a description by a vision model, is long by nature and shows its own progress: it
    // never makes the service look slow.
    const token = this.health.started({
      countsAsSlow: call.body?.kind !== 'blob' && call.group !== 'describe',
    });
    try {
      const result = await this.#exchange(call, options);
      this.health.ended(token);
      return result;
    } catch (error) {
      this.health.ended(token, toApiError(error));
      throw error;
    }
  }

  /** One request and its answer: an ApiError for anything but a parsed 2xx. */
  async #exchange<T>(call: Call<T>, options: RequestOptions): Promise<T> {
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
          this.limiter.pause(call.group, Math.min(error.retryAfterSeconds, WINDOW_MS / 1000));
        }
        throw error;
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw invalidResponse(
          response.status,
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
    const url = this.#url(call.path, call.query);
    const headers = this.#headers(call.body, call.headers ?? {}, `Bearer ${this.#apiKey}`);
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
