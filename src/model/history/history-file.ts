import { unwrap } from 'idb';
import { db } from '../db';
import { z } from 'zod/mini';
import { HistoryEntrySchema, type HistoryEntry } from './history-types';
import type { Judgement, JudgementStore } from './judgements';

// The history file, made (history-store's exportJson) and read into IndexedDB (its importJson); loaded
// when a file is made or imported: the first load need not carry it. An import's tasks are parsed and
// written a page per task, so a file of 50,000 tasks never blocks the page, and the progress is told
// after each page.

/** The file's frame (here, not in history-types: the first load does not carry it). */
export const HistoryExportSchema = z.object({
  format: z.literal('media-studio-history'),
  version: z.literal(1),
  exportedAt: z.string(),
  tasks: z.array(z.unknown()),
  /** Star and rating per output (`${taskId}#${index}`); each is parsed on import (lib/judgements). */
  judgements: z.optional(z.array(z.unknown())),
});

/**
 * Per-key records of other stores that travel in the history file beside the tasks (issue 16 Rules),
 * by their property in the file. Each reads and parses its own records; none writes the connection.
 */
const FILE_STORES: Record<
  string,
  () => Promise<{
    read: (connectionId: string) => Promise<unknown[]>;
    write: (connectionId: string, items: unknown[]) => Promise<unknown>;
  }>
> = {
  votes: () => import('../boards/votes').then((m) => ({ read: m.exportVotes, write: m.importVotes })),
};

/**
 * Reads a connection's history page after page by primary key, each page (`size` records) in a task of
 * its own, handing every record to `adopt`. A database that goes away (the page is closing, another tab
 * deleted it) ends the reading: what was read is kept.
 */
export async function readPages(connectionId: string, size: number, adopt: (raw: unknown) => void) {
  try {
    const database = await db();
    let after = '';
    for (;;) {
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

/**
 * The file: the tasks (without their connection and unseen mark), the stars and ratings given, the
 * added sections, and with `withStores` the records of FILE_STORES; never the key (nor its hash).
 */
export async function historyJson({
  entries,
  judgements,
  sections,
  withStores,
  connectionId,
}: {
  entries: readonly HistoryEntry[];
  judgements: readonly Judgement[];
  sections: ReadonlyMap<string, { export: () => unknown }>;
  withStores: boolean;
  connectionId: string;
}): Promise<string> {
  const file: Record<string, unknown> = {
    format: 'media-studio-history',
    version: 1,
    exportedAt: new Date().toISOString(),
    tasks: entries.map(({ connectionId: _c, unseen: _u, ...rest }) => rest),
    ...(judgements.length ? { judgements } : {}),
    ...Object.fromEntries([...sections].map(([name, s]) => [name, s.export()])),
  };
  if (withStores)
    for (const [name, load] of Object.entries(FILE_STORES))
      file[name] = await (await load()).read(connectionId);
  return JSON.stringify(file, null, 1);
}

/** The file's JSON and its history export; throws SyntaxError or a zod error on another file. */
export function readHistoryFile(text: string) {
  const json: unknown = JSON.parse(text);
  return { json, file: HistoryExportSchema.parse(json) };
}

/**
 * Parses and writes the file's tasks into `connectionId`'s history; `has` tells a task the history has
 * (updated, not added), `adopt` takes each written entry into the store's memory.
 */
export async function writeImportedTasks(
  tasks: readonly unknown[],
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
    for (const raw of tasks.slice(start, start + IMPORT_PAGE)) {
      const parsed = HistoryEntrySchema.safeParse({
        ...(typeof raw === 'object' && raw ? raw : {}),
        connectionId,
        unseen: false,
      });
      if (!parsed.success) {
        counts.skipped++;
        continue;
      }
      if (has(parsed.data.taskId)) counts.updated++;
      else counts.added++;
      adopt(parsed.data);
      plain.put(parsed.data);
    }
    await tx.done;
    onProgress?.(Math.min(total, start + IMPORT_PAGE), total);
  }
  return counts;
}

/**
 * What the file carries beside the tasks, once they are in: its stars and ratings to `judgements`
 * (those of outputs the history does not have are skipped and counted), the records of FILE_STORES to
 * their stores, and each added section present in the file (one that fails does not undo the tasks).
 */
export async function importBeside(
  json: unknown,
  raws: readonly unknown[],
  connectionId: string,
  sections: ReadonlyMap<string, { import: (data: unknown) => Promise<unknown> }>,
  { judgements, hasOutput }: { judgements?: JudgementStore; hasOutput: (outputKey: string) => boolean },
): Promise<{ judgementsKept: number; judgementsSkipped: number }> {
  const result = { judgementsKept: 0, judgementsSkipped: raws.length };
  if (judgements && raws.length) {
    const j = await judgements.importMany(raws, hasOutput);
    result.judgementsKept = j.kept;
    result.judgementsSkipped = j.unknown + j.invalid;
  }
  const file = json as Record<string, unknown>;
  for (const [name, load] of Object.entries(FILE_STORES)) {
    const items = file[name];
    if (Array.isArray(items)) await (await load()).write(connectionId, items);
  }
  for (const [name, section] of sections) {
    const data = file[name];
    if (data !== undefined) await section.import(data).catch(() => undefined);
  }
  return result;
}
