import { describe, expect, it, vi } from 'vitest';
import { RateLimiter, type EndpointGroup } from './rate-limiter';

// The limiter keeps to the contract's figures, not to figures of its own: with the contract's table
// changed under it, its limits change with it.

vi.mock(import('../../contract/rate-limits'), async (importOriginal) => {
  const actual = await importOriginal();
  const RATE_LIMITS = Object.fromEntries(
    Object.entries(actual.RATE_LIMITS).map(([group, limit]) => [group, limit === null ? null : limit + 7]),
  ) as unknown as typeof actual.RATE_LIMITS;
  return { ...actual, RATE_LIMITS, RATE_WINDOW_MS: 30_000 };
});

describe('RateLimiter against contract/rate-limits.ts', () => {
  it('takes each group’s limit from the contract', () => {
    const limiter = new RateLimiter();
    expect(limiter.limitOf('tasks.create')).toBe(67);
    expect(limiter.limitOf('uploads.create')).toBe(37);
    expect(limiter.limitOf('describe')).toBe(17);
    expect(limiter.limitOf('models' satisfies EndpointGroup)).toBeNull();
  });

  it('counts sends in the contract’s window', async () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now, marginMs: 0 });
    await Promise.all(Array.from({ length: 17 }, () => limiter.acquire('describe')));
    expect(limiter.waitMs('describe')).toBe(30_000);
    now = 30_000;
    expect(limiter.waitMs('describe')).toBe(0);
  });
});
