import { z } from 'zod/mini';
import { ErrorBodySchema, type ApiErrorCode } from '../../contract/error';
import { t } from '@lingui/core/macro';
import { formatCount, formatCredits, formatList } from '../lib/format';

// The one error type of the API boundary ("Errors become one ApiError class"). Every failure the
// client can meet, an api-notes §7 error body, a body it cannot read, a dropped connection, a timeout or an
// abort, becomes an ApiError whose `message` and `remedy` come from one table keyed by code, written
// for a creator and translated (docs/i18n.md); the service's own words stay apart, in `serverMessage`.
// Components never parse error JSON; they read `code`, `message`, `remedy`, `serverMessage`, `fieldErrors`.

/** Codes the client makes up itself when there is no api-notes §7 error body to read. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response' | 'aborted';

/**
 * api-notes §7 "503 (various): no enabled provider for the model" has no stable code; a 503 whose code is not
 * in the table is shown with this entry.
 */
const NO_PROVIDER_CODE = 'no_enabled_provider';

/** The type given to failures made on the client side (the spec's type values describe server errors). */
const CLIENT_ERROR_TYPE = 'client_error';

export interface ApiErrorInit {
  status: number;
  code: string;
  type: string;
  param?: string;
  extra?: Record<string, unknown>;
  retryAfterSeconds?: number;
  /** The server's own message (already redacted), kept as sent; the table decides `message`. */
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
  /**
   * The service's own message (already redacted), as it sent it: never translated, never part of
   * `message`; shown beside the studio's explanation (components/service-message.tsx).
   */
  readonly serverMessage?: string;

  constructor(init: ApiErrorInit) {
    // No message of its own: `message` is read from the table, in the language of the moment.
    super(undefined, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    if (init.param !== undefined) this.param = init.param;
    this.extra = init.extra ?? {};
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.serverMessage !== undefined) this.serverMessage = init.serverMessage;
  }

  private text(): ErrorText {
    return describeError(this);
  }

  /** The studio's explanation, for a creator, in the studio's current language. */
  override get message(): string {
    return this.text().message;
  }

  /** What the creator can do about it, when there is something to do (studio's current language). */
  get remedy(): string | undefined {
    return this.text().remedy;
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
// What stands for a key inside the service's own message, which is shown as sent, in its language
// (docs/i18n.md): the mask reads in that message's words, not the studio's.
const REDACTED_KEY = '[redacted key]';

/**
 * product-notes §3: the key never appears in an error message. Server text is not ours, so anything that
 * looks like a key (prefix_live_ + 32 characters, api-notes §5) or equals the key in use is masked.
 */
function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join(REDACTED_KEY);
  }
  return out.replace(KEY_PATTERN, REDACTED_KEY);
}

/** Retry-After is whole seconds (api-notes §7/§8); an HTTP date is accepted too, as HTTP allows it. */
function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
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
    const required = t`This field is required.`;
    for (const p of missing.success ? missing.data : []) out[p.id] = required;
    if (error.param !== undefined && out[error.param] === undefined) out[error.param] = required;
    return out;
  }
  if (error.param !== undefined) out[error.param] = error.serverMessage ?? error.message;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The message table
//
// The studio's own words, in the studio's language (docs/i18n.md): every entry calls `t` when it runs,
// and ApiError runs its entry each time `message` or `remedy` is read, so an error shown after the
// language changed reads in the new one. The service's own `message` is never mixed in: it is kept as
// `serverMessage` and shown as sent, beside this text (components/service-message.tsx).

