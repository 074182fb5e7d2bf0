export const DAY_MS = 86_400_000;
/**
 * How far ahead of real time the clock may be moved in all (about ten years): far beyond anything the
 * sandbox's rules look at (24 h retention, key expiry in days), and far inside what a Date can hold.
 */
export const MAX_CLOCK_OFFSET_MS = 3650 * DAY_MS;

/** Whether an offset is one the clock can hold: a whole-ish finite number from 0 to the maximum. */
export const isValidOffset = (ms: unknown): ms is number =>
  typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms <= MAX_CLOCK_OFFSET_MS;

// The sandbox's clock: real time plus an offset that POST /__sandbox/clock moves forward, so tests can
// cross a rate window, UTC midnight or the 24 h idempotency retention without waiting.
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  canAdvance(ms: number): boolean {
    return isValidOffset(ms) && isValidOffset(this.offsetMs + ms);
  }

  /** Moves the clock forward; throws (changing nothing) past MAX_CLOCK_OFFSET_MS. */
  advance(ms: number): void {
    if (!this.canAdvance(ms)) throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    if (!isValidOffset(ms)) throw new RangeError(`invalid clock offset ${ms}`);
    this.offsetMs = ms;
  }
}

/** UTC calendar day of a timestamp, the unit daily caps reset on (api-notes §8). */
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS);

export const msToUtcMidnight = (ms: number): number => DAY_MS - (ms % DAY_MS);

export const iso = (ms: number): string => new Date(ms).toISOString();
