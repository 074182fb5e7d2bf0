// Whether a new version of the studio is waiting (its service worker installed, not yet in charge), and
// how to switch to it. A tiny store in the first load; the registration (workbox-window) is a chunk of its
// own, loaded after the load event (register-service-worker.ts), and fills it in.

type Listener = () => void;

let waiting: (() => Promise<void>) | null = null;
const listeners = new Set<Listener>();

export const appUpdate = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** The switch to the waiting version, or null while there is none. */
  snapshot: () => waiting,
  /** Called by the registration when a new version has installed and waits for the user. */
  offer(update: () => Promise<void>) {
    waiting = update;
    for (const l of listeners) l();
  },
};
