import { afterEach, describe, expect, it } from 'vitest';
import {
  dateTimeFormat,
  formatBytes,
  formatClock,
  formatCount,
  formatCredits,
  formatDateTime,
  formatList,
  formatNumericDate,
  formatOneDecimal,
  formatPercent,
  formatRelative,
  formatSeconds,
  formatTypicalPrice,
  numberFormat,
} from './format';
import { getLocale, setLocale } from './locale';

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

describe('format in the studio locale', () => {
  const initial = getLocale();
  afterEach(() => setLocale(initial));

  it('writes numbers, credits, sizes and durations with the locale digits and separators', () => {
    setLocale('de-DE');
    expect(formatCredits(4996)).toBe('4.996 credits');
    expect(formatCount(1234567)).toBe('1.234.567');
    expect(formatBytes(1536)).toBe('1,5 KB');
    expect(formatBytes(5 * 1024 ** 5)).toBe('5.120 TB');
    expect(formatSeconds(125)).toBe('2 min 5 s');
    expect(formatTypicalPrice({ typicalCredits: 0.4, unit: '1k_chars' })).toBe(
      '~0,4 credits / 1.000 characters',
    );
    setLocale('ar-EG');
    expect(formatCount(4996)).toBe('٤٬٩٩٦');
  });

  it('writes dates, times, relative times and percentages as the locale does', () => {
    const at = new Date(2026, 10, 22, 14, 5).getTime();
    expect(formatDateTime(at)).toMatch(/^Nov 22, 2:05\sPM$/);
    expect(formatNumericDate(at)).toBe('11/22/2026');
    expect(formatRelative(-1, 'day')).toBe('yesterday');
    expect(formatPercent(0.05)).toBe('5.0%');
    setLocale('de-DE');
    expect(formatDateTime(at)).toBe('22. Nov., 14:05');
    expect(formatNumericDate(at)).toBe('22.11.2026');
    expect(formatPercent(0.123)).toMatch(/^12\s%$/);
    setLocale('fr');
    expect(formatRelative(-1, 'day')).toBe('hier');
  });

  it('joins lists as the locale does: a plain list stays "a, b, c" in English', () => {
    expect(formatList(['PNG', 'JPEG', 'WebP'])).toBe('PNG, JPEG, WebP');
    expect(formatList(['a', 'b', 'c'], 'and')).toBe('a, b, and c');
    expect(formatList(['a', 'b', 'c'], 'or')).toBe('a, b, or c');
    setLocale('de-DE');
    expect(formatList(['a', 'b', 'c'], 'and')).toBe('a, b und c');
  });

  it('writes a media clock and one-decimal figures in the locale digits', () => {
    expect(formatClock(65)).toBe('1:05');
    expect(formatOneDecimal(4.46)).toBe('4.5');
    expect(formatOneDecimal(4)).toBe('4');
    setLocale('de-DE');
    expect(formatOneDecimal(4.46)).toBe('4,5');
  });

  it('makes each formatter once per locale and options', () => {
    expect(numberFormat()).toBe(numberFormat());
    expect(dateTimeFormat({ month: 'short' })).toBe(dateTimeFormat({ month: 'short' }));
    const english = numberFormat();
    setLocale('de-DE');
    expect(numberFormat()).not.toBe(english);
    expect(numberFormat().resolvedOptions().locale).toBe('de-DE');
  });
});
