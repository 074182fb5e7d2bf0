import { afterAll, beforeAll } from 'vitest';

/**
 * Runs the enclosing describe's tests in the time zone `tz` (an IANA name). Node reads process.env.TZ
 * again whenever it is set, so local Dates follow it from then on; the zone before is put back after.
 */
export function inTimeZone(tz: string): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TZ;
    process.env.TZ = tz;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
