import { describe, expect, it } from 'vitest';
import { API_ERROR_STATUSES, type ApiErrorCode } from '../../contract/error';
import { ApiError, clientError, errorFromResponse, fieldErrors, isRetryable, toApiError } from './errors';
import { activateEnglishForTests, activateTestCatalog } from '../test/test-catalog';

const KEY = 'gm_live_0123456789abcdefghijklmnopqrstuv';
const OTHER_KEY = 'sk_live_ZYXWVUTSRQPONMLKJIHGFEDCBA987654';

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

const fromServer = (
  status: number,
  code: string,
  fields: Record<string, unknown> = {},
  serverMessage = `Server says ${code} for key ${KEY}.`,
  retryAfter?: string,
) =>
  errorFromResponse({
    status,
    bodyText: JSON.stringify({ error: { message: serverMessage, type: typeFor(status), code, ...fields } }),
    retryAfterHeader: retryAfter ?? null,
    secrets: [KEY],
  });

/** The codes of api-notes §7 (the contract's table also holds the codes of a bare HTTP status). */
type SpecErrorCode = Exclude<
  ApiErrorCode,
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
  | 'origin_not_allowed'
>;

// Every code of api-notes §7 with each status it is documented under, and the extra fields it carries.
const CASES: Record<SpecErrorCode, Array<{ status: number; fields?: Record<string, unknown> }>> = {
  invalid_payload: [{ status: 400, fields: { param: 'prompt' } }, { status: 400 }],
  missing_required_params: [
    {
      status: 400,
      fields: { param: 'image_url', params: [{ id: 'image_url', type: 'image_url', required: true }] },
    },
  ],
  invalid_idempotency_key: [{ status: 400 }],
  unknown_model: [{ status: 400 }, { status: 404 }],
  invalid_type: [{ status: 400, fields: { param: 'type' } }],
  missing_token: [{ status: 401 }],
  invalid_token: [{ status: 401 }],
  token_daily_cap_exceeded: [{ status: 402, fields: { spent: 40, cap: 50, credits: 12 } }],
  token_daily_cap_reached: [
    { status: 402, fields: { spent: 50, cap: 50 } },
    { status: 429, fields: { spent: 50, cap: 50 } },
  ],
  arrears: [{ status: 402 }],
  insufficient_credits: [{ status: 402, fields: { balance: 0, credits: 1 } }],
  model_not_public: [{ status: 403 }],
  account_banned: [{ status: 403 }],
  token_project_unbound: [{ status: 403 }, { status: 422 }],
  unknown_ai_tool: [{ status: 404 }],
  unknown_template: [{ status: 404 }],
  unknown_task: [{ status: 404 }],
  unknown_upload: [{ status: 404 }],
  file_too_large: [{ status: 413 }],
  moderation_blocked: [
    { status: 422, fields: { param: 'prompt' } },
    { status: 451, fields: { labels: 'nudity,violence' } },
  ],
  policy_violation: [{ status: 422 }],
  rate_limited: [{ status: 429 }],
  upstream_rate_limited: [{ status: 429 }],
  storage_upload_failed: [{ status: 502 }],
  vision_unavailable: [{ status: 503 }],
};

