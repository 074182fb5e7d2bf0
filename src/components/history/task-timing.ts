import { t } from '@lingui/core/macro';
import { isTerminal } from '../../../contract/task';
import { dateTimeFormat, formatDate, formatSeconds } from '../../lib/format';
import type { HistoryEntry } from '../../model/history/history-types';

// Times shown on a card and in the detail view: pure, `now` is passed in (a shared ticker drives it).

type Timed = Pick<HistoryEntry, 'status' | 'createdAt' | 'completedAt' | 'meta'>;

/** Live for queued/running (now - createdAt); completedAt - createdAt once terminal (null if unknown). */
export function elapsedMs(entry: Timed, now: number): number | null {
  if (isTerminal(entry.status)) {
    return entry.completedAt === null ? null : Math.max(0, entry.completedAt - entry.createdAt);
  }
  return Math.max(0, now - entry.createdAt);
}

/** "about 12 s left" from the quote's estimatedSeconds; null when terminal or nothing was estimated. */
export function etaText(entry: Timed, now: number): string | null {
  const estimate = entry.meta.estimatedSeconds;
  if (isTerminal(entry.status) || estimate === null) return null;
  const left = estimate - Math.max(0, now - entry.createdAt) / 1000;
  if (left >= 1) {
    const remaining = formatSeconds(left);
    return t`about ${remaining} left`;
  }
  const usual = formatSeconds(estimate);
  return t`longer than the usual ${usual}`;
}

export function formatDuration(ms: number | null): string | null {
  return ms === null ? null : formatSeconds(ms / 1000);
}

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

// The formats of formatWhen(): every live card formats its time each second, so they come from
// format.ts's cache of formatters per locale, never a new toLocaleString each time.
const WHEN: Record<'time' | 'dayTime' | 'date', Intl.DateTimeFormatOptions> = {
  time: { hour: 'numeric', minute: '2-digit' },
  dayTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
};
const whenFormat = (kind: keyof typeof WHEN) => dateTimeFormat(WHEN[kind]);

/** A short "when": the time today, the day and time this year, else the date. */
export function formatWhen(ms: number, now: number = Date.now()): string {
  const date = new Date(ms);
  const today = new Date(now);
  if (sameDay(date, today)) return whenFormat('time').format(date);
  if (date.getFullYear() === today.getFullYear()) return whenFormat('dayTime').format(date);
  return whenFormat('date').format(date);
}

const TIMESTAMP: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' };

/** The full date and time, for the detail view. */
export function formatTimestamp(ms: number | null): string | null {
  return ms === null ? null : formatDate(ms, TIMESTAMP);
}
