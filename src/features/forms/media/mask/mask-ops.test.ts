import { describe, expect, it } from 'vitest';
import {
  BRUSH_MAX,
  brushRange,
  canUndo,
  clampBrushSize,
  isEmpty,
  isUsable,
  minPointSpacing,
  push,
  replay,
  shouldAppend,
  toImagePoint,
  undo,
  type MaskAction,
  type MaskState,
  type Stroke,
} from './mask-ops';

// A mask with nothing drawn and not inverted.
const EMPTY_MASK: MaskState = { inverted: false, strokes: [] };

const brush = (x = 10, size = 8): Stroke => ({ kind: 'stroke', mode: 'brush', size, points: [{ x, y: x }] });
const erase = (x = 10, size = 8): Stroke => ({ kind: 'stroke', mode: 'erase', size, points: [{ x, y: x }] });
const CLEAR: MaskAction = { kind: 'clear' };
const INVERT: MaskAction = { kind: 'invert' };

describe('replay', () => {
  it('is the empty mask for no actions', () => {
    expect(replay([])).toEqual(EMPTY_MASK);
  });

  it('keeps strokes in order, brush and eraser alike', () => {
    const a = brush(1);
    const b = erase(2);
    const c = brush(3);
    expect(replay([a, b, c])).toEqual({ inverted: false, strokes: [a, b, c] });
  });

  it('toggles invert on each invert action', () => {
    expect(replay([INVERT]).inverted).toBe(true);
    expect(replay([INVERT, INVERT]).inverted).toBe(false);
    expect(replay([INVERT, brush(), INVERT, INVERT]).inverted).toBe(true);
  });

  it('drops strokes before the last clear but keeps the invert setting', () => {
    const late = brush(5);
    expect(replay([brush(1), INVERT, erase(2), CLEAR, late])).toEqual({ inverted: true, strokes: [late] });
    expect(replay([brush(1), CLEAR])).toEqual(EMPTY_MASK);
  });

  it('does not mutate its input', () => {
    const actions: MaskAction[] = [brush(1), CLEAR, brush(2)];
    const copy = structuredClone(actions);
    replay(actions).strokes.push(brush(9));
    expect(actions).toEqual(copy);
  });
});

describe('undo and canUndo', () => {
  it('removes only the last action, whatever its kind', () => {
    const a = brush(1);
    expect(undo([a, INVERT])).toEqual([a]);
    expect(undo([a, CLEAR])).toEqual([a]);
    expect(undo([a])).toEqual([]);
  });

  it('brings back what a clear removed', () => {
    const a = brush(1);
    expect(replay(undo([a, CLEAR])).strokes).toEqual([a]);
  });

  it('leaves the empty history empty and returns a new array', () => {
    const actions: MaskAction[] = [brush()];
    expect(undo([])).toEqual([]);
    expect(undo(actions)).not.toBe(actions);
    expect(actions).toHaveLength(1);
  });

  it('can undo only when there is history', () => {
    expect(canUndo([])).toBe(false);
    expect(canUndo([INVERT])).toBe(true);
  });
});

describe('push', () => {
  it('appends an action in a new array', () => {
    const actions: MaskAction[] = [brush(1)];
    const next = push(actions, INVERT);
    expect(next).toEqual([brush(1), INVERT]);
    expect(actions).toHaveLength(1);
  });

  it('skips strokes with no points or no size', () => {
    expect(push([], { kind: 'stroke', mode: 'brush', size: 8, points: [] })).toEqual([]);
    expect(push([], { ...brush(), size: 0 })).toEqual([]);
    expect(push([], { ...brush(), size: Number.NaN })).toEqual([]);
  });

  it('skips a clear when nothing is painted since the last clear', () => {
    expect(push([], CLEAR)).toEqual([]);
    expect(push([brush(), CLEAR], CLEAR)).toEqual([brush(), CLEAR]);
    expect(push([INVERT], CLEAR)).toEqual([INVERT]);
    expect(push([brush()], CLEAR)).toEqual([brush(), CLEAR]);
  });

  it('always keeps invert actions', () => {
    expect(push([], INVERT)).toEqual([INVERT]);
  });
});

