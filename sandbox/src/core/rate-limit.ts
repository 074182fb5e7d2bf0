import { SandboxError } from './errors';

// api-notes §8: per-key limits in a 60-second window. Fixed windows that open at a key's first request.
export const RATE_LIMITS = {
  'tasks.create': 60,
  'tasks.get': 60, // api-notes §8 says "none fixed" and "60"; we pick 60 (README)
  'uploads.create': 30,
  'uploads.get': 120,
  me: 120,
  quote: 120,
  'ai-tools': 120,
  templates: 120,
  describe: 10,
} as const;
export type RateGroup = keyof typeof RATE_LIMITS;

const WINDOW_MS = 60_000;

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  /** Limits changed through the control API (benchmarks), until the next reset. */
  private overrides = new Map<RateGroup, number>();

  limitOf(group: RateGroup): number {
    return this.overrides.get(group) ?? RATE_LIMITS[group];
  }

  /** POST /__sandbox/limits: this group's per-minute limit, for every key, until reset. */
  setLimit(group: RateGroup, perMinute: number): void {
    this.overrides.set(group, perMinute);
  }

  /** Counts one request; throws 429 rate_limited with Retry-After when the window is full. */
  hit(keyId: string, group: RateGroup, now: number): void {
    const id = `${keyId}:${group}`;
    let w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    const limit = this.limitOf(group);
    if (w.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
      throw new SandboxError(429, 'rate_limited', `Rate limit of ${limit} requests per minute reached.`, {
        headers: { 'Retry-After': String(retryAfter) },
        extra: { limit, retryAfter },
      });
    }
    w.count += 1;
  }

  reset(): void {
    this.windows.clear();
    this.overrides.clear();
  }
}
