import { describe, expect, it } from 'vitest';
import { API_ERROR_STATUSES, type ApiErrorCode } from '../../contract/error';
import { errorFromResponse } from './errors';

// The message table checked against the contract's table of codes (contract/error.ts), which the sandbox
// is held to by the type checker (its SandboxError takes only those codes, each with its own statuses):
// every code under every status it comes with has an entry of its own, and each message names that
// code's situation, in the words of api-notes §7's "Cause" column.

/**
 * What each code's message must say: its situation, as api-notes §7 states the cause (or, for the bare HTTP
 * codes, what the status means). One pattern per code: a code added without one fails below.
 */
const SITUATION: Record<ApiErrorCode, RegExp> = {
  invalid_payload: /not accepted/,
  missing_required_params: /required inputs are missing/,
  invalid_idempotency_key: /duplicate-protection key .*empty or too long/,
  unknown_model: /model is not available: it does not exist or has been disabled/,
  invalid_type: /filtered by Image or Video/,
  missing_token: /No API key was sent/,
  invalid_token: /key was not accepted: it is mistyped, revoked or expired/,
  token_daily_cap_exceeded: /more than this key may still spend today/,
  token_daily_cap_reached: /used its daily (credit )?cap/,
  arrears: /account is in arrears/,
  insufficient_credits: /not enough credits/,
  model_not_public: /model is not offered through the API/,
  account_banned: /account .* has been suspended/,
  token_project_unbound: /project this key was bound to has been deleted/,
  unknown_ai_tool: /AI tool is not available/,
  unknown_template: /template is not available/,
  unknown_task: /task was not found for the connected key/,
  unknown_upload: /upload was not found for the connected key/,
  file_too_large: /larger than the 100 MB limit/,
  moderation_blocked: /(blocked by the content policy|rejected by content moderation)/,
  policy_violation: /vision model refused it/,
  rate_limited: /Too many requests/,
  upstream_rate_limited: /description service is busy/,
  storage_upload_failed: /could not be stored/,
  vision_unavailable: /description service is unavailable/,
  not_found: /nothing at this address/,
  permission_denied: /not permitted/,
  conflict: /conflicts with the current state/,
  unprocessable: /could not process this request/,
  internal_error: /internal error/,
  bad_gateway: /gateway .* got no valid answer/,
  service_unavailable: /temporarily unavailable/,
  gateway_timeout: /gateway .* gave up waiting/,
  injected_fault: /fault injected for testing/,
  request_too_large: /request body is too large/,
  unsupported_media_type: /does not accept the content type/,
  range_not_satisfiable: /byte range is outside the file/,
  origin_not_allowed: /refused a call from this page’s origin/,
};

const typeFor = (status: number) =>
  status === 401
    ? 'authentication_error'
    : status === 403
      ? 'permission_error'
      : status === 429
        ? 'rate_limit_error'
        : status >= 500
          ? 'api_error'
          : 'invalid_request_error';

/** The error as the studio reads it from a sandbox-shaped body with the sandbox's own words. */
const asReceived = (status: number, code: string) =>
  errorFromResponse({
    status,
    bodyText: JSON.stringify({
      error: { message: `Sandbox text for ${code}.`, type: typeFor(status), code },
    }),
  });

const CODES = Object.keys(API_ERROR_STATUSES) as ApiErrorCode[];

/** The statuses to try a code under: its own, or one of each class for a code sent with any status. */
const statusesOf = (code: ApiErrorCode): readonly number[] => {
  const statuses = API_ERROR_STATUSES[code];
  return statuses === 'any' ? [400, 418, 500] : statuses;
};

describe('the message table against the contract’s codes', () => {
  it('reads the contract’s table (api-notes §7 and the codes of a bare status)', () => {
    for (const code of ['unknown_task', 'insufficient_credits', 'policy_violation', 'gateway_timeout']) {
      expect(CODES).toContain(code);
    }
    expect(CODES.length).toBeGreaterThanOrEqual(30);
  });

  for (const code of CODES) {
    it(`${code}: the message names its situation, in the table's words, not the server's`, () => {
      for (const status of statusesOf(code)) {
        const error = asReceived(status, code);
        expect(error.message, `${status} ${code}`).toMatch(SITUATION[code]);
        expect(error.remedy, `${status} ${code}: a remedy`).toBeTruthy();
        // Not the fallback for codes the studio does not know.
        expect(error.message).not.toMatch(/^The API returned an error/);
      }
    });
  }

  it('no two codes share a message (a copied entry would)', () => {
    const byMessage = new Map<string, string[]>();
    for (const code of CODES) {
      const { message } = asReceived(statusesOf(code)[0]!, code);
      byMessage.set(message, [...(byMessage.get(message) ?? []), code]);
    }
    const shared = [...byMessage.values()].filter((c) => c.length > 1);
    expect(shared).toEqual([]);
  });
});
