import type { IDBPObjectStore, StoreNames } from 'idb';
import { nextTask } from '../../lib/next-task';
import { db, type StudioDB } from '../db';
import type { HistoryEntry } from './history-types';

// Where the history store (history-store.ts) meets IndexedDB: the count and the newest page read at
// open, and entries written one or several to a transaction. The older pages and the file's imports
// are read and written by history-file.ts, loaded only when needed. Also writeNow, how every store of
// what the user does (stars, hidden tasks, keepers, presets, prompts) writes.

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
 * One readwrite transaction holding `write`'s requests, committed at once (`commit()`) rather than left
 * to auto-commit; resolves once it is on disk, rejects with the transaction's error (a full disk among
 * them).
 *
 * Why: a store shows a change before it is on disk (a star lights up on the click), so a reload can
 * follow at once. A transaction left to auto-commit commits only after the page has received every
 * request's result, a round trip to the browser's IndexedDB; when the page goes away first, Chromium
 * aborts it, and the change the user saw is lost (a star pressed just before a reload came back
 * unstarred). A transaction whose commit was asked completes without the page. The requests and the
 * commit are made in the turn of the change itself (after `db()`, open by then, only microtasks): a
 * `pagehide` listener would come too late, since a transaction started while the page goes away may
 * never run.
 */
export async function writeNow<Name extends StoreNames<StudioDB>>(
  name: Name,
  write: (store: IDBPObjectStore<StudioDB, [Name], Name, 'readwrite'>) => ReadonlyArray<Promise<unknown>>,
): Promise<void> {
  const tx = (await db()).transaction(name, 'readwrite');
  // A request's failure aborts the transaction: it is reported once, by `done`.
  for (const request of write(tx.store)) request.catch(() => undefined);
  tx.commit();
  try {
    await tx.done;
  } catch (error) {
    throw tx.error ?? error;
  }
}

export function writeEntry(entry: HistoryEntry): Promise<void> {
  return writeNow('tasks', (store) => [store.put(entry)]);
}

/** Several entries in one transaction. */
export function writeEntries(entries: Iterable<HistoryEntry>): Promise<void> {
  return writeNow('tasks', (store) => Array.from(entries, (value) => store.put(value)));
}
