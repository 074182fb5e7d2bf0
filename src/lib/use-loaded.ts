import { startTransition, useEffect, useState } from 'react';

// A module loaded on demand (a dynamic import), held as state instead of React.lazy. A lazy component
// that suspends shows its Suspense fallback, and React then delays the reveal of what replaces a
// fallback until 300 ms after the fallback appeared (its throttle of Suspense retries): on a reload
// that was some 300 ms of every start-up, once for the studio's chunk and once for the gallery's.
// As state there is no fallback to throttle: the caller shows its placeholder until the module is here,
// and the module's first render is an ordinary update (a transition).

type Loaded = { value?: unknown; error?: unknown; promise?: Promise<void> };
const modules = new WeakMap<() => Promise<unknown>, Loaded>();

function entry(load: () => Promise<unknown>): Loaded {
  let found = modules.get(load);
  if (!found) modules.set(load, (found = {}));
  return found;
}

/** Starts loading (once per `load` function); resolves when it settled. */
export function preloadModule(load: () => Promise<unknown>): Promise<void> {
  const e = entry(load);
  e.promise ??= load().then(
    (value) => {
      e.value = value;
    },
    (error: unknown) => {
      e.error = error;
    },
  );
  return e.promise;
}

/**
 * The module `load` answers, or null until it has loaded (at once if it already has). Loads it only
 * while `wanted`; a module that failed to load throws in render, for the nearest error boundary.
 */
export function useLoaded<T>(load: () => Promise<T>, wanted = true): T | null {
  const e = entry(load);
  const [, setVersion] = useState(0);
  useEffect(() => {
    if (!wanted || e.value !== undefined || e.error !== undefined) return;
    let live = true;
    // A transition: a large view's first render is done in slices, the page stays responsive.
    void preloadModule(load).then(() => {
      if (live) startTransition(() => setVersion((v) => v + 1));
    });
    return () => {
      live = false;
    };
  }, [e, load, wanted]);
  if (e.error !== undefined) throw e.error;
  return (e.value as T | undefined) ?? null;
}
