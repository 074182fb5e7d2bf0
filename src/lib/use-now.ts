import { Listeners } from './store';
import { useSyncExternalStore } from 'react';
import { NO_SUBSCRIBE } from './use-optional-store';

// One shared 1 s clock for every live card: a single interval however many tasks are in flight, and
// none at all when nothing is running.

const TICK_MS = 1000;
const listeners = new Listeners();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  const unsubscribe = listeners.subscribe(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.notify();
    }, TICK_MS);
  }
  return () => {
    unsubscribe();
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/**
 * The same clock for other per-second readings (a card's forecast): their listeners are told in the
 * same tick as useNow's, so a live card renders once a second, not once per clock. Returns the undo.
 */
export const subscribeClock = subscribe;

/** The time of the last tick while the clock runs, else the time now. */
export const clockTime = (): number => (timer === null ? Date.now() : now);

const getNow = () => now;
const getIdle = () => 0;

/** The current time, re-rendering every second while `active`; 0 (and no timer) otherwise. */
export function useNow(active: boolean): number {
  return useSyncExternalStore(active ? subscribe : NO_SUBSCRIBE, active ? getNow : getIdle);
}
