import { ValueStore } from '../lib/store';

// Whether a new version of the studio is waiting (its service worker installed, not yet in charge), and
// how to switch to it. A tiny store in the first load; the registration (workbox-window) is a chunk of its
// own, loaded after the load event (register-service-worker.ts), and fills it in.

const waiting = new ValueStore<(() => Promise<void>) | null>(null);

export const appUpdate = {
  subscribe: waiting.subscribe,
  /** The switch to the waiting version, or null while there is none. */
  snapshot: waiting.snapshot,
  /** Called by the registration when a new version has installed and waits for the user. */
  offer(update: () => Promise<void>) {
    waiting.set(update);
  },
};
