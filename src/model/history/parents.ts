import { outputKey } from './output-key';

// The parents of a task (docs/using.md "Lineage"): a task made from another's output (Use as input,
// Remix of an edit, an extend, a lip-sync...) names that output in its params, since the service takes
// an output's URL as an input. So the parents are found, as the task is sent, among the outputs this
// device knows (its own history and the team's): each param's URL that is one of them. They are kept in
// the task's meta (`parents`), so they travel with it in an export, a recipe and the team space. The
// family read from them is model/gallery/lineage.ts.

/** One output a task was made from. */
export interface Parent {
  taskId: string;
  outputIndex: number;
}

const outputKeyOf = (p: Parent): string => outputKey(p.taskId, p.outputIndex);

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
