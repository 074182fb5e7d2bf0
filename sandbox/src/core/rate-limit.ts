import {
  RATE_LIMITS as API_RATE_LIMITS,
  RATE_WINDOW_MS,
  type EndpointGroup,
  type LimitedGroup,
} from '../../../contract/rate-limits';
import { SandboxError } from './errors';

// api-notes §8: per-key limits in a 60-second window (contract/rate-limits.ts), enforced in fixed windows
// that open at a key's first request. GET /models has no fixed limit, so it is not limited here.

export type RateGroup = LimitedGroup;

const isLimited = (entry: [EndpointGroup, number | null]): entry is [RateGroup, number] => entry[1] !== null;

/** The contract's per-minute limits of the groups that have one. */
export const RATE_LIMITS: Readonly<Record<RateGroup, number>> = Object.fromEntries(
  (Object.entries(API_RATE_LIMITS) as Array<[EndpointGroup, number | null]>).filter(isLimited),
) as Record<RateGroup, number>;

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
    if (!w || now - w.start >= RATE_WINDOW_MS) {
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    const limit = this.limitOf(group);
    if (w.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((w.start + RATE_WINDOW_MS - now) / 1000));
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
