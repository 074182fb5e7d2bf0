import type { HistoryEntry } from '../history/history-types';
import type { GalleryItem } from './gallery-item';

// "Group batches" (product-notes §3 "History and gallery"): the tasks one click made (Runs, Variations,
// a compare board's run) share a batch id. Grouped, a batch is one stack in the list, placed where its
// best member falls under the current sort (the list comes sorted, so that is its first member), and
// opened in place: the stack stays, its members follow it. Pure functions over already sorted lists,
// shared by the gallery's grid (tiles) and the History column (task cards).

/** The batch a task belongs to, when one click made it with others. */
export function batchIdOf(entry: HistoryEntry): string | undefined {
  const { batchId, batchSize } = entry.meta;
  return batchId && (batchSize === undefined || batchSize > 1) ? batchId : undefined;
}

interface Group<T> {
  /** The batch's id; undefined for a task made alone. */
  batchId: string | undefined;
  /** In the list's order: the first is the batch's best under the sort. */
  members: T[];
}

/**
 * The sorted list cut into groups: each batch gathered at the place of its first member (its best under
 * the sort), everything else alone, in order. Batch members filtered out are simply not there: a batch
 * with one member left shown is a group of one.
 * @internal
 */
export function groupBatches<T>(sorted: readonly T[], batchOf: (item: T) => string | undefined): Group<T>[] {
  const groups: Group<T>[] = [];
  const byBatch = new Map<string, Group<T>>();
  for (const item of sorted) {
    const batchId = batchOf(item);
    if (batchId === undefined) {
      groups.push({ batchId, members: [item] });
      continue;
    }
    const group = byBatch.get(batchId);
    if (group) group.members.push(item);
    else {
      const created = { batchId, members: [item] };
      byBatch.set(batchId, created);
      groups.push(created);
    }
  }
  return groups;
}

/** The sorted list with each batch's members next to each other, where its best member was. */
export function batchOrder<T>(sorted: T[], batchOf: (item: T) => string | undefined): T[] {
  const groups = groupBatches(sorted, batchOf);
  return groups.length === sorted.length ? sorted : groups.flatMap((g) => g.members);
}

/** A batch shown as one tile: its best member's picture and how many it holds. */
export interface BatchStack<T = GalleryItem> {
  kind: 'stack';
  /** `batch:<id>`: not a task id, so it never meets a tile's key. */
  key: string;
  batchId: string;
  /** The best member's task (what the stack shows, and its day). */
  entry: HistoryEntry;
  members: T[];
  open: boolean;
}

/** A cell of a grouped list: a task (or tile) of its own or a batch member, or a batch's stack. */
export type Cell<T> = T | BatchStack<T>;

export const stackKey = (batchId: string) => `batch:${batchId}`;

export function isStack<T>(cell: Cell<T>): cell is BatchStack<T> {
  return (cell as { kind?: unknown }).kind === 'stack';
}

export interface StackedCells<T> {
  cells: Array<Cell<T>>;
  /** The cells shown inside an open stack (after it), to be drawn as its members. */
  opened: ReadonlySet<T>;
}

/**
 * The cells to show: a batch of two or more becomes its stack, followed by its members when it is open
 * (`open` holds stack keys); everything else is itself.
 */
export function stackCells<T extends { entry: HistoryEntry } | HistoryEntry>(
  sorted: readonly T[],
  open: ReadonlySet<string>,
): StackedCells<T> {
  const entryOf = (item: T): HistoryEntry => ('entry' in item ? item.entry : item);
  const cells: Array<Cell<T>> = [];
  const opened = new Set<T>();
  for (const group of groupBatches(sorted, (item) => batchIdOf(entryOf(item)))) {
    if (group.batchId === undefined || group.members.length < 2) {
      cells.push(...group.members);
      continue;
    }
    const key = stackKey(group.batchId);
    const isOpen = open.has(key);
    cells.push({
      kind: 'stack',
      key,
      batchId: group.batchId,
      entry: entryOf(group.members[0]!),
      members: group.members,
      open: isOpen,
    });
    if (isOpen)
      for (const member of group.members) {
        cells.push(member);
        opened.add(member);
      }
  }
  return { cells, opened };
}
