// The user's local calendar days, in one place. A day is not always 24 hours: on a daylight-saving change
// it is 23 or 25, so the next day's start comes from calendar arithmetic (the Date constructor with
// day + 1), never from adding 86,400,000 ms. The time zone is the runtime's own (the browser's).

const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of a time, "2026-11-23" (sorts as text in day order). */
export function dayKey(time: number | Date = Date.now()): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The start of the local day of `time`, moved by `offsetDays` calendar days (-1: yesterday's start,
 * 1: tomorrow's). Where midnight itself is skipped by a change, the day starts at its first moment.
 */
export function dayStart(time: number | Date, offsetDays = 0): number {
  const d = new Date(time);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + offsetDays).getTime();
}

/** The start of the next local day: the exclusive end of the day of `time`. */
export const nextDayStart = (time: number | Date): number => dayStart(time, 1);

/** The start of the local day named by a key ("2026-11-23"), or NaN when it names no day. */
export function dayStartOfKey(key: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!match) return Number.NaN;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
}

/** Whole calendar days from the day of `from` to the day of `to` (1: `to` is the next day). */
export function calendarDaysBetween(from: number | Date, to: number | Date): number {
  const a = new Date(from);
  const b = new Date(to);
  // Both as UTC midnights of the same calendar dates: every UTC day is 24 hours.
  return Math.round(
    (Date.UTC(b.getFullYear(), b.getMonth(), b.getDate()) -
      Date.UTC(a.getFullYear(), a.getMonth(), a.getDate())) /
      86_400_000,
  );
}
