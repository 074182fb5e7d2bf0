import { describe, expect, it } from 'vitest';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { elapsedMs, etaText, formatWhen } from './task-timing';

describe('task timing', () => {
  it('counts a live task from createdAt to now', () => {
    const running = makeEntry('t', { status: 'running', completedAt: null });
    expect(elapsedMs(running, T0 + 5_000)).toBe(5_000);
    expect(elapsedMs(running, T0 - 1_000)).toBe(0);
  });

  it('uses completedAt - createdAt once terminal, whatever the time now', () => {
    const done = makeEntry('t', { status: 'succeeded', completedAt: T0 + 9_000 });
    expect(elapsedMs(done, T0 + 999_999)).toBe(9_000);
    expect(elapsedMs(makeEntry('t', { status: 'failed', completedAt: null }), T0)).toBeNull();
  });

  it('gives the ETA from the quote estimate while not terminal', () => {
    const running = makeEntry('t', { status: 'running', completedAt: null, meta: { estimatedSeconds: 20 } });
    expect(etaText(running, T0 + 8_000)).toBe('about 12 s left');
    expect(etaText(running, T0 + 25_000)).toBe('longer than the usual 20 s');
    expect(etaText(makeEntry('t', { status: 'queued', meta: { estimatedSeconds: null } }), T0)).toBeNull();
    expect(etaText(makeEntry('t', { status: 'succeeded' }), T0)).toBeNull();
  });

  it('says when as toLocale…String does: the time today, day and time this year, else the date', () => {
    // The formatters are made once (not per card); the text is the same as before.
    const now = new Date(2025, 5, 10, 18, 0).getTime();
    const today = new Date(2025, 5, 10, 9, 5);
    const thisYear = new Date(2025, 1, 3, 14, 30);
    const earlier = new Date(2023, 11, 24, 8, 0);
    expect(formatWhen(today.getTime(), now)).toBe(
      today.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }),
    );
    expect(formatWhen(thisYear.getTime(), now)).toBe(
      thisYear.toLocaleString(undefined, {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }),
    );
    expect(formatWhen(earlier.getTime(), now)).toBe(
      earlier.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' }),
    );
  });
});
