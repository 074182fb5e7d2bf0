import { t } from '@lingui/core/macro';
import { useEffect, useState } from 'react';
import { formatDateTime, formatRelative } from '../../lib/format';

// "3 minutes ago" for a comment's time, and a clock that moves it on while the comments are open.

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['minute', 60],
  ['hour', 3_600],
  ['day', 86_400],
];

/** "just now", "5 minutes ago", "yesterday"; after a week, the date and time. */
export function relativeTime(ms: number, now: number): string {
  const seconds = Math.round((ms - now) / 1_000);
  // Another member's clock may run a little ahead: a comment from "the future" was made just now.
  // Intl's relative format has no "just now" (numeric 'auto' says "now"): a message, in the studio's language.
  if (Math.abs(seconds) < 45 || (seconds > 0 && seconds < 600)) return t`just now`;
  if (Math.abs(seconds) >= 7 * 86_400 || seconds > 0) return formatDateTime(ms);
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  let size = 60;
  for (const [u, s] of STEPS) if (-seconds >= s) [unit, size] = [u, s];
  return formatRelative(Math.round(seconds / size), unit);
}

/** The time now, moved on every 30 seconds while the component is shown. */
export function useClock(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
