import type { GalleryItem } from '../gallery/gallery-item';
import type { HistoryEntry } from './history-types';

// Lineage (docs/using.md "Lineage"): a task made from another's output (Use as input, Remix of an
// edit, an extend, a lip-sync...) names that output in its params, since the service takes an output's
// URL as an input. So the parents are found, as the task is sent, among the outputs this device knows
// (its own history and the team's): each param's URL that is one of them. They are kept in the task's
// meta (`parents`), so they travel with it in an export, a recipe and the team space, and "Used in" is
// the inverse, read from every task's parents.

/** One output a task was made from. */
export interface Parent {
  taskId: string;
  outputIndex: number;
}

const outputKeyOf = (p: Parent): string => `${p.taskId}#${p.outputIndex}`;

/**
 * The most parents a task keeps (a reference-image model takes a handful).
 * @internal
 */
export const MAX_PARENTS = 16;

/** Where an output URL comes from among the known tasks (HistoryStore.outputAt). */
export type OutputAt = (url: string) => Parent | undefined;

/**
 * The known outputs a request's params name, in the params' order, each once.
 * @internal
 */
export function parentsOf(params: Record<string, unknown>, outputAt: OutputAt): Parent[] {
  const parents: Parent[] = [];
  const seen = new Set<string>();
  const take = (value: unknown) => {
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || parents.length >= MAX_PARENTS) return;
    const parent = outputAt(value);
    const key = parent && outputKeyOf(parent);
    if (!parent || seen.has(key!)) return;
    seen.add(key!);
    parents.push(parent);
  };
  for (const value of Object.values(params)) {
    if (Array.isArray(value)) value.forEach(take);
    else take(value);
  }
  return parents;
}

/** The meta of a click's tasks with the parents their params name (the meta as it was when none). */
export function withParents<M extends { parents?: Parent[] }>(
  meta: M,
  requests: ReadonlyArray<{ params: Record<string, unknown> }>,
  outputAt: OutputAt,
): M {
  const all: Parent[] = [];
  const seen = new Set<string>();
  for (const request of requests) {
    for (const parent of parentsOf(request.params, outputAt)) {
      const key = outputKeyOf(parent);
      if (seen.has(key) || all.length >= MAX_PARENTS) continue;
      seen.add(key);
      all.push(parent);
    }
  }
  return all.length === 0 ? meta : { ...meta, parents: all };
}

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
