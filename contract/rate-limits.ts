// api-notes §8: rate limits are per key in a 60-second window; going over returns 429 rate_limited with
// Retry-After. The studio's limiter keeps under these (src/api/rate-limiter.ts) and the sandbox enforces
// them (sandbox/src/core/rate-limit.ts); GET /me may give a key other numbers for the first three groups.

/** The window the limits count in. */
export const RATE_WINDOW_MS: number = 60_000;

/** Requests per key and minute, by endpoint group; null = no fixed limit. */
export const RATE_LIMITS = {
  'tasks.create': 60, // POST /tasks
  // GET /tasks/{id}: api-notes §8 says "none fixed in one place; 60 in another". 60 is the safe reading:
  // the studio keeps to it and the sandbox enforces it (sandbox/README.md).
  'tasks.get': 60,
  'uploads.create': 30, // POST /uploads
  'uploads.get': 120, // GET /uploads/{uploadId}
  me: 120,
  quote: 120,
  'ai-tools': 120, // GET /ai-tools, GET /ai-tools/{slug}
  templates: 120, // its own bucket, apart from ai-tools
  describe: 10, // POST /describe-image
  models: null, // GET /models: no fixed limit
} as const satisfies Record<string, number | null>;

export type EndpointGroup = keyof typeof RATE_LIMITS;

/** The groups that have a fixed limit (all but GET /models). */
export type LimitedGroup = {
  [G in EndpointGroup]: (typeof RATE_LIMITS)[G] extends number ? G : never;
}[EndpointGroup];