describe('isEmpty and isUsable', () => {
  it('is empty with no strokes, or only eraser strokes', () => {
    expect(isEmpty(EMPTY_MASK)).toBe(true);
    expect(isEmpty(replay([erase()]))).toBe(true);
    expect(isEmpty(replay([brush(), CLEAR]))).toBe(true);
  });

  it('is not empty once something is brushed', () => {
    expect(isEmpty(replay([brush()]))).toBe(false);
    expect(isEmpty(replay([brush(), erase()]))).toBe(false);
  });

  it('is usable when painted or inverted', () => {
    expect(isUsable(EMPTY_MASK)).toBe(false);
    expect(isUsable(replay([brush()]))).toBe(true);
    expect(isUsable(replay([INVERT]))).toBe(true);
    expect(isUsable(replay([INVERT, INVERT]))).toBe(false);
  });
});

describe('toImagePoint', () => {
  const rect = { left: 100, top: 50, width: 200, height: 100 };

  it('scales from the displayed size to the natural size', () => {
    expect(toImagePoint(100, 50, rect, 2000, 1000)).toEqual({ x: 0, y: 0 });
    expect(toImagePoint(300, 150, rect, 2000, 1000)).toEqual({ x: 2000, y: 1000 });
    expect(toImagePoint(150, 75, rect, 2000, 1000)).toEqual({ x: 500, y: 250 });
  });

  it('scales down when the image is shown larger than its natural size', () => {
    expect(toImagePoint(200, 100, rect, 50, 25)).toEqual({ x: 25, y: 12.5 });
  });

  it('does not clamp points outside the image', () => {
    expect(toImagePoint(90, 40, rect, 200, 100)).toEqual({ x: -10, y: -10 });
  });

  it('is null when the canvas or the image has no size', () => {
    expect(toImagePoint(1, 1, { ...rect, width: 0 }, 10, 10)).toBeNull();
    expect(toImagePoint(1, 1, rect, 0, 10)).toBeNull();
    expect(toImagePoint(1, 1, rect, 10, Number.NaN)).toBeNull();
  });
});

describe('shouldAppend and minPointSpacing', () => {
  it('keeps the first point and points far enough apart', () => {
    expect(shouldAppend(undefined, { x: 0, y: 0 }, 5)).toBe(true);
    expect(shouldAppend({ x: 0, y: 0 }, { x: 3, y: 4 }, 5)).toBe(true);
    expect(shouldAppend({ x: 0, y: 0 }, { x: 3, y: 3 }, 5)).toBe(false);
  });

  it('spaces points by a tenth of the brush, at least half a pixel', () => {
    expect(minPointSpacing(100)).toBe(10);
    expect(minPointSpacing(1)).toBe(0.5);
  });
});

describe('brush sizes', () => {
  it('clamps and rounds to whole pixels within the range', () => {
    expect(clampBrushSize(0)).toBe(1);
    expect(clampBrushSize(12.4)).toBe(12);
    expect(clampBrushSize(10_000)).toBe(BRUSH_MAX);
    expect(clampBrushSize(80, 1, 50)).toBe(50);
    expect(clampBrushSize(Number.NaN)).toBe(1);
  });

  it('starts at 4% of the shorter side, up to half of it', () => {
    expect(brushRange(1000, 500)).toEqual({ min: 1, max: 250, initial: 20, step: 1 });
    expect(brushRange(512, 512)).toEqual({ min: 1, max: 256, initial: 20, step: 1 });
  });

  it('caps the maximum at 500 for large images', () => {
    expect(brushRange(6000, 4000)).toEqual({ min: 1, max: 500, initial: 160, step: 1 });
    expect(brushRange(40_000, 40_000).initial).toBe(500);
  });

  it('never goes below 1 for tiny or broken sizes', () => {
    expect(brushRange(10, 10)).toEqual({ min: 1, max: 5, initial: 1, step: 1 });
    expect(brushRange(1, 1)).toEqual({ min: 1, max: 1, initial: 1, step: 1 });
    expect(brushRange(0, 0)).toEqual({ min: 1, max: 1, initial: 1, step: 1 });
    expect(brushRange(Number.NaN, 10)).toEqual({ min: 1, max: 1, initial: 1, step: 1 });
  });
});