describe('the message table', () => {
  it('covers each api-notes §7 code under exactly the statuses the contract lists for it', () => {
    for (const code of Object.keys(CASES) as SpecErrorCode[]) {
      const statuses = [...new Set(CASES[code].map((c) => c.status))];
      expect(statuses, code).toEqual(API_ERROR_STATUSES[code]);
    }
  });

  for (const code of Object.keys(CASES) as SpecErrorCode[]) {
    for (const { status, fields } of CASES[code]) {
      it(`${status} ${code}: plain message and remedy from the table, no key`, () => {
        const error = fromServer(status, code, fields);
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toBeInstanceOf(Error);
        expect(error.status).toBe(status);
        expect(error.code).toBe(code);
        expect(error.type).toBe(typeFor(status));
        expect(error.message.length).toBeGreaterThan(10);
        expect(error.remedy?.length ?? 0).toBeGreaterThan(5);
        // The table decides the wording; the server's text is kept apart (and redacted).
        expect(error.message).not.toMatch(/^Server says/);
        for (const text of [error.message, error.remedy ?? '', error.serverMessage ?? '']) {
          expect(text).not.toContain(KEY);
          expect(text).not.toContain('_live_');
        }
        expect(error.serverMessage).toBe(`Server says ${code} for key [redacted key].`);
      });
    }
  }

  it('uses spent and cap in token_daily_cap_exceeded', () => {
    const error = fromServer(402, 'token_daily_cap_exceeded', { spent: 40, cap: 50, credits: 12 });
    expect(error.message).toContain('40 credits');
    expect(error.message).toContain('50 credits');
    expect(error.message).toContain('12 credits');
    expect(error.extra).toMatchObject({ spent: 40, cap: 50, credits: 12 });
  });

  it('reads token_daily_cap_reached the same as 402 and 429', () => {
    const a = fromServer(402, 'token_daily_cap_reached', { spent: 50, cap: 50 });
    const b = fromServer(429, 'token_daily_cap_reached', { spent: 50, cap: 50 });
    expect(a.message).toBe(b.message);
    expect(a.message).toContain('50 credits');
    expect(a.remedy).toContain('midnight UTC');
  });

  it('reads unknown_model the same as 400 and 404', () => {
    expect(fromServer(400, 'unknown_model').message).toBe(fromServer(404, 'unknown_model').message);
  });

  it('tells to revoke and recreate the key for token_project_unbound (403 or 422)', () => {
    for (const status of [403, 422]) {
      const error = fromServer(status, 'token_project_unbound');
      expect(error.remedy).toMatch(/revoke/i);
      expect(error.remedy).toMatch(/create a new one/i);
    }
  });

  it('moderation_blocked: 422 asks to change the prompt, 451 shows the upload labels', () => {
    const text = fromServer(422, 'moderation_blocked', { param: 'prompt', labels: 'policy:x' });
    expect(text.remedy).toMatch(/change the prompt/i);
    expect(text.message).toMatch(/prompt/);
    const upload = fromServer(451, 'moderation_blocked', { labels: 'nudity,violence' });
    expect(upload.message).toContain('nudity, violence');
    expect(upload.remedy).toMatch(/different file/i);
    expect(upload.extra.labels).toBe('nudity,violence');
  });

  it('says refunded for the refunded describe-image failures', () => {
    expect(fromServer(422, 'policy_violation').message).toMatch(/refunded/);
    expect(fromServer(429, 'upstream_rate_limited').message).toMatch(/refunded/);
    expect(fromServer(503, 'vision_unavailable').message).toMatch(/refunded/);
  });

  it('names the missing params of missing_required_params', () => {
    const error = fromServer(400, 'missing_required_params', {
      param: 'image_url',
      params: [{ id: 'image_url' }, { id: 'settings.seed' }],
    });
    expect(error.message).toContain('image_url, settings.seed');
  });

  it('shows a generic 503 as "no provider" and keeps the server text as detail', () => {
    const error = fromServer(503, 'provider_unavailable', {}, 'No enabled provider for model m1.');
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toMatch(/no provider/i);
    expect(error.remedy).toBeDefined();
    expect(error.serverMessage).toBe('No enabled provider for model m1.');
  });

  it('keeps the server message apart for an unknown code, with any key redacted', () => {
    const error = fromServer(409, 'brand_new_code', {}, `Conflict for ${OTHER_KEY} and ${KEY}.`);
    expect(error.code).toBe('brand_new_code');
    expect(error.message).toBe('The API returned an error (HTTP 409, brand_new_code).');
    expect(error.serverMessage).toBe('Conflict for [redacted key] and [redacted key].');
  });

  it('never mixes the service’s words into the studio’s message (a bare HTTP failure, a bad payload)', () => {
    const notFound = fromServer(404, 'not_found', {}, 'No route GET /v2/models');
    expect(notFound.message).toBe('The API has nothing at this address (HTTP 404).');
    expect(notFound.serverMessage).toBe('No route GET /v2/models');
    const payload = fromServer(400, 'invalid_payload', { param: 'prompt' }, 'prompt is too long');
    expect(payload.message).toBe('The request was not accepted (field "prompt").');
    expect(payload.serverMessage).toBe('prompt is too long');
  });

  it('reads its message and remedy in the studio’s language of the moment; the service’s words stay as sent', () => {
    const error = fromServer(401, 'invalid_token', {}, 'Token revoked on 2026-11-20.');
    expect(error.message).toBe('This API key was not accepted: it is mistyped, revoked or expired.');
    try {
      activateTestCatalog({
        'This API key was not accepted: it is mistyped, revoked or expired.':
          'Cette clé d’API n’a pas été acceptée.',
        'Check the key, or create a new one in your account settings and connect with it.':
          'Vérifiez la clé.',
        'The API returned an error (HTTP {status}, {code}).':
          'L’API a renvoyé une erreur (HTTP {status}, {code}).',
      });
      expect(error.message).toBe('Cette clé d’API n’a pas été acceptée.');
      expect(error.remedy).toBe('Vérifiez la clé.');
      expect(error.serverMessage).toBe('Token revoked on 2026-11-20.');
      expect(fromServer(409, 'brand_new_code', {}, 'Busy').message).toBe(
        'L’API a renvoyé une erreur (HTTP 409, brand_new_code).',
      );
    } finally {
      activateEnglishForTests();
    }
    expect(error.message).toBe('This API key was not accepted: it is mistyped, revoked or expired.');
  });

  it('keeps the extra fields and param', () => {
    const error = fromServer(400, 'invalid_payload', {
      param: 'subtype',
      validCategories: [{ type: 'image', subType: 'default' }],
    });
    expect(error.param).toBe('subtype');
    expect(error.extra).toEqual({ validCategories: [{ type: 'image', subType: 'default' }] });
    expect(error.remedy).toContain('subtype');
  });

  it('gives every client-side code a message and a remedy', () => {
    for (const code of ['network_error', 'timeout', 'invalid_response', 'aborted'] as const) {
      const error = clientError(code);
      expect(error.status).toBe(0);
      expect(error.message.length, code).toBeGreaterThan(10);
      expect(error.remedy?.length ?? 0, code).toBeGreaterThan(5);
    }
  });
});

