import * as Y from 'yjs';
import type { z } from 'zod/mini';

// Reading a shared structure leniently and writing a diff into it, with no knowledge of what it holds
// (board-fields.ts says that for a board). Reading never throws: what another member's studio, or a
// hostile client, wrote is parsed, and what does not parse is left out. Writing touches only what
// differs, so a member's edit never overwrites a part someone else changed meanwhile.

// ---- reading ---------------------------------------------------------------------------------------------

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** A reader of one value by a schema: its data, or undefined when it does not parse. */
export const parsedBy =
  <S extends z.ZodMiniType>(schema: S) =>
  (v: unknown): z.infer<S> | undefined => {
    const parsed = schema.safeParse(v);
    return parsed.success ? parsed.data : undefined;
  };

/**
 * Half of a surrogate pair (concurrent edits can leave one) reads as U+FFFD: that is what every other
 * copy reads, because Yjs sends text as UTF-8, where a lone half cannot be written. Read raw, the copy
 * that made the edit would show a different string from the rest.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** @internal */
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

export const textOf = (v: unknown): string => wellFormed(v instanceof Y.Text ? v.toString() : (str(v) ?? ''));

export function entriesOf(v: unknown): [string, unknown][] {
  return v instanceof Y.Map ? [...(v as Y.Map<unknown>).entries()] : [];
}

// ---- writing ---------------------------------------------------------------------------------------------

/** JSON values (params, cells) compared by content: a write of an equal value would still be an edit. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return (
      ka.length === kb.length &&
      ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return false;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Turns `text` into `next` with one delete and one insert around the common start and end, so a
 * keystroke is a one-character edit that merges with another member's typing elsewhere in the text.
 */
export function setText(text: Y.Text, next: string): void {
  const prev = text.toString();
  if (prev === next) return;
  const max = Math.min(prev.length, next.length);
  let start = 0;
  while (start < max && prev.charCodeAt(start) === next.charCodeAt(start)) start++;
  // Never split a surrogate pair: half of an emoji on each side of an edit is not text.
  if (start > 0 && isHighSurrogate(prev.charCodeAt(start - 1))) start--;
  let end = 0;
  while (
    end < max - start &&
    prev.charCodeAt(prev.length - 1 - end) === next.charCodeAt(next.length - 1 - end)
  )
    end++;
  if (end > 0 && isLowSurrogate(prev.charCodeAt(prev.length - end))) end--;
  const removed = prev.length - start - end;
  if (removed > 0) text.delete(start, removed);
  const inserted = next.slice(start, next.length - end);
  if (inserted) text.insert(start, inserted);
}

export function setValue(map: Y.Map<unknown>, key: string, value: unknown): void {
  if (value === undefined) {
    if (map.has(key)) map.delete(key);
  } else if (!same(map.get(key), value)) map.set(key, value);
}

export function childMap(parent: Y.Map<unknown>, key: string): Y.Map<unknown> {
  const current = parent.get(key);
  if (current instanceof Y.Map) return current as Y.Map<unknown>;
  const made = new Y.Map<unknown>();
  parent.set(key, made);
  return made;
}

export function childArray<T>(parent: Y.Map<unknown>, key: string): Y.Array<T> {
  const current = parent.get(key);
  if (current instanceof Y.Array) return current as Y.Array<T>;
  const made = new Y.Array<T>();
  parent.set(key, made);
  return made;
}

/** Makes a Y.Map's entries those of `record` (values compared by content; keys not in it removed). */
export function syncRecord(map: Y.Map<unknown>, record: Readonly<Record<string, unknown>>): void {
  for (const key of [...map.keys()]) if (!(key in record)) map.delete(key);
  for (const [key, value] of Object.entries(record)) setValue(map, key, value);
}

/**
 * Makes a Y.Array hold the items of `target` (identified by `keyOf`): items gone are deleted, new ones
 * inserted where they belong, kept ones left in place (so another member's concurrent edit inside a
 * kept row survives). A reorder, which no screen makes today, rewrites from the first moved item.
 */
export function syncList<T, Y_ITEM>(
  array: Y.Array<Y_ITEM>,
  target: readonly T[],
  keyOfItem: (item: Y_ITEM) => string | undefined,
  keyOf: (t: T) => string,
  make: (t: T) => Y_ITEM,
  update: (item: Y_ITEM, t: T) => void,
): void {
  const wanted = new Set(target.map(keyOf));
  const seen = new Set<string>();
  for (let i = array.length - 1; i >= 0; i--) {
    const k = keyOfItem(array.get(i));
    // Gone from the target, or unreadable: removed.
    if (k === undefined || !wanted.has(k)) array.delete(i, 1);
  }
  // Two members adding the same item offline leave it twice: the first stays.
  for (let i = 0; i < array.length; i++) {
    const k = keyOfItem(array.get(i))!;
    if (seen.has(k)) {
      array.delete(i, 1);
      i--;
    } else seen.add(k);
  }
  target.forEach((t, i) => {
    const k = keyOf(t);
    const here = i < array.length ? keyOfItem(array.get(i)) : undefined;
    if (here === k) {
      update(array.get(i), t);
      return;
    }
    const at = array.toArray().findIndex((item) => keyOfItem(item) === k);
    if (at === -1) {
      array.insert(i, [make(t)]);
      return;
    }
    // Moved: take it out and put a copy in its place (only a reorder gets here).
    array.delete(at, 1);
    array.insert(i, [make(t)]);
  });
}
