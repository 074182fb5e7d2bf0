import type * as Y from 'yjs';
import { TEAM_DOC_ROOTS } from '../../contract/team-doc';
import { ARCHIVED_BEFORE, archivedBeforeOf, LIVE_WINDOW } from '../../contract/team-history';
import { isFinished, storedTaskOf, type HistoryStore, type StoredTask } from './history-store';

// The move (docs/team-space.md "History at scale"): finished tasks that fall out of the live window leave
// the room's document for the history store. The store is written first and the document changed after,
// in one server transaction that deletes exactly the records stored (a record changed meanwhile stays
// for the next pass) and raises the watermark `meta.archivedBefore`. A pass that dies between the two
// leaves the records in both places; the next pass stores them again (the store keeps one row per task).
// Two nodes of a cluster may move the same records at once: both stores are the same row, both deletions
// the same deletion, and Yjs merges them.

export const ARCHIVE_ORIGIN = 'server-archive';

export interface ArchiveWindow {
  days: number;
  maxTasks: number;
}

export interface ArchivePlan {
  /** Finished tasks made before this leave the document. */
  archivedBefore: number;
  /** Each with its record as read (the document's own value): only a record still holding it is deleted. */
  tasks: StoredTask[];
}

const DAY_MS = 86_400_000;

/**
 * What a pass would move now: every finished task older than the window, and beyond the newest
 * `maxTasks` finished ones (tasks of the same millisecond as the last one kept stay with it). Unfinished
 * tasks always stay (their makers still write them). Undefined when nothing would move.
 */
export function planArchive(
  doc: Y.Doc,
  now: number,
  window: ArchiveWindow = LIVE_WINDOW,
): ArchivePlan | undefined {
  const map = doc.getMap<unknown>(TEAM_DOC_ROOTS.tasks);
  const finished: StoredTask[] = [];
  for (const [id, value] of map.entries()) {
    const task = storedTaskOf(value);
    // A record the store cannot file (the referee refused its writes, or a server before it took it)
    // stays where it is.
    if (!task || task.taskId !== id || !isFinished(task.status)) continue;
    finished.push(task);
  }
  let cutoff = Math.max(now - window.days * DAY_MS, archivedBeforeOf(doc));
  if (finished.length > window.maxTasks) {
    finished.sort((a, b) => b.createdAt - a.createdAt);
    cutoff = Math.max(cutoff, finished[window.maxTasks - 1]!.createdAt);
  }
  const tasks = finished.filter((t) => t.createdAt < cutoff);
  return tasks.length === 0 ? undefined : { archivedBefore: cutoff, tasks };
}

/**
 * Moves what planArchive finds into the store, then out of the document. Answers how many records left
 * the document.
 */
export async function archiveRoom(
  doc: Y.Doc,
  room: string,
  store: HistoryStore,
  now: number,
  window: ArchiveWindow = LIVE_WINDOW,
): Promise<number> {
  const plan = planArchive(doc, now, window);
  if (!plan) return 0;
  await store.put(room, plan.tasks);
  const map = doc.getMap<unknown>(TEAM_DOC_ROOTS.tasks);
  let moved = 0;
  doc.transact(() => {
    for (const { taskId, record } of plan.tasks) {
      if (map.get(taskId) !== record) continue;
      map.delete(taskId);
      moved++;
    }
    const meta = doc.getMap(TEAM_DOC_ROOTS.meta);
    if (plan.archivedBefore > archivedBeforeOf(doc)) meta.set(ARCHIVED_BEFORE, plan.archivedBefore);
  }, ARCHIVE_ORIGIN);
  return moved;
}
