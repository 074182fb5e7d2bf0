import { z } from 'zod/mini';
import { ErrorBodySchema } from '../../contract/error';
import { formatList } from '../lib/format';

// The one error type of the API boundary ("Errors become one ApiError class"). Every failure the
// client can meet, an api-notes §7 error body, a body it cannot read, a dropped connection, a timeout or an
// abort, becomes an ApiError whose `message` and `remedy` come from one table keyed by code, written
// for a creator. Components never parse error JSON; they read `code`, `message`, `remedy`, `fieldErrors`.

/** Codes the client makes up itself when there is no api-notes §7 error body to read. */
export const CLIENT_ERROR_CODES = ['network_error', 'timeout', 'invalid_response', 'aborted'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Every code named in api-notes §7 (and 4), each with an entry in the message table. */
export const SPEC_ERROR_CODES = [
  'invalid_payload',
  'missing_required_params',
  'invalid_idempotency_key',
  'unknown_model',
  'invalid_type',
  'missing_token',
  'invalid_token',
  'token_daily_cap_exceeded',
  'token_daily_cap_reached',
  'arrears',
  'insufficient_credits',
  'model_not_public',
  'account_banned',
  'token_project_unbound',
  'unknown_ai_tool',
  'unknown_template',
  'unknown_task',
  'unknown_upload',
  'file_too_large',
  'moderation_blocked',
  'policy_violation',
  'rate_limited',
  'upstream_rate_limited',
  'storage_upload_failed',
  'vision_unavailable',
] as const;
export type SpecErrorCode = (typeof SPEC_ERROR_CODES)[number];

/**
 * Codes of a bare HTTP status, not in api-notes §7 but sent by gateways, by the studio's own proxy
 * (bad_gateway, gateway_timeout), and by the sandbox for an unknown path, an unexpected error or an
 * injected fault (sandbox/src/http/app.ts). Each has an entry too, so no code the sandbox can send
 * falls through to the server's bare text (errors-sandbox.test.ts checks this against its source).
 */
export type HttpErrorCode =
  | 'not_found'
  | 'permission_denied'
  | 'conflict'
  | 'unprocessable'
  | 'internal_error'
  | 'bad_gateway'
  | 'service_unavailable'
  | 'gateway_timeout'
  | 'injected_fault'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'range_not_satisfiable'
  | 'origin_not_allowed';

/**
 * api-notes §7 "503 (various): no enabled provider for the model" has no stable code; a 503 whose code is not
 * in the table is shown with this entry.
 */
export const NO_PROVIDER_CODE = 'no_enabled_provider';

/** The type given to failures made on the client side (the spec's type values describe server errors). */
const CLIENT_ERROR_TYPE = 'client_error';

export interface ApiErrorInit {
  status: number;
  code: string;
  type: string;
  param?: string;
  extra?: Record<string, unknown>;
  retryAfterSeconds?: number;
  /** The server's own message (already redacted), kept as detail; the table decides `message`. */
  serverMessage?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no response arrived (network failure, timeout, abort). */
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly param?: string;
  /** The other fields of the error object: validCategories, spent, cap, params, labels, balance, credits... */
  readonly extra: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds?: number;
  readonly serverMessage?: string;
  /** What the creator can do about it, when there is something to do. */
  readonly remedy?: string;

  constructor(init: ApiErrorInit) {
    const extra = init.extra ?? {};
    const text = describeError({
      status: init.status,
      code: init.code,
      param: init.param,
      extra,
      retryAfterSeconds: init.retryAfterSeconds,
      serverMessage: init.serverMessage,
    });
    super(text.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    if (init.param !== undefined) this.param = init.param;
    this.extra = extra;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.serverMessage !== undefined) this.serverMessage = init.serverMessage;
    if (text.remedy !== undefined) this.remedy = text.remedy;
  }
}

// ---------------------------------------------------------------------------------------------------
// Building errors

/** An api-notes §7 body whose fields are not quite as documented (e.g. param: null) is still read for its code. */
const LenientErrorBodySchema = z.object({
  error: z.looseObject({
    code: z.string().check(z.minLength(1)),
    message: z.catch(z.optional(z.string()), undefined),
    type: z.catch(z.optional(z.string()), undefined),
    param: z.catch(z.optional(z.string()), undefined),
  }),
});

const KEY_PATTERN = /\b[A-Za-z0-9]+_live_[A-Za-z0-9]{32}\b/g;

/**
 * product-notes §3: the key never appears in an error message. Server text is not ours, so anything that
 * looks like a key (prefix_live_ + 32 characters, api-notes §5) or equals the key in use is masked.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted key]');
  }
  return out.replace(KEY_PATTERN, '[redacted key]');
}

/** Retry-After is whole seconds (api-notes §7/§8); an HTTP date is accepted too, as HTTP allows it. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export interface ResponseErrorInput {
  status: number;
  /** The raw response text; may be empty or not JSON at all (a proxy's HTML page). */
  bodyText: string;
  retryAfterHeader?: string | null;
  /** Values to mask wherever server text is kept (the API key in use). */
  secrets?: readonly string[];
  now?: number;
}

