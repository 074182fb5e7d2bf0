import { describe, expect, it } from 'vitest';
import { inTimeZone } from '../test/time-zone';
import { calendarDaysBetween, dayKey, dayStart, dayStartOfKey, nextDayStart } from './local-day';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('local days in America/New_York (clocks spring forward on 8 March 2026, fall back on 1 November)', () => {
  inTimeZone('America/New_York');

  it('the zone is the one set (the test would prove nothing in UTC)', () => {
    expect(new Date(Date.UTC(2026, 6, 1, 12)).getTimezoneOffset()).toBe(240);
  });

  it('8 March is 23 hours long: it starts at 05:00Z and the next day at 04:00Z', () => {
    const start = dayStartOfKey('2026-03-08');
    expect(iso(start)).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(nextDayStart(start))).toBe('2026-03-09T04:00:00.000Z');
    expect(nextDayStart(start) - start).toBe(23 * HOUR);
  });

  it('1 November is 25 hours long, and its last half hour is still 1 November', () => {
    const start = dayStartOfKey('2026-11-01');
    expect(nextDayStart(start) - start).toBe(25 * HOUR);
    const lateEvening = Date.UTC(2026, 10, 2, 4, 30); // 23:30 EST
    expect(dayKey(lateEvening)).toBe('2026-11-01');
    expect(dayStart(lateEvening)).toBe(start);
    expect(lateEvening).toBeLessThan(nextDayStart(start));
    expect(start + 24 * HOUR).toBeLessThan(lateEvening); // what adding 24 hours would have cut off
  });

  it('moves by calendar days across both changes', () => {
    const noon = Date.UTC(2026, 2, 10, 16); // 10 March, 12:00 EDT
    expect(dayKey(dayStart(noon, -3))).toBe('2026-03-07');
    expect(iso(dayStart(noon, -3))).toBe('2026-03-07T05:00:00.000Z');
    expect(iso(dayStart(noon, -1))).toBe('2026-03-09T04:00:00.000Z');
    expect(calendarDaysBetween(dayStart(noon, -3), noon)).toBe(3);
    expect(calendarDaysBetween(Date.UTC(2026, 9, 31, 23), Date.UTC(2026, 10, 2, 4, 30))).toBe(1);
  });
});

describe('local days in Europe/Berlin (clocks spring forward on 29 March 2026, fall back on 25 October)', () => {
  inTimeZone('Europe/Berlin');

  it('29 March is 23 hours and 25 October 25 hours long', () => {
    const march = dayStartOfKey('2026-03-29');
    expect(iso(march)).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(nextDayStart(march))).toBe('2026-03-29T22:00:00.000Z');
    const october = dayStartOfKey('2026-10-25');
    expect(nextDayStart(october) - october).toBe(25 * HOUR);
  });

  it('names the local day, not the UTC one', () => {
    const justAfterMidnight = Date.UTC(2026, 2, 29, 22, 30); // 30 March, 00:30 CEST
    expect(dayKey(justAfterMidnight)).toBe('2026-03-30');
    expect(dayKey(new Date(justAfterMidnight))).toBe('2026-03-30');
    expect(dayStart(justAfterMidnight)).toBe(dayStartOfKey('2026-03-30'));
    expect(dayStart(justAfterMidnight, -1)).toBe(dayStartOfKey('2026-03-29'));
  });

  it('counts calendar days, not 24-hour spans', () => {
    expect(calendarDaysBetween(dayStartOfKey('2026-10-24'), dayStartOfKey('2026-10-26'))).toBe(2);
    expect(calendarDaysBetween(Date.UTC(2026, 9, 25, 22, 30), Date.UTC(2026, 9, 25, 23, 30))).toBe(1);
  });
});

describe('local days in Asia/Tokyo (no daylight saving)', () => {
  inTimeZone('Asia/Tokyo');

  it('every day is 24 hours and starts at 15:00Z the day before', () => {
    for (const key of ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01']) {
      const start = dayStartOfKey(key);
      expect(dayKey(start)).toBe(key);
      expect(iso(start).slice(11)).toBe('15:00:00.000Z');
      expect(nextDayStart(start) - start).toBe(24 * HOUR);
    }
  });

  it('refuses a key that names no day', () => {
    expect(dayStartOfKey('2026-3-8')).toBeNaN();
    expect(dayStartOfKey('')).toBeNaN();
  });
});
