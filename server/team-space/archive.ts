import * as Y from 'yjs';
import { TEAM_DOC_ROOTS } from '../../contract/team-doc';
import {
  ARCHIVED_BEFORE,
  archivedBeforeOf,
  LIVE_WINDOW,
  type TaskAttachments,
} from '../../contract/team-history';
import {
  isBlankJudgement,
  isFinished,
  storedTaskOf,
  type HistoryStore,
  type StoredTask,
} from './history-store';

// The move (docs/team-space.md "History at scale"): finished tasks that fall out of the live window leave
// the room's document for the history store. The store is written first and the document changed after,
// in one server transaction that deletes exactly the records stored (a record changed meanwhile stays
// for the next pass) and raises the watermark `meta.archivedBefore`. A pass that dies between the two
// leaves the records in both places; the next pass stores them again (the store keeps one row per task).
// Two nodes of a cluster may move the same records at once: both stores are the same row, both deletions
// the same deletion, and Yjs merges them.
//
// What the team said about a stored task's outputs follows it (planAttached): each member's judgement and
// each comment thread on them, once quiet for the window's days (a thread still being answered, a star
// still being changed, stays live), merged into the task's row and then deleted from the document the
// same way. Studios of this schema version never delete a judgement or a comment themselves (an un-star
// is a blank judgement, a deleted comment keeps its place without its body), so a deletion they see is
// always this move; a blank judgement of a task neither live nor stored is dropped once quiet.

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
 * Moves what planArchive finds into the store, then out of the document, then what planAttached finds.
 * Answers how many task records left the document.
 */
export async function archiveRoom(
  doc: Y.Doc,
  room: string,
  store: HistoryStore,
  now: number,
  window: ArchiveWindow = LIVE_WINDOW,
): Promise<number> {
  const moved = await moveTasks(doc, room, store, now, window);
  await moveAttached(doc, room, store, now, window);
  return moved;
}

async function moveTasks(
  doc: Y.Doc,
  room: string,
  store: HistoryStore,
  now: number,
  window: ArchiveWindow,
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

/** The task an output key (`${taskId}#${index}`) belongs to, or null for another kind of key. */
const taskOfOutput = (outputKey: unknown): string | null => {
  if (typeof outputKey !== 'string') return null;
  const hash = outputKey.lastIndexOf('#');
  return hash > 0 && /^\d+$/.test(outputKey.slice(hash + 1)) ? outputKey.slice(0, hash) : null;
};

const numberOr0 = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export interface AttachedPlan {
  /** One per task, what would join its row. */
  items: TaskAttachments[];
  /** The judgements as read (key -> value: only a key still holding it is deleted). */
  judgements: Map<string, unknown>;
  /** The comments as read (id -> its Y.Map and its JSON: only one unchanged is deleted). */
  comments: Map<string, { map: Y.Map<unknown>; json: string }>;
}

/**
 * What the team said about outputs of tasks the document no longer holds, quiet since before the window:
 * judgements not changed since, comment threads (on one output) with no comment, resolution or reopening
 * since. Undefined when there is nothing.
 */
export function planAttached(
  doc: Y.Doc,
  now: number,
  window: ArchiveWindow = LIVE_WINDOW,
): AttachedPlan | undefined {
  const tasks = doc.getMap<unknown>(TEAM_DOC_ROOTS.tasks);
  const quietSince = now - window.days * DAY_MS;
  const items = new Map<string, TaskAttachments>();
  const itemOf = (taskId: string) => {
    let item = items.get(taskId);
    if (!item) items.set(taskId, (item = { taskId, judgements: {}, comments: {} }));
    return item;
  };
  const plan: AttachedPlan = { items: [], judgements: new Map(), comments: new Map() };

  for (const [key, value] of doc.getMap<unknown>(TEAM_DOC_ROOTS.judgements).entries()) {
    const taskId = taskOfOutput(key.slice(key.indexOf('|') + 1));
    if (!taskId || tasks.has(taskId)) continue;
    if (numberOr0((value as { updatedAt?: unknown } | null)?.updatedAt) >= quietSince) continue;
    itemOf(taskId).judgements[key] = value;
    plan.judgements.set(key, value);
  }

  // Threads by their first comment's id and their output's task: a thread moves whole or stays.
  const threads = new Map<
    string,
    { taskId: string; last: number; comments: Array<[string, Y.Map<unknown>]> }
  >();
  for (const [id, map] of doc.getMap<unknown>(TEAM_DOC_ROOTS.comments).entries()) {
    if (!(map instanceof Y.Map)) continue;
    const target = map.get('target') as { kind?: unknown; outputKey?: unknown } | undefined;
    const taskId = target?.kind === 'output' ? taskOfOutput(target.outputKey) : null;
    if (!taskId || tasks.has(taskId)) continue;
    const parentId = map.get('parentId');
    const thread = `${taskId}\u0000${typeof parentId === 'string' ? parentId : id}`;
    let t = threads.get(thread);
    if (!t) threads.set(thread, (t = { taskId, last: 0, comments: [] }));
    const resolution = map.get('resolution') as { at?: unknown } | null | undefined;
    t.last = Math.max(t.last, numberOr0(map.get('createdAt')), numberOr0(resolution?.at));
    t.comments.push([id, map]);
  }
  for (const t of threads.values()) {
    if (t.last >= quietSince) continue;
    for (const [id, map] of t.comments) {
      const json = map.toJSON();
      itemOf(t.taskId).comments[id] = json;
      plan.comments.set(id, { map, json: JSON.stringify(json) });
    }
  }
  plan.items = [...items.values()];
  return plan.items.length === 0 ? undefined : plan;
}

/**
 * Moves what planAttached finds into the rows of its tasks, then out of the document (one transaction,
 * what changed meanwhile left). Judgements of tasks the store lacks stay, except blank ones, which are
 * dropped. Answers how many records left the document.
 */
export async function moveAttached(
  doc: Y.Doc,
  room: string,
  store: HistoryStore,
  now: number,
  window: ArchiveWindow = LIVE_WINDOW,
): Promise<number> {
  const plan = planAttached(doc, now, window);
  if (!plan) return 0;
  const kept = await store.attach(room, plan.items);
  const judgements = doc.getMap<unknown>(TEAM_DOC_ROOTS.judgements);
  const comments = doc.getMap<unknown>(TEAM_DOC_ROOTS.comments);
  let moved = 0;
  doc.transact(() => {
    for (const item of plan.items) {
      const stored = kept.has(item.taskId);
      for (const [key, value] of Object.entries(item.judgements)) {
        if (!stored && !isBlankJudgement(value)) continue;
        if (judgements.get(key) !== plan.judgements.get(key)) continue;
        judgements.delete(key);
        moved++;
      }
      if (!stored) continue;
      for (const id of Object.keys(item.comments)) {
        const read = plan.comments.get(id)!;
        if (comments.get(id) !== read.map || JSON.stringify(read.map.toJSON()) !== read.json) continue;
        comments.delete(id);
        moved++;
      }
    }
  }, ARCHIVE_ORIGIN);
  return moved;
}
