import type { ApiErrorCode, ErrorType, StatusOf } from '../../../contract/error';

// One error type for every refusal the sandbox makes; the HTTP layer renders it in the api-notes §7 shape.

/**
 * Codes only the control API (/__sandbox/*) sends: the studio never calls it with a key, so they are
 * not in the contract's table of the API's codes.
 */
type ControlErrorCode = 'not_supported';
type ControlStatus = 501;

/** The spec names the type values but not which status gets which; this is the sandbox's mapping (README). */
function errorTypeFor(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/**
 * A refusal with a code of the contract's table (contract/error.ts) and one of that code's statuses: a
 * code or status the studio does not know of fails the type check here, not in a creator's hands.
 */
export class SandboxError<
  C extends ApiErrorCode | ControlErrorCode = ApiErrorCode | ControlErrorCode,
> extends Error {
  readonly type: ErrorType;
  constructor(
    readonly status: C extends ApiErrorCode ? StatusOf<C> : ControlStatus,
    readonly code: C,
    message: string,
    readonly options: {
      param?: string;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.type = errorTypeFor(status);
  }

  toBody() {
    const { param, extra } = this.options;
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(param === undefined ? {} : { param }),
        ...extra,
      },
    };
  }
}

export const invalidPayload = (message: string, param?: string, extra?: Record<string, unknown>) =>
  new SandboxError(400, 'invalid_payload', message, { param, extra });
