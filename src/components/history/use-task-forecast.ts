import { useSyncExternalStore } from 'react';
import { forecastText, subscribeForecasts, taskForecast } from '../../model/tasks/poll-schedule';
import { clockTime, subscribeClock } from '../../lib/use-now';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// What the studio knows of an unfinished task, for any view that shows one (History cards, Gallery
// tiles): "queued, about 4 ahead", "running, ~3s left", or "checking" while its poll is due. The text
// is forecastText() of the open connection's poll schedule; it follows the schedule's corrections and
// counts down once a second while any card shows one. Null when no schedule follows the task.

/** The time the snapshots are taken at: moves only when a listener is told, so snapshots are stable. */
let snapshotNow = Date.now();
let listening = 0;

// Told on the tick of the cards' shared clock (use-now.ts) and on each change of a schedule.
function subscribe(listener: () => void): () => void {
  const offClock = subscribeClock(() => {
    snapshotNow = clockTime();
    listener();
  });
  if (listening++ === 0) snapshotNow = Date.now();
  // A change of the schedule (a poll's answer) is shown as of now, not as of the last tick.
  const off = subscribeForecasts(() => {
    snapshotNow = Date.now();
    listener();
  });
  return () => {
    listening--;
    off();
    offClock();
  };
}

/** Before anything listens (a first render), the clock itself; after, the time of the last reading. */
const snapshotTime = () => (listening === 0 ? Date.now() : snapshotNow);
const none = () => null;

/**
 * The forecast text of a task while `live` (not terminal); null otherwise or when nothing follows it.
 * `besides`: the status a badge beside it shows, whose word the text then leaves out (forecastText).
 */
export function useTaskForecast(taskId: string, live = true, besides?: string): string | null {
  return useSyncExternalStore(
    live ? subscribe : NO_SUBSCRIBE,
    live ? () => forecastText(taskForecast(taskId, snapshotTime()), { besides }) : none,
  );
}
