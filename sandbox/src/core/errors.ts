// One error type for every refusal the sandbox makes; the HTTP layer renders it in the api-notes §7 shape.

export type ErrorType =
  'authentication_error' | 'permission_error' | 'invalid_request_error' | 'rate_limit_error' | 'api_error';

/** The spec names the type values but not which status gets which; this is the sandbox's mapping (README). */
function errorTypeFor(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export class SandboxError extends Error {
  readonly type: ErrorType;
  constructor(
    readonly status: number,
    readonly code: string,
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
