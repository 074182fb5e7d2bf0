// Yielding to the main thread: what follows `await nextTask()` runs in a task of its own, after
// whatever else is queued (input, rendering). The start-up's loaders each begin this way, so the
// work of starting a dynamic import (its preload links, its request) is not added to the task of the
// render that asked for it, nor one loader's to another's (total blocking time, docs/benchmarks.md).

/** Resolves in a new task (a zero-delay timer). */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