describe('errors from bodies that are not api-notes §7 errors', () => {
  it('turns an HTML error page into an ApiError with the status', () => {
    const error = errorFromResponse({ status: 404, bodyText: '<html><body>Not Found</body></html>' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('invalid_response');
    expect(error.message).toContain('HTTP 404');
    expect(error.remedy).toMatch(/Base URL/);
  });

  it('turns an empty 502 into an ApiError that is still retryable by status', () => {
    const error = errorFromResponse({ status: 502, bodyText: '' });
    expect(error.status).toBe(502);
    expect(error.code).toBe('invalid_response');
    expect(error.type).toBe('api_error');
    expect(isRetryable(error)).toBe(true);
  });

  it('turns JSON that is not an error object into an ApiError', () => {
    const error = errorFromResponse({ status: 500, bodyText: '{"oops":true}' });
    expect(error.status).toBe(500);
    expect(error.code).toBe('invalid_response');
  });

  it('still reads the code when param is null', () => {
    const error = errorFromResponse({
      status: 404,
      bodyText: JSON.stringify({
        error: { message: 'x', type: 'invalid_request_error', code: 'unknown_task', param: null },
      }),
    });
    expect(error.code).toBe('unknown_task');
    expect(error.param).toBeUndefined();
  });
});

describe('Retry-After', () => {
  it('reads seconds from the header', () => {
    expect(fromServer(429, 'rate_limited', {}, 'slow down', '7').retryAfterSeconds).toBe(7);
    const after = (header: string | null) => fromServer(429, 'rate_limited', {}, 'x', header ?? undefined);
    expect(after('  12 ').retryAfterSeconds).toBe(12);
    expect(after('').retryAfterSeconds).toBeUndefined();
    expect(after(null).retryAfterSeconds).toBeUndefined();
    expect(after('soon').retryAfterSeconds).toBeUndefined();
  });

  it('reads an HTTP date', () => {
    const error = errorFromResponse({
      status: 429,
      bodyText: JSON.stringify({ error: { message: 'x', type: 'rate_limit_error', code: 'rate_limited' } }),
      retryAfterHeader: 'Wed, 01 Jan 2025 00:00:30 GMT',
      now: Date.parse('2025-01-01T00:00:00Z'),
    });
    expect(error.retryAfterSeconds).toBe(30);
  });

  it('falls back to error.retryAfter when the header is hidden (CORS)', () => {
    expect(fromServer(429, 'rate_limited', { retryAfter: 9 }).retryAfterSeconds).toBe(9);
  });

  it('mentions the wait in the rate_limited remedy', () => {
    expect(fromServer(429, 'rate_limited', {}, 'x', '7').remedy).toContain('7 s');
  });
});

describe('isRetryable (api-notes §7)', () => {
  it('retries connection failures without a status', () => {
    expect(isRetryable(clientError('network_error'))).toBe(true);
    expect(isRetryable(clientError('timeout'))).toBe(true);
    expect(isRetryable(clientError('aborted'))).toBe(false);
  });

  it.each([429, 502, 503, 504])('retries %i', (status) => {
    expect(isRetryable(fromServer(status, 'whatever'))).toBe(true);
  });

  it.each([400, 401, 402, 403, 404, 409, 413, 422, 451, 500])('does not retry %i', (status) => {
    expect(isRetryable(fromServer(status, 'whatever'))).toBe(false);
  });

  it('never retries token_project_unbound, whatever its status', () => {
    expect(isRetryable(fromServer(403, 'token_project_unbound'))).toBe(false);
    expect(isRetryable(fromServer(422, 'token_project_unbound'))).toBe(false);
    expect(isRetryable(fromServer(503, 'token_project_unbound'))).toBe(false);
  });

  it('does not retry a 429 token_daily_cap_reached (a quota, not a rate)', () => {
    expect(isRetryable(fromServer(429, 'token_daily_cap_reached', {}, 'x', '3600'))).toBe(false);
  });

  it('does not retry a 200 with an unreadable body, nor non-ApiErrors', () => {
    expect(isRetryable(new ApiError({ status: 200, code: 'invalid_response', type: 'client_error' }))).toBe(
      false,
    );
    expect(isRetryable(new Error('x'))).toBe(false);
  });
});

describe('fieldErrors', () => {
  it('marks every param of missing_required_params, dotted ids kept whole', () => {
    const error = fromServer(400, 'missing_required_params', {
      param: 'image_url',
      params: [{ id: 'image_url' }, { id: 'settings.seed' }],
    });
    expect(fieldErrors(error)).toEqual({
      image_url: 'This field is required.',
      'settings.seed': 'This field is required.',
    });
  });

  it('marks the one param of another error with the server detail', () => {
    const error = fromServer(400, 'invalid_payload', { param: 'prompt' }, 'prompt is too long.');
    expect(fieldErrors(error)).toEqual({ prompt: 'prompt is too long.' });
  });

  it('is empty without a param, and for anything that is not an ApiError', () => {
    expect(fieldErrors(fromServer(401, 'invalid_token'))).toEqual({});
    expect(fieldErrors(new Error('x'))).toEqual({});
  });
});

describe('helpers', () => {
  it('redacts the key in use and anything shaped like a key', () => {
    const said = (message: string, secrets: string[] = []) =>
      errorFromResponse({
        status: 400,
        bodyText: JSON.stringify({
          error: { message, type: 'invalid_request_error', code: 'invalid_payload' },
        }),
        secrets,
      }).serverMessage;
    expect(said(`a ${KEY} b`, [KEY])).toBe('a [redacted key] b');
    expect(said('custom-secret-123 here', ['custom-secret-123'])).toBe('[redacted key] here');
    expect(said(`x ${OTHER_KEY}`)).toBe('x [redacted key]');
  });

  it('toApiError keeps ApiErrors and wraps the rest', () => {
    const error = clientError('timeout');
    expect(toApiError(error)).toBe(error);
    expect(toApiError(new TypeError('Failed to fetch')).code).toBe('network_error');
    expect(toApiError(new DOMException('x', 'AbortError')).code).toBe('aborted');
  });
});
