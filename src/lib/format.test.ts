import { describe, expect, it } from 'vitest';
import { formatBytes, formatCredits, formatSeconds, formatTypicalPrice } from './format';

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

  it("renders sizes in binary units, so the API's 100 MB limit reads as 100 MB", () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1,023 bytes');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MB');
    expect(formatBytes(2.5 * 1024 * 1024)).toBe('2.5 MB');
    expect(formatBytes(1.2 * 1024 ** 3)).toBe('1.2 GB');
    // Just under a unit: never "1,024.0 KB".
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MB');
    expect(formatBytes(5 * 1024 ** 5)).toBe('5,120 TB');
    expect(formatBytes(Number.NaN)).toBe('0 bytes');
    expect(formatBytes(-5)).toBe('0 bytes');
  });
});
