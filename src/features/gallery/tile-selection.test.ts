import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, extendTo, restrictTo, selectAll, toggle } from './tile-selection';

const order = ['a', 'b', 'c', 'd', 'e'];
const keys = (s: { keys: ReadonlySet<string> }) => [...s.keys].sort();

describe('tile selection', () => {
  it('toggles one tile and makes it the anchor', () => {
    const one = toggle(EMPTY_SELECTION, 'b');
    expect(keys(one)).toEqual(['b']);
    expect(one.anchor).toBe('b');
    expect(keys(toggle(one, 'b'))).toEqual([]);
  });

  it('shift-click selects the range from the anchor, in either direction', () => {
    expect(keys(extendTo(toggle(EMPTY_SELECTION, 'b'), 'd', order))).toEqual(['b', 'c', 'd']);
    expect(keys(extendTo(toggle(EMPTY_SELECTION, 'd'), 'a', order))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('shift-click on a selected tile clears the range', () => {
    const all = selectAll(order);
    const anchored = toggle(toggle(all, 'e'), 'e'); // e stays selected and is the anchor
    expect(keys(extendTo(anchored, 'c', order))).toEqual(['a', 'b']);
  });

  it('shift-click without an anchor is a plain toggle', () => {
    expect(keys(extendTo(EMPTY_SELECTION, 'c', order))).toEqual(['c']);
  });

  it('select all takes the filtered set; restrict drops tiles no longer shown', () => {
    const all = selectAll(order);
    expect(keys(all)).toEqual(order);
    const kept = restrictTo(all, new Set(['a', 'c']));
    expect(keys(kept)).toEqual(['a', 'c']);
    expect(restrictTo(kept, new Set(order))).toBe(kept);
  });
});
