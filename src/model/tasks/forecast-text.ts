import { plural, t } from '@lingui/core/macro';
import { formatCount, formatSeconds } from '../../lib/format';
import type { Forecast } from './poll-forecast';
import { statusWord } from './status-words';

/**
 * "queued, about 4 ahead", "running, ~3 s left", "checking": what the studio knows of a task, in the
 * studio's language when called (docs/i18n.md). Beside a status badge that already says the same word
 * (`besides`), only the rest: "about 4 ahead", "~3 s left"; beside a badge of another word, the predicted
 * phase as likely: "likely running, ~3 s left".
 */
export function forecastText(
  forecast: Forecast | null,
  { besides }: { besides?: string } = {},
): string | null {
  if (!forecast) return null;
  if (forecast.phase === 'checking')
    return t({ message: 'checking', comment: "a task's forecast: the studio is asking the service now" });
  let detail: string;
  if (forecast.phase === 'queued') {
    const tasksAhead = forecast.ahead;
    const ahead = formatCount(tasksAhead);
    // A plural though the English needs none: other languages agree the words with the count.
    detail =
      tasksAhead > 0
        ? plural(tasksAhead, { one: `about ${ahead} ahead`, other: `about ${ahead} ahead` })
        : t({ message: 'next to start', comment: "a queued task's forecast: no task ahead of it" });
  } else {
    const seconds = Math.max(1, Math.ceil(forecast.finishesInMs / 1000));
    // Whole minutes from 90 s: a countdown in seconds that far off claims more than the forecast knows.
    const left = formatSeconds(seconds < 90 ? seconds : Math.round(seconds / 60) * 60);
    detail = t({
      message: `~${left} left`,
      comment: 'a running task\'s forecast: "~3 s left", "~2 min left"',
    });
  }
  if (besides === forecast.phase) return detail;
  const phase = statusWord(forecast.phase);
  // Beside a badge of the service's last word, a later phase the studio only predicts is said as likely
  // ("queued" and then "running, ~3 s left" read as two answers that disagree).
  return besides
    ? t({
        message: `likely ${phase}, ${detail}`,
        comment: 'a predicted task status ("likely running"), then its forecast ("~3 s left")',
      })
    : t({
        message: `${phase}, ${detail}`,
        comment: 'a task status, then its forecast: "running, ~3 s left"',
      });
}
