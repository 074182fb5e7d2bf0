import { describe, expect, it } from 'vitest';
import { slope } from './soak';

// The soak reports memory growth as the least-squares slope of its samples (MB per hour).

describe('the soak’s slope', () => {
  it('is the least-squares slope: exact on a line, the trend through noise, none from one sample', () => {
    expect(
      slope([
        [0, 100],
        [0.5, 105],
        [1, 110],
      ]),
    ).toBeCloseTo(10);
    expect(
      slope([
        [0, 100],
        [1, 112],
        [2, 118],
        [3, 131],
      ]),
    ).toBeCloseTo(9.9);
    expect(
      slope([
        [0, 5],
        [1, 5],
        [2, 5],
      ]),
    ).toBe(0);
    expect(slope([[0, 5]])).toBeNull();
    expect(
      slope([
        [1, 5],
        [1, 7],
      ]),
    ).toBeNull();
  });
});