/** Turns any non-2xx response into an ApiError (api-notes §7 body, or a body that cannot be read). */
export function errorFromResponse(input: ResponseErrorInput): ApiError {
  const { status, bodyText, secrets = [] } = input;
  let json: unknown;
  let isJson = true;
  try {
    json = JSON.parse(bodyText);
  } catch {
    isJson = false;
  }
  const headerSeconds = parseRetryAfter(input.retryAfterHeader, input.now);
  const strict = isJson ? ErrorBodySchema.safeParse(json) : undefined;
  const parsed = strict?.success
    ? strict.data
    : isJson
      ? LenientErrorBodySchema.safeParse(json).data
      : undefined;
  if (!parsed) {
    // A body that is not an api-notes §7 error still becomes an ApiError carrying the status.
    return new ApiError({
      status,
      code: 'invalid_response',
      type: status >= 500 ? 'api_error' : CLIENT_ERROR_TYPE,
      retryAfterSeconds: headerSeconds,
      extra: { body: redactSecrets(bodyText.slice(0, 200), secrets) },
    });
  }
  const { message, type, code, param, ...rest } = parsed.error;
  // Retry-After may be hidden from a browser by CORS; the sandbox also echoes it as error.retryAfter.
  const bodySeconds = z.number().check(z.nonnegative()).safeParse(rest.retryAfter);
  return new ApiError({
    status,
    code,
    type: type ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
    param,
    extra: rest,
    retryAfterSeconds: headerSeconds ?? (bodySeconds.success ? bodySeconds.data : undefined),
    serverMessage: message === undefined ? undefined : redactSecrets(message, secrets),
  });
}

/** A failure with no HTTP response: network_error, timeout or aborted (status 0). */
export function clientError(
  code: ClientErrorCode,
  cause?: unknown,
  extra?: Record<string, unknown>,
): ApiError {
  return new ApiError({ status: 0, code, type: CLIENT_ERROR_TYPE, cause, extra });
}

/** A 2xx response whose body does not match its schema, or is not JSON. */
export function invalidResponse(status: number, issues: unknown, cause?: unknown): ApiError {
  return new ApiError({
    status,
    code: 'invalid_response',
    type: CLIENT_ERROR_TYPE,
    extra: { issues },
    cause,
  });
}

export const abortError = (): ApiError => clientError('aborted');

/** Anything caught at the boundary, as an ApiError (an unexpected throw is shown as a network failure). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DOMException && error.name === 'AbortError') return abortError();
  return clientError('network_error', error);
}

// ---------------------------------------------------------------------------------------------------
// api-notes §7 retry guidance

/**
 * api-notes §7: retry connection failures without an HTTP status, 429 (honour Retry-After), 502, 503 and 504;
 * never other 4xx, 451 moderation_blocked or token_project_unbound (whatever its status).
 * Reading: token_daily_cap_reached is a quota, not a rate: its 429 Retry-After points at UTC midnight
 * and the same code is also documented as a 402, so it is not retried.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code === 'token_project_unbound' || error.code === 'token_daily_cap_reached') return false;
  if (error.status === 0) return error.code === 'network_error' || error.code === 'timeout';
  return error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504;
}

/**
 * Failures after which the request certainly had no effect on the server: 429 and 503 are refusals
 * (api-notes §7: rate limits, no provider, refunded describe-image failures). A dropped connection, a
 * timeout, 502 or 504 (a gateway giving up) may have reached the service. A charging POST without an
 * Idempotency-Key is retried only after these.
 */
