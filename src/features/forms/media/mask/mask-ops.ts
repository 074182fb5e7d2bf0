/**
 * The mask painter's model: a history of actions, replayed into what to draw. Pure, no DOM.
 *
 * Coordinates and sizes are in SOURCE IMAGE pixels (the image's natural size), never CSS pixels, so the
 * exported mask matches the image however large it is displayed.
 *
 * Decisions:
 * - `clear` removes the strokes painted so far but keeps the invert setting: Invert is a toggle the user
 *   sees (pressed or not), and Clear only wipes the paint.
 * - Undo removes the last action, whatever it was (a stroke, a clear or an invert).
 */

export interface Point {
  x: number;
  y: number;
}

export type StrokeMode = 'brush' | 'erase';

export interface Stroke {
  kind: 'stroke';
  mode: StrokeMode;
  /** Brush diameter in image pixels. */
  size: number;
  points: Point[];
}

export type MaskAction = Stroke | { kind: 'clear' } | { kind: 'invert' };

export interface MaskState {
  inverted: boolean;
  /** Strokes since the last clear, oldest first. */
  strokes: Stroke[];
}

/** What the history amounts to: the invert flag and the strokes since the last clear. */
export function replay(actions: readonly MaskAction[]): MaskState {
  let inverted = false;
  let strokes: Stroke[] = [];
  for (const action of actions) {
    if (action.kind === 'invert') inverted = !inverted;
    else if (action.kind === 'clear') strokes = [];
    else strokes.push(action);
  }
  return { inverted, strokes };
}

/** The history without its last action (a new array; the empty history stays empty). */
export function undo(actions: readonly MaskAction[]): MaskAction[] {
  return actions.slice(0, -1);
}

export const canUndo = (actions: readonly MaskAction[]): boolean => actions.length > 0;

/**
 * Adds an action to the history, skipping ones that would change nothing (and so only clutter Undo):
 * a stroke without points or with a non-positive size, and a clear when there is no paint to clear.
 */
export function push(actions: readonly MaskAction[], action: MaskAction): MaskAction[] {
  if (action.kind === 'stroke' && (action.points.length === 0 || !(action.size > 0))) return [...actions];
  if (action.kind === 'clear' && replay(actions).strokes.length === 0) return [...actions];
  return [...actions, action];
}

/**
 * True when nothing is painted: no brush stroke since the last clear. (An eraser stroke alone erases
 * nothing; brush strokes later erased by hand still count as paint, which is the safe side.)
 * @internal
 */
export const isEmpty = (state: MaskState): boolean => !state.strokes.some((s) => s.mode === 'brush');

/** Whether the mask is worth sending: something painted, or inverted (which selects everything else). */
export const isUsable = (state: MaskState): boolean => state.inverted || !isEmpty(state);

export interface RectLike {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Maps a pointer position (client coordinates) on the displayed canvas to image pixels. `rect` is the
 * canvas's bounding client rect; the canvas must be stretched exactly over the image (same aspect ratio,
 * no object-fit letterboxing, no border or padding). Points outside the image are not clamped, so a
 * stroke leaving the image and coming back keeps its shape. Null when the canvas has no size on screen.
 */
export function toImagePoint(
  clientX: number,
  clientY: number,
  rect: RectLike,
  naturalWidth: number,
  naturalHeight: number,
): Point | null {
  if (!(rect.width > 0 && rect.height > 0 && naturalWidth > 0 && naturalHeight > 0)) return null;
  return {
    x: ((clientX - rect.left) * naturalWidth) / rect.width,
    y: ((clientY - rect.top) * naturalHeight) / rect.height,
  };
}

/**
 * Whether a new pointer sample is far enough from the last point to keep (thins the dense stream of
 * pointermove events without changing the drawn shape much). The first point is always kept.
 */
export function shouldAppend(last: Point | undefined, next: Point, minDistance: number): boolean {
  if (!last) return true;
  return Math.hypot(next.x - last.x, next.y - last.y) >= minDistance;
}

/** Minimum spacing between kept points for a brush of `size` image pixels. */
export const minPointSpacing = (size: number): number => Math.max(0.5, size / 10);

const BRUSH_MIN = 1;
/** @internal */
export const BRUSH_MAX = 500;

export interface BrushRange {
  min: number;
  max: number;
  /** Starting size: 4% of the image's shorter side. */
  initial: number;
  step: number;
}

export const clampBrushSize = (size: number, min = BRUSH_MIN, max = BRUSH_MAX): number =>
  Number.isFinite(size) ? Math.min(max, Math.max(min, Math.round(size))) : min;

/**
 * Brush sizes for an image, in image pixels: from 1 to half the shorter side (at most 500), starting at
 * 4% of the shorter side. A degenerate size (0, NaN) gives the 1..1 range rather than throwing.
 */
export function brushRange(naturalWidth: number, naturalHeight: number): BrushRange {
  const shorter = Math.min(naturalWidth, naturalHeight);
  const max = clampBrushSize(shorter / 2);
  return { min: BRUSH_MIN, max, initial: clampBrushSize(shorter * 0.04, BRUSH_MIN, max), step: 1 };
}
