import { vi } from 'vitest';

/**
 * A reload that follows a change at once, on fake-indexeddb. Call it right after the change, without
 * awaiting the change: its microtasks run (as a browser runs them before the next task), then the page
 * gets `pagehide` and goes. What Chromium does with the page's IndexedDB then: every transaction whose
 * commit was not asked yet (one left to auto-commit waits for the page to see its requests' results) is
 * aborted; one committing (commit() called) completes. Measured in Chromium: a put followed by
 * location.reload() in the same task was lost in some runs with auto-commit, never with commit().
 */
export function reloadAtOnce(): Promise<void> {
  const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction');
  return new Promise((resolve) => {
    // fake-indexeddb runs its transactions in setImmediate tasks: this one is queued before any
    // transaction the change makes after a microtask, as the page's unload comes before the result.
    setImmediate(() => {
      globalThis.dispatchEvent?.(new Event('pagehide'));
      for (const made of transaction.mock.results) {
        if (made.type !== 'return') continue;
        try {
          (made.value as IDBTransaction).abort();
        } catch {
          // Committing or finished: the browser completes it.
        }
      }
      transaction.mockRestore();
      resolve();
    });
  });
}