export function provesNoEffect(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 429 || error.status === 503);
}

// ---------------------------------------------------------------------------------------------------
// Field errors

const MissingParamsSchema = z.array(z.looseObject({ id: z.string().check(z.minLength(1)) }));

/**
 * Server errors mapped back onto form fields (product-notes §3 "Server errors map back onto fields"):
 * each param of missing_required_params' error.params, and the one `param` of any other error.
 * Keys are param ids exactly as the API names them (they may contain dots).
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  if (error.code === 'missing_required_params') {
    const missing = MissingParamsSchema.safeParse(error.extra.params);
    for (const p of missing.success ? missing.data : []) out[p.id] = 'This field is required.';
    if (error.param !== undefined && out[error.param] === undefined)
      out[error.param] = 'This field is required.';
    return out;
  }
  if (error.param !== undefined) out[error.param] = error.serverMessage ?? error.message;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The message table

export interface ErrorContext {
  status: number;
  code: string;
  param?: string;
  extra: Readonly<Record<string, unknown>>;
  retryAfterSeconds?: number;
  serverMessage?: string;
}

export interface ErrorText {
  message: string;
  remedy?: string;
}

type Entry = (ctx: ErrorContext) => ErrorText;

const num = (value: unknown): number | undefined => {
  const r = z.number().safeParse(value);
  return r.success ? r.data : undefined;
};
const str = (value: unknown): string | undefined => {
  const r = z.string().check(z.minLength(1)).safeParse(value);
  return r.success ? r.data : undefined;
};
const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const field = (ctx: ErrorContext) => (ctx.param ? ` (field "${ctx.param}")` : '');

const missingIds = (ctx: ErrorContext): string[] => {
  const r = MissingParamsSchema.safeParse(ctx.extra.params);
  const ids = r.success ? r.data.map((p) => p.id) : [];
  if (ids.length === 0 && ctx.param) ids.push(ctx.param);
  return ids;
};

const notAvailable =
  (what: string, where: string): Entry =>
  () => ({
    message: `This ${what} is not available: it does not exist or has been disabled.`,
    remedy: `Choose another ${what} from the ${where}.`,
  });

const connectionRemedy = 'Check your internet connection and the Base URL, then try again.';
const troubleRemedy = 'The service may be having trouble; try again in a few minutes.';

/** A bare HTTP failure: the situation, with the server's own (redacted) words as detail when it gave any. */
const httpFailure =
  (situation: string, remedy: string): Entry =>
  (ctx) => ({
    message: ctx.serverMessage ? `${situation}: ${ctx.serverMessage}` : `${situation} (HTTP ${ctx.status}).`,
    remedy,
  });

/** Every code of api-notes §7, the client's own codes, and the 503 "no enabled provider" case. */
export const ERROR_TABLE: Record<
  SpecErrorCode | HttpErrorCode | ClientErrorCode | typeof NO_PROVIDER_CODE,
  Entry
