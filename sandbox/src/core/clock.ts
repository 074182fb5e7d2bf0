// The sandbox's clock: real time plus an offset that POST /__sandbox/clock moves forward, so tests can
// cross a rate window, UTC midnight or the 24 h idempotency retention without waiting.
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }
}

const DAY_MS = 86_400_000;

/** UTC calendar day of a timestamp, the unit daily caps reset on (spec 8). */
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS);

export const msToUtcMidnight = (ms: number): number => DAY_MS - (ms % DAY_MS);

export const iso = (ms: number): string => new Date(ms).toISOString();
