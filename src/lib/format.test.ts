import { describe, expect, it } from 'vitest';
import { formatCredits, formatSeconds, formatTypicalPrice } from './format';

describe('format', () => {
  it('renders typical prices per unit', () => {
    expect(formatTypicalPrice({ typicalCredits: 12, unit: 'image' })).toBe('~12 credits / image');
    expect(formatTypicalPrice({ typicalCredits: 0.4, unit: 'second' })).toBe('~0.4 credits / second');
    expect(formatTypicalPrice({ typicalCredits: 3, unit: '1k_chars' })).toBe('~3 credits / 1,000 characters');
    expect(formatTypicalPrice({ typicalCredits: 1, unit: 'call' })).toBe('~1 credit / call');
    expect(formatTypicalPrice({ typicalCredits: 2, unit: 'minute' })).toBe('~2 credits / minute');
    expect(formatTypicalPrice(null)).toBeNull();
  });

  it('renders credits and durations', () => {
    expect(formatCredits(5000)).toBe('5,000 credits');
    expect(formatSeconds(0.3)).toBe('<1 s');
    expect(formatSeconds(42)).toBe('42 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
  });
});