> = {
  invalid_payload: (ctx) => ({
    message: ctx.serverMessage
      ? `The request was not accepted: ${ctx.serverMessage}`
      : `The request was not accepted${field(ctx)}.`,
    remedy: ctx.param
      ? `Correct the field "${ctx.param}" and try again.`
      : 'Correct the inputs and try again.',
  }),
  missing_required_params: (ctx) => {
    const ids = missingIds(ctx);
    return {
      message:
        ids.length > 0
          ? `Some required inputs are missing: ${formatList(ids)}.`
          : 'Some required inputs are missing.',
      remedy: 'Fill in the marked fields and submit again.',
    };
  },
  invalid_idempotency_key: () => ({
    message: 'The duplicate-protection key sent with this request was empty or too long.',
    remedy: 'Submit again: the studio will send a fresh key. If it keeps happening, reload the page.',
  }),
  // api-notes §7 lists unknown_model as a 400 in one place and a 404 in others: same text for both.
  unknown_model: notAvailable('model', 'catalog'),
  invalid_type: () => ({
    message: 'The catalog can only be filtered by Image or Video.',
    remedy: 'Choose All, Image or Video.',
  }),
  missing_token: () => ({
    message: 'No API key was sent with the request.',
    remedy: 'Paste your API key and connect.',
  }),
  invalid_token: () => ({
    message: 'This API key was not accepted: it is mistyped, revoked or expired.',
    remedy: 'Check the key, or create a new one in your account settings and connect with it.',
  }),
  token_daily_cap_exceeded: (ctx) => {
    const spent = num(ctx.extra.spent);
    const cap = num(ctx.extra.cap);
    const cost = num(ctx.extra.credits);
    const usage =
      spent !== undefined && cap !== undefined
        ? ` ${credits(spent)} of the key's daily cap of ${credits(cap)} are already spent today.`
        : '';
    return {
      message: `${cost !== undefined ? `This costs ${credits(cost)}, more` : 'This costs more'} than this key may still spend today.${usage}`,
      remedy:
        'Choose cheaper settings, wait for the cap to reset at midnight UTC, or raise the key’s daily cap.',
    };
  },
  // Listed as 402 in one place and 429 in another (api-notes §7): same text for both.
  token_daily_cap_reached: (ctx) => {
    const spent = num(ctx.extra.spent);
    const cap = num(ctx.extra.cap);
    return {
      message:
        cap !== undefined
          ? `This key has used its daily cap of ${credits(cap)}${spent !== undefined ? ` (${credits(spent)} spent today)` : ''}.`
          : 'This key has used its daily credit cap.',
      remedy:
        'The cap resets at midnight UTC. Raise the key’s daily cap or use another key to continue today.',
    };
  },
  arrears: () => ({
    message: 'Your account is in arrears, so nothing new can be charged.',
    remedy: 'Settle the outstanding balance in your account’s billing page, then try again.',
  }),
  insufficient_credits: (ctx) => {
    const balance = num(ctx.extra.balance);
    const cost = num(ctx.extra.credits);
    const detail =
      cost !== undefined && balance !== undefined
        ? ` This costs ${credits(cost)}; the balance is ${credits(balance)}.`
        : '';
    return {
      message: `There are not enough credits for this.${detail} Nothing was charged.`,
      remedy: 'Top up your credits, or choose cheaper settings.',
    };
  },
  model_not_public: () => ({
    message: 'This model is not offered through the API.',
    remedy: 'Choose another model from the catalog.',
  }),
  account_banned: () => ({
    message: 'The account that owns this key has been suspended, so the key cannot be used.',
    remedy: 'Contact support about the account.',
  }),
  // api-notes §5 item 8 / api-notes §7: shown as 403 in one place and 422 in another.
  token_project_unbound: () => ({
    message: 'The project this key was bound to has been deleted, so the key can no longer create anything.',
    remedy: 'Revoke this key and create a new one bound to an existing project (a key cannot be re-bound).',
  }),
  unknown_ai_tool: notAvailable('AI tool', 'catalog'),
  unknown_template: notAvailable('template', 'catalog'),
  unknown_task: () => ({
    message: 'This task was not found for the connected key.',
    remedy: 'A task is visible only to the key that created it: connect with that key to see it.',
  }),
  unknown_upload: () => ({
    message: 'This upload was not found for the connected key.',
    remedy:
      'An upload is visible only to the key that created it: connect with that key, or upload the file again.',
  }),
  file_too_large: () => ({
    message: 'The file is larger than the 100 MB limit.',
    remedy: 'Compress or shorten the file and upload it again.',
  }),
  moderation_blocked: (ctx) => {
    const labels = str(ctx.extra.labels);
    if (ctx.status === 451) {
      return {
        message: `The uploaded file was rejected by content moderation${
          labels ? ` (labels: ${formatList(labels.split(',').map((l) => l.trim()))})` : ''
        }.`,
        remedy: 'Use a different file.',
      };
    }
    return {
      message: 'The prompt was blocked by the content policy. Nothing was charged.',
      remedy: 'Change the prompt and try again.',
    };
  },
  policy_violation: () => ({
    message: 'The image could not be described: the vision model refused it. The credit was refunded.',
    remedy: 'Try a different image.',
  }),
  rate_limited: (ctx) => ({
    message: 'Too many requests were sent in the last minute.',
    remedy:
      ctx.retryAfterSeconds !== undefined
        ? `Wait ${Math.ceil(ctx.retryAfterSeconds)} s and try again.`
        : 'Wait a moment and try again.',
  }),
  upstream_rate_limited: () => ({
    message: 'The image description service is busy right now. The credit was refunded.',
    remedy: 'Try again in a minute.',
  }),
  storage_upload_failed: () => ({
    message: 'The file could not be stored by the service.',
    remedy: 'Upload it again.',
  }),
  vision_unavailable: () => ({
    message: 'The image description service is unavailable. The credit was refunded.',
    remedy: 'Try again later.',
  }),
  [NO_PROVIDER_CODE]: () => ({
    message: 'The service has no provider available for this model right now.',
    remedy: 'Try again later, or choose another model.',
  }),
  not_found: httpFailure(
    'The API has nothing at this address',
    'Check that the Base URL points at the API (it ends in /v1).',
  ),
  permission_denied: httpFailure(
    'This key is not permitted to do this',
    'Use a key with access to it, or ask the account owner.',
  ),
  conflict: httpFailure(
    'The request conflicts with the current state of the service',
    'Reload the page and try again.',
  ),
  unprocessable: httpFailure('The service could not process this request', 'Check the inputs and try again.'),
  internal_error: httpFailure('The service hit an internal error', troubleRemedy),
  bad_gateway: httpFailure(
    'A gateway in front of the API got no valid answer from it',
    'The studio retries on its own; if it persists, the service may be having trouble.',
  ),
  service_unavailable: httpFailure(
    'The service is temporarily unavailable',
    'The studio retries on its own; if it persists, try again in a few minutes.',
  ),
  gateway_timeout: httpFailure(
    'A gateway in front of the API gave up waiting for its answer',
    'The studio retries on its own; if it persists, the service may be slow or down.',
  ),
  injected_fault: httpFailure(
    'The sandbox answered with a fault injected for testing',
    'Clear the sandbox’s faults (DELETE /__sandbox/faults) or wait until they are used up.',
  ),
  request_too_large: httpFailure(
    'The request body is too large for the service',
    'Send fewer or shorter values (params allow 50 keys, strings of 2,000 characters, 20 items).',
  ),
  unsupported_media_type: httpFailure(
    'The service does not accept the content type of this request',
    'Send JSON with Content-Type: application/json.',
  ),
  range_not_satisfiable: httpFailure(
    'The requested byte range is outside the file',
    'Load the file again from its start.',
  ),
  origin_not_allowed: httpFailure(
    'The service refused a call from this page’s origin',
    'Open the studio from an origin the service allows (the sandbox allows the studio it was started with).',
  ),
  network_error: () => ({
    message: 'The API could not be reached.',
    remedy: connectionRemedy,
  }),
  timeout: () => ({
    message: 'The API did not answer in time.',
    remedy: connectionRemedy,
  }),
  invalid_response: (ctx) =>
    ctx.status >= 500
      ? {
          message: `The service answered with an error (HTTP ${ctx.status}) the studio could not read.`,
          remedy: 'The service may be having trouble; try again in a few minutes.',
        }
      : {
          message:
            ctx.status >= 400
              ? `The API answered with an error (HTTP ${ctx.status}) the studio could not read.`
              : 'The API sent a response the studio could not read.',
          remedy: 'Check that the Base URL points at the API (it ends in /v1).',
        },
  aborted: () => ({
    message: 'The request was cancelled.',
    remedy: 'Run it again when you are ready.',
  }),
};

const hasEntry = (code: string): code is keyof typeof ERROR_TABLE => Object.hasOwn(ERROR_TABLE, code);

/** Remedies by status for codes the table does not know (the server may add codes). */
const fallbackRemedy = (status: number): string | undefined => {
  if (status === 401) return ERROR_TABLE.invalid_token({ status, code: '', extra: {} }).remedy;
  if (status === 429) return 'Wait a moment and try again.';
  if (status >= 500) return troubleRemedy;
  return undefined;
};

/** The plain-language message and remedy for an error, from the table; unknown codes keep the server's message. */
export function describeError(ctx: ErrorContext): ErrorText {
  if (hasEntry(ctx.code)) return ERROR_TABLE[ctx.code](ctx);
  if (ctx.status === 503) return ERROR_TABLE[NO_PROVIDER_CODE](ctx);
  return {
    message: ctx.serverMessage ?? `The API returned an error (HTTP ${ctx.status}, ${ctx.code}).`,
    remedy: fallbackRemedy(ctx.status),
  };
}
