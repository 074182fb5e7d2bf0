import { describe, expect, it, vi } from 'vitest';
import { oncePerKey } from './once-per-key';

describe('oncePerKey', () => {
  it('computes each key once and answers it again from what it kept, a zero included', () => {
    const compute = vi.fn((query: string) => (query === 'none' ? 0 : query.length));
    const count = oncePerKey(compute);
    expect([count('fox'), count('fox'), count('none'), count('none')]).toEqual([3, 3, 0, 0]);
    expect(compute).toHaveBeenCalledTimes(2);
  });
});
