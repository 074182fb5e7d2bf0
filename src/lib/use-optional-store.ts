import { useSyncExternalStore } from 'react';

// Many stores exist only some of the time (the team's while a team space is joined, the gallery's once its
// database is open): a view reads such a store, or a fixed value while there is none. One hook for that,
// instead of every view keeping its own do-nothing subscribe and fallback snapshot.

/** The subscribe of no store: nothing ever changes, so nothing is ever told. */
export const NO_SUBSCRIBE = (): (() => void) => () => undefined;

/** What a view reads of a store: React's useSyncExternalStore pair. */
export interface ReadableStore<T> {
  subscribe: (listener: () => void) => () => void;
  snapshot: () => T;
}

/**
 * The store's snapshot, kept current; `fallback` while there is no store. `fallback` must be the same
 * value from render to render (a constant), as React compares snapshots by identity.
 */
export function useOptionalStore<T, F = T>(store: ReadableStore<T> | null | undefined, fallback: F): T | F {
  return useSyncExternalStore<T | F>(
    store?.subscribe ?? NO_SUBSCRIBE,
    store ? store.snapshot : () => fallback,
  );
}
