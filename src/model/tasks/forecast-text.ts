import type { Forecast } from './poll-forecast';

/**
 * "queued, about 4 ahead", "running, ~3s left", "checking": what the studio knows of a task. Beside a
 * status badge that already says the same word (`besides`), only the rest: "about 4 ahead", "~3s left";
 * beside a badge of another word, the predicted phase as likely: "likely running, ~3s left".
 */
export function forecastText(
  forecast: Forecast | null,
  { besides }: { besides?: string } = {},
): string | null {
  if (!forecast) return null;
  if (forecast.phase === 'checking') return 'checking';
  let detail: string;
  if (forecast.phase === 'queued') {
    detail = forecast.ahead > 0 ? `about ${forecast.ahead} ahead` : 'next to start';
  } else {
    const seconds = Math.max(1, Math.ceil(forecast.finishesInMs / 1000));
    detail = seconds < 90 ? `~${seconds}s left` : `~${Math.round(seconds / 60)} min left`;
  }
  if (besides === forecast.phase) return detail;
  // Beside a badge of the service's last word, a later phase the studio only predicts is said as likely
  // ("queued" and then "running, ~3s left" read as two answers that disagree).
  return besides ? `likely ${forecast.phase}, ${detail}` : `${forecast.phase}, ${detail}`;
}
