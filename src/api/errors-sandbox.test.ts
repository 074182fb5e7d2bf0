import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE, errorFromResponse } from './errors';

// The message table checked against the sandbox, not against itself (api-notes §7): every error code the
// sandbox's source can send has an entry of its own, and each message names that code's situation, in
// the words of api-notes §7's "Cause" column. A code added to the sandbox without an entry here fails this.

const SANDBOX_SRC = join(process.cwd(), 'sandbox', 'src');

/** Every .ts file of the sandbox's source (its tests left out). */
function sandboxSources(): Array<{ file: string; text: string }> {
  return (readdirSync(SANDBOX_SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(SANDBOX_SRC, f), 'utf8') }));
}

/**
 * The codes of the sandbox's API errors, with their statuses: every `new SandboxError(status, 'code'`,
 * every refunded describe-image failure `refunded(status, 'code'`, and the codes its fault injection
 * gives a bare status (the STATUS_CODES table and its 'injected_fault' fallback).
 */
function sandboxCodes(): Map<string, Set<string>> {
  const codes = new Map<string, Set<string>>();
  const add = (code: string, status: string, file: string) => {
    const where = codes.get(code) ?? new Set<string>();
    where.add(`${status} in ${file}`);
    codes.set(code, where);
  };
  for (const { file, text } of sandboxSources()) {
    for (const m of text.matchAll(/\b(?:SandboxError|refunded)\(\s*(\w+)\s*,\s*'([a-z][a-z0-9_]*)'/g)) {
      add(m[2]!, m[1]!, file);
    }
    // Fault injection: `const STATUS_CODES: Record<number, string> = { 400: 'invalid_payload', ... }`.
    const table = /STATUS_CODES[^=]*=\s*\{([^}]*)\}/.exec(text);
    for (const m of table?.[1]!.matchAll(/(\d{3}):\s*'([a-z][a-z0-9_]*)'/g) ?? []) add(m[2]!, m[1]!, file);
    for (const m of text.matchAll(/\?\?\s*'([a-z][a-z0-9_]*_fault)'/g)) add(m[1]!, 'any', file);
  }
  return codes;
}

/** Codes only the control API (/__sandbox/*) sends: the studio never calls it with a key. */
const CONTROL_ONLY = new Set(['not_supported']);

/**
 * What each code's message must say: its situation, as api-notes §7 states the cause (or, for the bare HTTP
 * codes, what the status means). One pattern per code: a code added without one fails below.
 */
const SITUATION: Record<string, RegExp> = {
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

describe('the message table against the sandbox’s codes', () => {
  const codes = sandboxCodes();
  const apiCodes = [...codes.keys()].filter((c) => !CONTROL_ONLY.has(c)).sort();

  it('finds the sandbox’s codes (the scan itself works)', () => {
    // A few from each way the sandbox makes errors: a plain throw, a multi-line throw, a refund, a fault.
    for (const code of ['unknown_task', 'insufficient_credits', 'policy_violation', 'gateway_timeout']) {
      expect(apiCodes, code).toContain(code);
    }
    expect(apiCodes.length).toBeGreaterThanOrEqual(30);
  });

  it('has an entry of its own for every code the sandbox can send', () => {
    const missing = apiCodes.filter((code) => !Object.hasOwn(ERROR_TABLE, code));
    expect(
      missing,
      `codes without an entry: ${missing.map((c) => `${c} (${[...codes.get(c)!].join(', ')})`).join('; ')}`,
    ).toEqual([]);
  });

  for (const code of apiCodes) {
    it(`${code}: the message names its situation, in the table's words, not the server's`, () => {
      const situation = SITUATION[code];
      expect(situation, `no situation written for ${code}`).toBeDefined();
      const statuses = [...codes.get(code)!]
        .map((w) => Number(w.split(' ')[0]))
        .filter((n) => Number.isInteger(n) && n >= 400);
      for (const status of statuses.length > 0 ? statuses : [500]) {
        const error = asReceived(status, code);
        expect(error.message, `${status} ${code}`).toMatch(situation!);
        expect(error.remedy, `${status} ${code}: a remedy`).toBeTruthy();
        // Not the fallback for codes the studio does not know.
        expect(error.message).not.toMatch(/^The API returned an error/);
      }
    });
  }

  it('no two codes share a message (a copied entry would)', () => {
    const byMessage = new Map<string, string[]>();
    for (const code of apiCodes) {
      const status = Number([...codes.get(code)!][0]!.split(' ')[0]) || 500;
      const { message } = asReceived(status, code);
      byMessage.set(message, [...(byMessage.get(message) ?? []), code]);
    }
    const shared = [...byMessage.values()].filter((c) => c.length > 1);
    expect(shared).toEqual([]);
  });
});
