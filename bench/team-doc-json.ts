import type * as Y from 'yjs';

// A room's content as plain JSON, to compare copies of it: the team bench's members (bench/team-members.ts)
// and the server (bench/team-node.ts). No studio code here: the server's process loads this file, and
// the studio's model code (Lingui's macros) has no place in it.

/** Keys sorted at every level, so two copies of one document compare equal whatever the insertion order. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Every root of the document as JSON (the team space's roots are all Y.Maps). */
export function contentOf(doc: Y.Doc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [...doc.share.keys()].sort()) out[name] = doc.getMap(name).toJSON();
  return out;
}
