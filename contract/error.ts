import { z } from 'zod/mini';

// api-notes §7: every error has this shape; extra fields (validCategories, spent, cap, params, labels) pass through.
export const ERROR_TYPES = [
  'authentication_error',
  'permission_error',
  'invalid_request_error',
  'rate_limit_error',
  'api_error',
] as const;

export const ErrorBodySchema = z.object({
  error: z.looseObject({
    message: z.string(),
    type: z.string(),
    code: z.string(),
    param: z.optional(z.string()),
  }),
});
