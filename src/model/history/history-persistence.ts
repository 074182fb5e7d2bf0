import { nextTask } from '../../lib/next-task';
import { db } from '../db';
import type { HistoryEntry } from './history-types';

// Where the history store (history-store.ts) meets IndexedDB: the count and the newest page read at
// open, and entries written one or several to a transaction. The older pages and the file's imports
// are read and written by history-file.ts, loaded only when needed.

type PostTask = (callback: () => void, options: { priority: 'background' }) => Promise<void>;

/**
 * A turn of the page's own after everything more urgent: a background-priority task where the browser
 * has the Prioritized Task Scheduling API (Chromium), else a task of its own.
 */
export function backgroundTurn(): Promise<void> {
  const postTask = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler?.postTask;
  if (postTask) return postTask.call(globalThis.scheduler, () => undefined, { priority: 'background' });
  return nextTask();
}

/**
 * How many entries a connection has, and its newest `limit` records (newest first, by the index),
 * each handed to `take` unparsed.
 */
export async function readNewest(
  connectionId: string,
  limit: number,
  take: (raw: unknown) => void,
): Promise<number> {
  const database = await db();
  const range = IDBKeyRange.bound([connectionId, -Infinity], [connectionId, Infinity]);
  const tx = database.transaction('tasks', 'readonly');
  const index = tx.store.index('byConnection');
  const count = await index.count(range);
  let cursor = await index.openCursor(range, 'prev');
  for (let n = 0; cursor && n < limit; n++) {
    take(cursor.value);
    cursor = await cursor.continue();
  }
  return count;
}

export async function writeEntry(entry: HistoryEntry): Promise<void> {
  await (await db()).put('tasks', entry);
}

/** Several entries in one transaction. */
export async function writeEntries(entries: Iterable<HistoryEntry>): Promise<void> {
  const tx = (await db()).transaction('tasks', 'readwrite');
  for (const value of entries) void tx.store.put(value);
  await tx.done;
}
