import { Listeners } from '../lib/store';

// Whether a new version of the studio is waiting (its service worker installed, not yet in charge), and
// how to switch to it. A tiny store in the first load; the registration (workbox-window) is a chunk of its
// own, loaded after the load event (register-service-worker.ts), and fills it in.

let waiting: (() => Promise<void>) | null = null;
const listeners = new Listeners();

export const appUpdate = {
  subscribe: listeners.subscribe,
  /** The switch to the waiting version, or null while there is none. */
  snapshot: () => waiting,
  /** Called by the registration when a new version has installed and waits for the user. */
  offer(update: () => Promise<void>) {
    waiting = update;
    listeners.notify();
  },
};
