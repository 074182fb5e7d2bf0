import type { GalleryItem } from './gallery-item';
import type { HistoryEntry } from '../history/history-types';
import { outputKey } from '../history/output-key';
import type { Parent } from '../history/parents';

// Lineage (docs/using.md "Lineage"): the family of an output, read from every task's parents (recorded
// as each task was sent, model/history/parents.ts): "Made from" up, "Used in" down, the whole family
// tree. What the Viewer shows of an output's family.

const outputKeyOf = (p: Parent): string => outputKey(p.taskId, p.outputIndex);

/** An output's family as far as this history knows it: what the Viewer shows as links. */
export interface Lineage {
  /** The outputs the task shown was made from. */
  madeFrom: GalleryItem[];
  /** Parents the task names that this history does not hold. */
  missing: number;
  /** The tasks made from the output shown (their first output each). */
  usedIn: GalleryItem[];
  /** The output's whole family as a tree (built when asked: it reads every task's parents). */
  family: () => Family;
}

/** One output of a family, and the outputs made from it. */
export interface FamilyNode {
  item: GalleryItem;
  children: FamilyNode[];
}

/** An output's family: its oldest known ancestors, each with all that descends from it. */
interface Family {
  roots: FamilyNode[];
  /** Outputs in the trees. */
  size: number;
  /** True when the family was larger than `MAX_FAMILY` and the trees stop there. */
  truncated: boolean;
}

/**
 * The most outputs a family tree shows (a long chain of edits, a reference used in hundreds of tasks).
 * @internal
 */
export const MAX_FAMILY = 300;

const itemOf = (entry: HistoryEntry, index: number): GalleryItem => ({
  key: outputKeyOf({ taskId: entry.taskId, outputIndex: index }),
  entry,
  output: entry.outputs[index] ?? null,
  index,
});

/**
 * The family of `item` (Gallery, Viewer "Family"): up through its parents to the ancestors this history
 * knows with no known parent of their own (the roots), then down from each through every task made from
 * an output, each of that task's outputs a node (a task with none yet is one node). An output reached
 * twice (a task made from two outputs of the family) is shown once, under the first; a cycle, which a
 * forged import could write, ends where it repeats. (Read through `Lineage.family`.)
 * @internal
 */
export function familyOf(
  item: GalleryItem,
  get: (taskId: string) => HistoryEntry | undefined,
  entries: readonly HistoryEntry[],
): Family {
  // Children by parent output, oldest task first.
  const children = new Map<string, HistoryEntry[]>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    for (const parent of entry.meta.parents ?? []) {
      const key = outputKeyOf(parent);
      const list = children.get(key);
      if (list) list.push(entry);
      else children.set(key, [entry]);
    }
  }
  // Up: the roots, in the order the walk meets them.
  const roots: GalleryItem[] = [];
  const climbed = new Set<string>();
  const climb = (at: GalleryItem) => {
    if (climbed.has(at.key)) return;
    climbed.add(at.key);
    const known = (at.entry.meta.parents ?? []).flatMap((p) => {
      const entry = get(p.taskId);
      return entry && entry.outputs[p.outputIndex] ? [itemOf(entry, p.outputIndex)] : [];
    });
    if (known.length === 0) roots.push(at);
    else known.forEach(climb);
  };
  climb(item);
  // A cycle has no root: the output shown is one.
  if (roots.length === 0) roots.push(item);
  // Down, breadth first so a large family keeps its nearest generations when cut.
  const placed = new Set<string>();
  let truncated = false;
  const nodeOf = (at: GalleryItem): FamilyNode => {
    placed.add(at.key);
    return { item: at, children: [] };
  };
  const trees: FamilyNode[] = [];
  const queue: FamilyNode[] = [];
  for (const root of roots) {
    if (placed.has(root.key)) continue;
    const node = nodeOf(root);
    trees.push(node);
    queue.push(node);
  }
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const child of children.get(node.item.key) ?? []) {
      const count = Math.max(1, child.outputs.length);
      for (let index = 0; index < count; index++) {
        const at = itemOf(child, index);
        if (placed.has(at.key)) continue;
        if (placed.size >= MAX_FAMILY) {
          truncated = true;
          continue;
        }
        const next = nodeOf(at);
        node.children.push(next);
        queue.push(next);
      }
    }
  }
  return { roots: trees, size: placed.size, truncated };
}

/**
 * The lineage of one output (`item`): its parents among the tasks known (`get`), and the tasks of
 * `entries` (newest first, as the history lists them) whose parents name it. Read when the Viewer shows
 * an output, not kept up for every output as the history changes.
 */
export function lineageOf(
  item: GalleryItem,
  get: (taskId: string) => HistoryEntry | undefined,
  entries: readonly HistoryEntry[],
): Lineage {
  const madeFrom: GalleryItem[] = [];
  let missing = 0;
  for (const parent of item.entry.meta.parents ?? []) {
    const entry = get(parent.taskId);
    const output = entry?.outputs[parent.outputIndex];
    if (!entry || !output) missing += 1;
    else madeFrom.push({ key: outputKeyOf(parent), entry, output, index: parent.outputIndex });
  }
  const children = entries.filter((e) => e.meta.parents?.some((p) => outputKeyOf(p) === item.key));
  const usedIn = children.map((entry) => ({
    key: `${entry.taskId}#0`,
    entry,
    output: entry.outputs[0] ?? null,
    index: 0,
  }));
  return { madeFrom, missing, usedIn, family: () => familyOf(item, get, entries) };
}
