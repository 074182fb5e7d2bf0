import type { Forecast } from './poll-forecast';
import { Listeners } from '../../lib/store';

// The poll schedules of the open connections, for views that show a task's forecast (a task card, a
// gallery tile) without being handed the schedule of the connection that follows the task.

/** What the registry needs of a schedule (poll-schedule.ts). */
export interface ForecastSource {
  subscribe(listener: () => void): () => void;
  has(taskId: string): boolean;
  forecast(taskId: string, now: number): Forecast | null;
}

const active = new Set<ForecastSource>();
const registryListeners = new Listeners();

/** Makes a schedule's forecasts available to taskForecast(); returns the undo. */
export function registerSchedule(schedule: ForecastSource): () => void {
  active.add(schedule);
  registryListeners.notify();
  return () => {
    active.delete(schedule);
    registryListeners.notify();
  };
}

/** Listens to every registered schedule (and to schedules coming and going). */
export function subscribeForecasts(listener: () => void): () => void {
  const offListener = registryListeners.subscribe(listener);
  const offs = new Map<ForecastSource, () => void>();
  const attach = () => {
    for (const s of active) if (!offs.has(s)) offs.set(s, s.subscribe(listener));
    for (const [s, off] of offs) {
      if (active.has(s)) continue;
      off();
      offs.delete(s);
    }
  };
  attach();
  const offRegistry = registryListeners.subscribe(() => attach());
  return () => {
    offListener();
    offRegistry();
    for (const off of offs.values()) off();
  };
}

/** The forecast of a task by any open connection's schedule. */
export function taskForecast(taskId: string, now: number = Date.now()): Forecast | null {
  for (const s of active) if (s.has(taskId)) return s.forecast(taskId, now);
  return null;
}
