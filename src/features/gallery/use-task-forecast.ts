import { useSyncExternalStore } from 'react';
import { forecastText, subscribeForecasts, taskForecast } from '../../model/tasks/poll-schedule';

// What the studio knows of an unfinished task, for any view that shows one (History cards, Gallery
// tiles): "queued, about 4 ahead", "running, ~3s left", or "checking" while its poll is due. The text
// is forecastText() of the open connection's poll schedule; it follows the schedule's corrections and
// counts down once a second while any card shows one. Null when no schedule follows the task.

const TICK_MS = 1000;
const tickListeners = new Set<() => void>();
let tick: ReturnType<typeof setInterval> | null = null;
/** The time the snapshots are taken at: moves only when a listener is told, so snapshots are stable. */
let snapshotNow = Date.now();

function subscribe(listener: () => void): () => void {
  const notify = () => {
    snapshotNow = Date.now();
    listener();
  };
  tickListeners.add(notify);
  if (tick === null) {
    snapshotNow = Date.now();
    tick = setInterval(() => {
      snapshotNow = Date.now();
      for (const l of tickListeners) l();
    }, TICK_MS);
  }
  const off = subscribeForecasts(notify);
  return () => {
    off();
    tickListeners.delete(notify);
    if (tickListeners.size === 0 && tick !== null) {
      clearInterval(tick);
      tick = null;
    }
  };
}

/** Before anything listens (a first render), the clock itself; after, the time of the last tick. */
const snapshotTime = () => (tick === null ? Date.now() : snapshotNow);
const idle = () => () => undefined;
const none = () => null;

/**
 * The forecast text of a task while `live` (not terminal); null otherwise or when nothing follows it.
 * `besides`: the status a badge beside it shows, whose word the text then leaves out (forecastText).
 */
export function useTaskForecast(taskId: string, live = true, besides?: string): string | null {
  return useSyncExternalStore(
    live ? subscribe : idle,
    live ? () => forecastText(taskForecast(taskId, snapshotTime()), { besides }) : none,
  );
}
