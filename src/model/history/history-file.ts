import { unwrap } from 'idb';
import { db } from '../db';
import { z } from 'zod/mini';
import { HistoryEntrySchema, type HistoryEntry } from './history-types';

// The history file, made (history-store's exportJson) and read into IndexedDB (its importJson); loaded
// when a file is made or imported: the first load need not carry it. An import's tasks are parsed and
// written a page per task, so a file of 50,000 tasks never blocks the page, and the progress is told
// after each page.

/** The file's frame (here, not in history-types: the first load does not carry it). */
const HistoryExportSchema = z.object({
  format: z.literal('media-studio-history'),
  version: z.literal(1),
  exportedAt: z.string(),
  /** Each is parsed on import; the sections beside them (judgements, votes, presets...) by their owners. */
  tasks: z.array(z.unknown()),
});

/**
 * Reads a connection's history page after page by primary key, each page (`size` records) in a task of
 * its own after `turn` (a background turn: what else the page has to do goes first), handing every
 * record to `adopt`. A database that goes away (the page is closing, another tab deleted it) ends the
 * reading: what was read is kept.
 */
export async function readPages(
  connectionId: string,
  size: number,
  adopt: (raw: unknown) => void,
  turn: () => Promise<void> = () => Promise.resolve(),
) {
  try {
    const database = await db();
    let after = '';
    for (;;) {
      await turn();
      const range = IDBKeyRange.bound([connectionId, after], [connectionId, []], true, false);
      const page = await database.getAll('tasks', range, size);
      for (const raw of page) adopt(raw);
      if (page.length < size) return;
      after = page[page.length - 1]!.taskId;
    }
  } catch {
    // gone: see above
  }
}

/** Tasks of an imported file parsed and written per task (and per progress step). */
const IMPORT_PAGE = 500;

/** The file: the tasks (without their connection and unseen mark) and the sections given; never the key. */
export function historyJson(entries: readonly HistoryEntry[], sections: Record<string, unknown>): string {
  const file = {
    format: 'media-studio-history',
    version: 1,
    exportedAt: new Date().toISOString(),
    tasks: entries.map(({ connectionId: _c, unseen: _u, ...rest }) => rest),
    ...sections,
  };
  return JSON.stringify(file, null, 1);
}

/**
 * The tasks of a parsed history file: the file's own array (not a copy, so writeImportedTasks can let
 * each go as it is written); throws a zod error on another file.
 */
export function historyTasksOf(json: unknown): unknown[] {
  HistoryExportSchema.parse(json);
  return (json as { tasks: unknown[] }).tasks;
}

/**
 * Parses and writes the file's tasks into `connectionId`'s history; `has` tells a task the history has
 * (updated, not added), `adopt` takes each written entry into the store's memory. It empties `tasks` as
 * it goes (and marks each with the connection in place): a task of the file is garbage once its entry is
 * written, so a 50,000-task file is not held twice, raw and parsed, until the end.
 */
export async function writeImportedTasks(
  tasks: unknown[],
  connectionId: string,
  has: (taskId: string) => boolean,
  adopt: (entry: HistoryEntry) => void,
  onProgress?: (done: number, total: number) => void,
): Promise<{ added: number; updated: number; skipped: number }> {
  const counts = { added: 0, updated: 0, skipped: 0 };
  const total = tasks.length;
  onProgress?.(0, total);
  const database = await db();
  for (let start = 0; start < total; start += IMPORT_PAGE) {
    // Relaxed: an import can be run again; its pages need not each wait for the disk.
    const tx = database.transaction('tasks', 'readwrite', { durability: 'relaxed' });
    // The plain IndexedDB store: a promise per put (idb's wrapper) costs more than the put itself.
    const plain = unwrap(tx.store);
    const end = Math.min(total, start + IMPORT_PAGE);
    for (let i = start; i < end; i++) {
      const raw = tasks[i];
      const parsed = HistoryEntrySchema.safeParse(
        typeof raw === 'object' && raw ? Object.assign(raw, { connectionId, unseen: false }) : raw,
      );
      if (!parsed.success) {
        counts.skipped++;
        continue;
      }
      if (has(parsed.data.taskId)) counts.updated++;
      else counts.added++;
      adopt(parsed.data);
      plain.put(parsed.data);
    }
    tasks.fill(undefined, start, end);
    await tx.done;
    onProgress?.(end, total);
  }
  return counts;
}
