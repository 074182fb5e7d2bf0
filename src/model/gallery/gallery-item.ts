import type { z } from 'zod/mini';
import type { TaskOutputSchema } from '../../../contract/task';
import type { HistoryEntry } from '../history/history-types';
import { outputKey } from '../history/output-key';

export { outputKey };

// The gallery's unit: one tile per output of a task (the API returns at most one today, but the field
// is a list), or one tile for a task that has no output (queued, running, failed, cancelled).

type TaskOutput = z.infer<typeof TaskOutputSchema>;

export interface GalleryItem {
  /** Stable id of the tile: `${taskId}#${index}` (index 0 for a task without outputs). */
  key: string;
  entry: HistoryEntry;
  /** null while the task has no output. */
  output: TaskOutput | null;
  /** The output's position in the task's outputs. */
  index: number;
}

// Entries are replaced, never mutated: an entry's tiles are made once and reused (the same objects),
// so a change of one task rebuilds the list from cached tiles, not 200,000 new ones.
const tilesOfEntry = new WeakMap<HistoryEntry, readonly GalleryItem[]>();

function tilesOf(entry: HistoryEntry): readonly GalleryItem[] {
  let tiles = tilesOfEntry.get(entry);
  if (!tiles) {
    tiles =
      entry.outputs.length === 0
        ? [{ key: outputKey(entry.taskId, 0), entry, output: null, index: 0 }]
        : entry.outputs.map((output, index) => ({
            key: outputKey(entry.taskId, index),
            entry,
            output,
            index,
          }));
    tilesOfEntry.set(entry, tiles);
  }
  return tiles;
}

/** Tiles of the entries, in the entries' order, each task's outputs in their own order. */
export function galleryItemsOf(entries: readonly HistoryEntry[]): GalleryItem[] {
  const items: GalleryItem[] = [];
  for (const entry of entries) for (const tile of tilesOf(entry)) items.push(tile);
  return items;
}
