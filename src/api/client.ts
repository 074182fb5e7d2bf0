import { normaliseBaseUrl } from './base-url';
import { NetworkHealth } from './network-health';
import { RateLimiter } from './rate-limiter';
import { API_KEY_PLACEHOLDER, type RequestDescription } from './request-code';
import type { Sleep } from './retry';
import { CallRunner, type ClientRetryInfo, type RunOptions } from './call-runner';
import { jsonBody, requestHeaders, requestUrl, serializeBody, type UploadProgress } from './request-building';
import { parseEntries, parseWith, type ListResult } from './response-parsing';
import { Transport, type XhrLike } from './transport';
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
// This file says what each endpoint's call is; building a request is request-building.ts, sending one
// attempt transport.ts, retrying call-runner.ts, reading the answer response-parsing.ts.

export type { ClientRetryInfo } from './call-runner';
export type { ListResult, SkippedEntry } from './response-parsing';

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

export type RequestOptions = RunOptions;

export interface CreateTaskOptions extends RequestOptions {
  /** api-notes §4: 1-256 characters. With it, a submit whose outcome is unknown is re-sent identically. */
  idempotencyKey?: string;
}

export interface UploadOptions extends RequestOptions {
  /** When given, the upload goes through XMLHttpRequest so progress can be reported. */
  onProgress?: (progress: UploadProgress) => void;
}

export interface DescribeImageBody {
  imageUrl: string;
  language?: DescribeLanguage | (string & {});
}

const defaultCreateXhr = (): XhrLike => new XMLHttpRequest();

export class ApiClient {
  readonly baseUrl: string;
  readonly limiter: RateLimiter;
  readonly health: NetworkHealth;
  readonly #apiKey: string;
  readonly #calls: CallRunner;

  constructor(options: ApiClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    const now = options.now ?? (() => Date.now());
    this.limiter = options.limiter ?? new RateLimiter({ now });
    this.health = options.health ?? new NetworkHealth({ now });
    const transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      // Looked up at call time (and called without a receiver) so a global fetch swapped by tests applies.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      createXhr: options.createXhr ?? defaultCreateXhr,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      now,
      limiter: this.limiter,
    });
    this.#calls = new CallRunner({
      transport,
      limiter: this.limiter,
      health: this.health,
      sleep: options.sleep,
      now,
      onRetry: options.onRetry,
    });
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
    const me = await this.#calls.run(
      { method: 'GET', path: '/me', group: 'me', repeatable: true, parse: parseWith(MeSchema) },
      options,
    );
    this.limiter.setLimits(me.limits);
    return me;
  }

  // ---- catalog -----------------------------------------------------------------------------------

  /** GET /models?type=&subtype= (api-notes §4: the query parameter is spelled `subtype`). */
  listModels(type: ModelType, subType: string, options: RequestOptions = {}): Promise<ListResult<Model>> {
    return this.#calls.run(
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
    return this.#calls.run(
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
    return this.#calls.run(
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
    return this.#calls.run(
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
    return this.#calls.run(
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
    return this.#calls.run(
      {
        method: 'POST',
        path: '/quote',
        group: 'quote',
        body: jsonBody(body),
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
    return this.#calls.run(
      {
        method: 'POST',
        path: '/tasks',
        group: 'tasks.create',
        body: jsonBody(body),
        headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
        repeatable: idempotencyKey !== undefined,
        parse: parseWith(TaskCreatedSchema),
      },
      options,
    );
  }

  getTask(id: string, options: RequestOptions = {}): Promise<Task> {
    return this.#calls.run(
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
      url: requestUrl(this.baseUrl, '/tasks'),
      headers: requestHeaders(
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
    return this.#calls.run(
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
    return this.#calls.run(
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
    return this.#calls.run(
      {
        method: 'POST',
        path: '/describe-image',
        group: 'describe',
        body: jsonBody(body),
        repeatable: false,
        parse: parseWith(ImageDescriptionSchema),
      },
      options,
    );
  }
}
