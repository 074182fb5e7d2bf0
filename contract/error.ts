import { z } from 'zod/mini';

// api-notes §7: every error has this shape; extra fields (validCategories, spent, cap, params, labels) pass through.
/**
 * @internal The sandbox types its errors by ErrorType below; the list itself is what the sandbox's HTTP
 * tests check every answer's `type` against (sandbox/test/harness.ts).
 */
export const ERROR_TYPES = [
  'authentication_error',
  'permission_error',
  'invalid_request_error',
  'rate_limit_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ErrorBodySchema = z.object({
  error: z.looseObject({
    message: z.string(),
    type: z.string(),
    code: z.string(),
    param: z.optional(z.string()),
  }),
});

/**
 * Every error code the studio may meet in an api-notes §7 body, with the HTTP statuses it comes with.
 * The sandbox sends no other (its SandboxError takes only these, each with one of its statuses), and the
 * studio's message table has an entry for each (src/api/errors.ts), both checked by the type checker.
 *
 * @internal Production code uses the types below; the list itself is walked by the tests that check
 * every code and status against both sides (src/api/errors-contract.test.ts).
 */
export const API_ERROR_STATUSES = {
  // api-notes §7 (and §4). Where the document gives one code two statuses, both are listed.
  invalid_payload: [400],
  missing_required_params: [400],
  invalid_idempotency_key: [400],
  unknown_model: [400, 404],
  invalid_type: [400],
  missing_token: [401],
  invalid_token: [401],
  token_daily_cap_exceeded: [402],
  token_daily_cap_reached: [402, 429],
  arrears: [402],
  insufficient_credits: [402],
  model_not_public: [403],
  account_banned: [403],
  token_project_unbound: [403, 422],
  unknown_ai_tool: [404],
  unknown_template: [404],
  unknown_task: [404],
  unknown_upload: [404],
  file_too_large: [413],
  moderation_blocked: [422, 451],
  policy_violation: [422],
  rate_limited: [429],
  upstream_rate_limited: [429],
  storage_upload_failed: [502],
  vision_unavailable: [503],
  // Not in api-notes §7: the code of a bare HTTP status, sent by gateways in front of the API
  // (bad_gateway, gateway_timeout) and by the sandbox for an unknown path, a body it will not read, a
  // byte range outside a file, a page origin it does not allow, an unexpected error, or a fault injected
  // for testing.
  not_found: [404],
  permission_denied: [403],
  conflict: [409],
  unprocessable: [422],
  internal_error: [500],
  bad_gateway: [502],
  service_unavailable: [503],
  gateway_timeout: [504],
  request_too_large: [413],
  unsupported_media_type: [415],
  range_not_satisfiable: [416],
  origin_not_allowed: [403],
  // A fault injected into the sandbox with a status none of its usual codes stands for.
  injected_fault: 'any',
} as const satisfies Record<string, readonly number[] | 'any'>;

export type ApiErrorCode = keyof typeof API_ERROR_STATUSES;

type Statuses = typeof API_ERROR_STATUSES;
/** The statuses a code may be sent with (any number for injected_fault). */
export type StatusOf<C extends ApiErrorCode> = Statuses[C] extends readonly number[]
  ? Statuses[C][number]
  : number;
