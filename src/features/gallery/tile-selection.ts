// Multi-select in the gallery (product-notes §3: a checkbox "Select" per tile, shift-click for a range,
// Ctrl/Cmd+A for the filtered set). Pure: the selection is an immutable Set of output keys plus the
// anchor a shift-click extends from.

export interface TileSelection {
  keys: ReadonlySet<string>;
  anchor: string | null;
}

export const EMPTY_SELECTION: TileSelection = { keys: new Set(), anchor: null };

/** A click on one tile's checkbox: toggles it, and it becomes the anchor. */
export function toggle(selection: TileSelection, key: string): TileSelection {
  const keys = new Set(selection.keys);
  if (keys.has(key)) keys.delete(key);
  else keys.add(key);
  return { keys, anchor: key };
}

/**
 * A shift-click: every tile between the anchor and this one (in the shown order) takes the state the
 * clicked tile gets. Without an anchor (or when it is no longer shown), a plain toggle.
 */
export function extendTo(selection: TileSelection, key: string, order: readonly string[]): TileSelection {
  const from = selection.anchor === null ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(key);
  if (from < 0 || to < 0) return toggle(selection, key);
  const select = !selection.keys.has(key);
  const keys = new Set(selection.keys);
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    if (select) keys.add(order[i]!);
    else keys.delete(order[i]!);
  }
  return { keys, anchor: key };
}

/** Ctrl/Cmd+A: the whole filtered set. */
export const selectAll = (order: readonly string[]): TileSelection => ({
  keys: new Set(order),
  anchor: order[0] ?? null,
});

/** Keeps only keys still shown (after a filter change or a hide). */
export function restrictTo(selection: TileSelection, shown: ReadonlySet<string>): TileSelection {
  let changed = false;
  const keys = new Set<string>();
  for (const k of selection.keys) {
    if (shown.has(k)) keys.add(k);
    else changed = true;
  }
  return changed
    ? { keys, anchor: selection.anchor && shown.has(selection.anchor) ? selection.anchor : null }
    : selection;
}
