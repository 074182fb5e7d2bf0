import type { IDBPObjectStore, StoreNames } from 'idb';
import { nextTask } from '../../lib/next-task';
import { db, type StudioDB } from '../db';
import { commitNow } from '../local-records';
import type { HistoryEntry } from './history-types';

// Where the history store (history-store.ts) meets IndexedDB: the count and the newest page read at
// open, and entries written one or several to a transaction. The older pages and the file's imports
// are read and written by history-file.ts, loaded only when needed. Also writeNow, the one transaction
// committed at once of the stores that keep no LocalRecords (local-records.ts) of their own.

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

/**
 * `write`'s requests in one transaction of the studio's database, committed at once (local-records.ts
 * commitNow says why): how the history, the uploads and the boards write.
 */
export async function writeNow<Name extends StoreNames<StudioDB>>(
  name: Name,
  write: (store: IDBPObjectStore<StudioDB, [Name], Name, 'readwrite'>) => ReadonlyArray<Promise<unknown>>,
): Promise<void> {
  return commitNow(await db(), name, write);
}

export function writeEntry(entry: HistoryEntry): Promise<void> {
  return writeNow('tasks', (store) => [store.put(entry)]);
}

/** Several entries in one transaction. */
export function writeEntries(entries: Iterable<HistoryEntry>): Promise<void> {
  return writeNow('tasks', (store) => Array.from(entries, (value) => store.put(value)));
}