interface ErrorContext {
  status: number;
  code: string;
  param?: string;
  extra: Readonly<Record<string, unknown>>;
  retryAfterSeconds?: number;
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

const missingIds = (ctx: ErrorContext): string[] => {
  const r = MissingParamsSchema.safeParse(ctx.extra.params);
  const ids = r.success ? r.data.map((p) => p.id) : [];
  if (ids.length === 0 && ctx.param) ids.push(ctx.param);
  return ids;
};

const connectionRemedy = () => t`Check your internet connection and the Base URL, then try again.`;
const troubleRemedy = () => t`The service may be having trouble; try again in a few minutes.`;
const baseUrlRemedy = () => t`Check that the Base URL points at the API (it ends in /v1).`;
const waitRemedy = () => t`Wait a moment and try again.`;

/** token_daily_cap_exceeded: what it costs and what is spent, each when the service said it. */
function capExceededMessage(ctx: ErrorContext): string {
  const spentN = num(ctx.extra.spent);
  const capN = num(ctx.extra.cap);
  const costN = num(ctx.extra.credits);
  if (spentN !== undefined && capN !== undefined) {
    const spent = formatCredits(spentN);
    const cap = formatCredits(capN);
    if (costN !== undefined) {
      const cost = formatCredits(costN);
      return t`This costs ${cost}, more than this key may still spend today. ${spent} of the key's daily cap of ${cap} are already spent today.`;
    }
    return t`This costs more than this key may still spend today. ${spent} of the key's daily cap of ${cap} are already spent today.`;
  }
  if (costN !== undefined) {
    const cost = formatCredits(costN);
    return t`This costs ${cost}, more than this key may still spend today.`;
  }
  return t`This costs more than this key may still spend today.`;
}

function capReachedMessage(ctx: ErrorContext): string {
  const spentN = num(ctx.extra.spent);
  const capN = num(ctx.extra.cap);
  if (capN === undefined) return t`This key has used its daily credit cap.`;
  const cap = formatCredits(capN);
  if (spentN === undefined) return t`This key has used its daily cap of ${cap}.`;
  const spent = formatCredits(spentN);
  return t`This key has used its daily cap of ${cap} (${spent} spent today).`;
}

/**
 * Every code of the contract's table (contract/error.ts: api-notes §7 and the codes of a bare status the
 * sandbox and gateways send), the client's own codes, and the 503 "no enabled provider" case. A code
 * added to the contract without an entry here fails the type check.
 */
const ERROR_TABLE: Record<ApiErrorCode | ClientErrorCode | typeof NO_PROVIDER_CODE, Entry> = {
  invalid_payload: ({ param }) =>
    param
      ? {
          message: t`The request was not accepted (field "${param}").`,
          remedy: t`Correct the field "${param}" and try again.`,
        }
      : { message: t`The request was not accepted.`, remedy: t`Correct the inputs and try again.` },
  missing_required_params: (ctx) => {
    const ids = missingIds(ctx);
    const fields = formatList(ids);
    return {
      message:
        ids.length > 0
          ? t`Some required inputs are missing: ${fields}.`
          : t`Some required inputs are missing.`,
      remedy: t`Fill in the marked fields and submit again.`,
    };
  },
  invalid_idempotency_key: () => ({
    message: t`The duplicate-protection key sent with this request was empty or too long.`,
    remedy: t`Submit again: the studio will send a fresh key. If it keeps happening, reload the page.`,
  }),
  // api-notes §7 lists unknown_model as a 400 in one place and a 404 in others: same text for both.
  unknown_model: () => ({
    message: t`This model is not available: it does not exist or has been disabled.`,
    remedy: t`Choose another model from the catalog.`,
  }),
  invalid_type: () => ({
    message: t`The catalog can only be filtered by Image or Video.`,
    remedy: t`Choose All, Image or Video.`,
  }),
  missing_token: () => ({
    message: t`No API key was sent with the request.`,
    remedy: t`Paste your API key and connect.`,
  }),
  invalid_token: () => ({
    message: t`This API key was not accepted: it is mistyped, revoked or expired.`,
    remedy: t`Check the key, or create a new one in your account settings and connect with it.`,
  }),
  token_daily_cap_exceeded: (ctx) => ({
    message: capExceededMessage(ctx),
    remedy: t`Choose cheaper settings, wait for the cap to reset at midnight UTC, or raise the key’s daily cap.`,
  }),
  // Listed as 402 in one place and 429 in another (api-notes §7): same text for both.
  token_daily_cap_reached: (ctx) => ({
    message: capReachedMessage(ctx),
    remedy: t`The cap resets at midnight UTC. Raise the key’s daily cap or use another key to continue today.`,
  }),
  arrears: () => ({
    message: t`Your account is in arrears, so nothing new can be charged.`,
    remedy: t`Settle the outstanding balance in your account’s billing page, then try again.`,
  }),
  insufficient_credits: (ctx) => {
    const balanceN = num(ctx.extra.balance);
    const costN = num(ctx.extra.credits);
    let message = t`There are not enough credits for this. Nothing was charged.`;
    if (costN !== undefined && balanceN !== undefined) {
      const cost = formatCredits(costN);
      const balance = formatCredits(balanceN);
      message = t`There are not enough credits for this. This costs ${cost}; the balance is ${balance}. Nothing was charged.`;
    }
    return { message, remedy: t`Top up your credits, or choose cheaper settings.` };
  },
  model_not_public: () => ({
    message: t`This model is not offered through the API.`,
    remedy: t`Choose another model from the catalog.`,
  }),
  account_banned: () => ({
    message: t`The account that owns this key has been suspended, so the key cannot be used.`,
    remedy: t`Contact support about the account.`,
  }),
  // api-notes §5 item 8 / api-notes §7: shown as 403 in one place and 422 in another.
  token_project_unbound: () => ({
    message: t`The project this key was bound to has been deleted, so the key can no longer create anything.`,
    remedy: t`Revoke this key and create a new one bound to an existing project (a key cannot be re-bound).`,
  }),
  unknown_ai_tool: () => ({
    message: t`This AI tool is not available: it does not exist or has been disabled.`,
    remedy: t`Choose another AI tool from the catalog.`,
  }),
  unknown_template: () => ({
    message: t`This template is not available: it does not exist or has been disabled.`,
    remedy: t`Choose another template from the catalog.`,
  }),
  unknown_task: () => ({
    message: t`This task was not found for the connected key.`,
    remedy: t`A task is visible only to the key that created it: connect with that key to see it.`,
  }),
  unknown_upload: () => ({
    message: t`This upload was not found for the connected key.`,
    remedy: t`An upload is visible only to the key that created it: connect with that key, or upload the file again.`,
  }),
  file_too_large: () => ({
    message: t`The file is larger than the 100 MB limit.`,
    remedy: t`Compress or shorten the file and upload it again.`,
  }),
  moderation_blocked: (ctx) => {
    if (ctx.status === 451) {
      const found = str(ctx.extra.labels);
      const labels = found ? formatList(found.split(',').map((l) => l.trim())) : undefined;
      return {
        message: labels
          ? t`The uploaded file was rejected by content moderation (labels: ${labels}).`
          : t`The uploaded file was rejected by content moderation.`,
        remedy: t`Use a different file.`,
      };
    }
    return {
      message: t`The prompt was blocked by the content policy. Nothing was charged.`,
      remedy: t`Change the prompt and try again.`,
    };
  },
  policy_violation: () => ({
    message: t`The image could not be described: the vision model refused it. The credit was refunded.`,
    remedy: t`Try a different image.`,
  }),
  rate_limited: (ctx) => {
    const seconds =
      ctx.retryAfterSeconds === undefined ? undefined : formatCount(Math.ceil(ctx.retryAfterSeconds));
    return {
      message: t`Too many requests were sent in the last minute.`,
      remedy: seconds === undefined ? waitRemedy() : t`Wait ${seconds} s and try again.`,
    };
  },
  upstream_rate_limited: () => ({
    message: t`The image description service is busy right now. The credit was refunded.`,
    remedy: t`Try again in a minute.`,
  }),
  storage_upload_failed: () => ({
    message: t`The file could not be stored by the service.`,
    remedy: t`Upload it again.`,
  }),
  vision_unavailable: () => ({
    message: t`The image description service is unavailable. The credit was refunded.`,
    remedy: t`Try again later.`,
  }),
  [NO_PROVIDER_CODE]: () => ({
    message: t`The service has no provider available for this model right now.`,
    remedy: t`Try again later, or choose another model.`,
  }),
  // A bare HTTP failure: the situation and its status; the service's own words, when it gave any, are
  // shown beside it as sent.
  not_found: ({ status }) => ({
    message: t`The API has nothing at this address (HTTP ${status}).`,
    remedy: baseUrlRemedy(),
  }),
  permission_denied: ({ status }) => ({
    message: t`This key is not permitted to do this (HTTP ${status}).`,
    remedy: t`Use a key with access to it, or ask the account owner.`,
  }),
  conflict: ({ status }) => ({
    message: t`The request conflicts with the current state of the service (HTTP ${status}).`,
    remedy: t`Reload the page and try again.`,
  }),
  unprocessable: ({ status }) => ({
    message: t`The service could not process this request (HTTP ${status}).`,
    remedy: t`Check the inputs and try again.`,
  }),
  internal_error: ({ status }) => ({
    message: t`The service hit an internal error (HTTP ${status}).`,
    remedy: troubleRemedy(),
  }),
  bad_gateway: ({ status }) => ({
    message: t`A gateway in front of the API got no valid answer from it (HTTP ${status}).`,
    remedy: t`The studio retries on its own; if it persists, the service may be having trouble.`,
  }),
  service_unavailable: ({ status }) => ({
    message: t`The service is temporarily unavailable (HTTP ${status}).`,
    remedy: t`The studio retries on its own; if it persists, try again in a few minutes.`,
  }),
  gateway_timeout: ({ status }) => ({
    message: t`A gateway in front of the API gave up waiting for its answer (HTTP ${status}).`,
    remedy: t`The studio retries on its own; if it persists, the service may be slow or down.`,
  }),
  injected_fault: ({ status }) => ({
    message: t`The sandbox answered with a fault injected for testing (HTTP ${status}).`,
    remedy: t`Clear the sandbox’s faults (DELETE /__sandbox/faults) or wait until they are used up.`,
  }),
  request_too_large: ({ status }) => ({
    message: t`The request body is too large for the service (HTTP ${status}).`,
    remedy: t`Send fewer or shorter values (params allow 50 keys, strings of 2,000 characters, 20 items).`,
  }),
  unsupported_media_type: ({ status }) => ({
    message: t`The service does not accept the content type of this request (HTTP ${status}).`,
    remedy: t`Send JSON with Content-Type: application/json.`,
  }),
  range_not_satisfiable: ({ status }) => ({
    message: t`The requested byte range is outside the file (HTTP ${status}).`,
    remedy: t`Load the file again from its start.`,
  }),
  origin_not_allowed: ({ status }) => ({
    message: t`The service refused a call from this page’s origin (HTTP ${status}).`,
    remedy: t`Open the studio from an origin the service allows (the sandbox allows the studio it was started with).`,
  }),
  network_error: () => ({
    message: t`The API could not be reached.`,
    remedy: connectionRemedy(),
  }),
  timeout: () => ({
    message: t`The API did not answer in time.`,
    remedy: connectionRemedy(),
  }),
  invalid_response: ({ status }) => {
    if (status >= 500)
      return {
        message: t`The service answered with an error (HTTP ${status}) the studio could not read.`,
        remedy: troubleRemedy(),
      };
    return {
      message:
        status >= 400
          ? t`The API answered with an error (HTTP ${status}) the studio could not read.`
          : t`The API sent a response the studio could not read.`,
      remedy: baseUrlRemedy(),
    };
  },
  aborted: () => ({
    message: t`The request was cancelled.`,
    remedy: t`Run it again when you are ready.`,
  }),
};

const hasEntry = (code: string): code is keyof typeof ERROR_TABLE => Object.hasOwn(ERROR_TABLE, code);

/** Remedies by status for codes the table does not know (the server may add codes). */
const fallbackRemedy = (status: number): string | undefined => {
  if (status === 401) return ERROR_TABLE.invalid_token({ status, code: '', extra: {} }).remedy;
  if (status === 429) return waitRemedy();
  if (status >= 500) return troubleRemedy();
  return undefined;
};

/**
 * The studio's message and remedy for an error, from the table, in the studio's current language. A code
 * the table does not know gets a general message naming its status and code; the service's own words are
 * shown beside it (ApiError.serverMessage).
 *
 * @internal ApiError reads its text through this; it is exported for the tests of screens that show an
 * error's text and compare it with the table's (features/describe).
 */
export function describeError(ctx: ErrorContext): ErrorText {
  if (hasEntry(ctx.code)) return ERROR_TABLE[ctx.code](ctx);
  if (ctx.status === 503) return ERROR_TABLE[NO_PROVIDER_CODE](ctx);
  const { status, code } = ctx;
  return {
    message: t`The API returned an error (HTTP ${status}, ${code}).`,
    remedy: fallbackRemedy(status),
  };
}
