import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { Brush, Contrast, Eraser, Trash2, Undo2 } from 'lucide-react';
import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { Spinner } from '../../../../components/spinner';
import { cn } from '../../../../lib/cn';
import { shortcutFor } from '../../../../components/shortcuts';
import {
  brushRange,
  canUndo,
  clampBrushSize,
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
  type StrokeMode,
} from './mask-ops';
import { drawOverlay, exportMask } from './mask-render';

export interface MaskPainterProps {
  /** The image to paint on. Only its natural size is read; it is never drawn into a canvas. */
  sourceUrl: string;
  /** The field's label, used in accessible names ("Source for …"). */
  label: string;
  /** Gets the mask: a PNG of the source's natural size, white = change, black = keep. */
  onDone: (mask: File) => void;
  onCancel: () => void;
  /** Disables painting and "Use mask" (for example while the mask uploads). */
  busy?: boolean;
}

type ImageState =
  | { status: 'loading' }
  | { status: 'ready'; width: number; height: number }
  | { status: 'error'; message: string };

/**
 * Paint the area an edit model should change over the source image, then export a black-and-white mask.
 * Keyed by `sourceUrl`, so a new image starts a new, empty mask.
 */
export default function MaskPainter(props: MaskPainterProps) {
  return <Painter key={props.sourceUrl} {...props} />;
}

/** Redraws the overlay: the committed strokes plus the one being drawn. Quiet when there is no 2D context. */
function paint(canvas: HTMLCanvasElement | null, committed: MaskState, live: Stroke | null): void {
  const ctx = canvas?.getContext('2d');
  if (!canvas || !ctx) return;
  const state = live ? { ...committed, strokes: [...committed.strokes, live] } : committed;
  drawOverlay(ctx, state, canvas.width, canvas.height);
}

const IMAGE_SIZE = 'col-start-1 row-start-1 block h-auto max-h-[60vh] w-auto max-w-full';

const TOGGLE_ON = cn(
  'aria-pressed:bg-indigo-50 aria-pressed:text-indigo-900 aria-pressed:ring-2 aria-pressed:ring-indigo-500',
  'dark:aria-pressed:bg-indigo-950 dark:aria-pressed:text-indigo-100 dark:aria-pressed:ring-indigo-400',
);

function Painter({ sourceUrl, label, onDone, onCancel, busy = false }: MaskPainterProps) {
  const { t } = useLingui();
  const [image, setImage] = useState<ImageState>({ status: 'loading' });
  const [actions, setActions] = useState<MaskAction[]>([]);
  const [tool, setTool] = useState<StrokeMode>('brush');
  const [chosenSize, setChosenSize] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const committedRef = useRef<MaskState>(replay([]));
  const liveRef = useRef<Stroke | null>(null);
  const pointerRef = useRef<number | null>(null);
  const frameRef = useRef<number | null>(null);

  const ids = useId();
  const sizeId = `${ids}-size`;
  const legendId = `${ids}-legend`;
  const hintId = `${ids}-hint`;

  const state = useMemo(() => replay(actions), [actions]);
  const ready = image.status === 'ready';
  const range = ready ? brushRange(image.width, image.height) : brushRange(0, 0);
  const brushSize = clampBrushSize(chosenSize ?? range.initial, range.min, range.max);
  const locked = busy || exporting || !ready;
  const usable = isUsable(state);

  // Commit-time redraw (no flash between the live stroke and its committed copy).
  useLayoutEffect(() => {
    committedRef.current = state;
    paint(canvasRef.current, state, liveRef.current);
  }, [state, ready]);

  useEffect(
    () => () => {
      if (frameRef.current !== null) cancelAnimationFrame(frameRef.current);
    },
    [],
  );

  const schedulePaint = () => {
    if (frameRef.current !== null) return;
    frameRef.current = requestAnimationFrame(() => {
      frameRef.current = null;
      paint(canvasRef.current, committedRef.current, liveRef.current);
    });
  };

  const commit = (next: (prev: MaskAction[]) => MaskAction[]) => {
    setExportError(null);
    setActions(next);
  };

  const doUndo = () => {
    if (locked || liveRef.current) return;
    commit(undo);
  };

  const imagePoint = (canvas: HTMLCanvasElement, clientX: number, clientY: number) =>
    toImagePoint(clientX, clientY, canvas.getBoundingClientRect(), canvas.width, canvas.height);

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (locked || liveRef.current) return;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const canvas = e.currentTarget;
    const p = imagePoint(canvas, e.clientX, e.clientY);
    if (!p) return;
    e.preventDefault();
    try {
      canvas.setPointerCapture(e.pointerId);
    } catch {
      // Not capturable (synthetic event): the stroke still works while the pointer stays on the canvas.
    }
    // Keeps Ctrl/Cmd+Z working right after painting with the mouse.
    rootRef.current?.focus({ preventScroll: true });
    pointerRef.current = e.pointerId;
    liveRef.current = { kind: 'stroke', mode: tool, size: brushSize, points: [p] };
    schedulePaint();
  };

  const extend = (e: PointerEvent<HTMLCanvasElement>) => {
    const live = liveRef.current;
    if (!live || e.pointerId !== pointerRef.current) return false;
    const canvas = e.currentTarget;
    const rect = canvas.getBoundingClientRect();
    const native = e.nativeEvent;
    const coalesced = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    const samples = coalesced.length > 0 ? coalesced : [native];
    const spacing = minPointSpacing(live.size);
    for (const s of samples) {
      const p = toImagePoint(s.clientX, s.clientY, rect, canvas.width, canvas.height);
      if (p && shouldAppend(live.points.at(-1), p, spacing)) live.points.push(p);
    }
    return true;
  };

  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    if (extend(e)) schedulePaint();
  };

  const finish = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!extend(e)) return;
    const stroke = liveRef.current;
    liveRef.current = null;
    pointerRef.current = null;
    if (stroke) commit((prev) => push(prev, stroke));
  };

  // Without pointer capture (it failed), a release outside the canvas is never seen: end the stroke here.
  const onPointerLeave = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!e.currentTarget.hasPointerCapture(e.pointerId)) finish(e);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (shortcutFor(['studio.maskUndo'], e)) {
      e.preventDefault();
      doUndo();
    }
  };

  const submitMask = async () => {
    if (image.status !== 'ready' || !usable || busy || exporting) return;
    setExporting(true);
    setExportError(null);
    try {
      const blob = await exportMask(state, image.width, image.height);
      onDone(new File([blob], 'mask.png', { type: 'image/png' }));
    } catch (err) {
      setExportError(err instanceof Error ? err.message : t`Could not make the mask.`);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div
      ref={rootRef}
      tabIndex={-1}
      role="group"
      aria-label={t`Mask for ${label}`}
      onKeyDown={onKeyDown}
      className="flex flex-col gap-3 outline-none"
    >
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t`Mask tools`}>
        <div className="flex gap-1">
          <Button
            size="sm"
            aria-pressed={tool === 'brush'}
            disabled={locked}
            onClick={() => setTool('brush')}
            className={TOGGLE_ON}
          >
            <Brush className="size-4" aria-hidden="true" />
            <Trans>Brush</Trans>
          </Button>
          <Button
            size="sm"
            aria-pressed={tool === 'erase'}
            disabled={locked}
            onClick={() => setTool('erase')}
            className={TOGGLE_ON}
          >
            <Eraser className="size-4" aria-hidden="true" />
            <Trans>Eraser</Trans>
          </Button>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={sizeId} className="text-sm font-medium text-slate-700 dark:text-slate-300">
            <Trans>Brush size</Trans>
          </label>
          <input
            id={sizeId}
            type="range"
            min={range.min}
            max={range.max}
            step={range.step}
            value={brushSize}
            disabled={locked}
            aria-valuetext={plural(brushSize, { one: '# pixel', other: '# pixels' })}
            onChange={(e) => setChosenSize(Number(e.target.value))}
            className="w-28 accent-indigo-600 disabled:opacity-60 dark:accent-indigo-400"
          />
          <output
            htmlFor={sizeId}
            className="min-w-14 text-sm text-slate-700 tabular-nums dark:text-slate-300"
          >
            <Trans>{brushSize} px</Trans>
          </output>
        </div>
        <div className="flex flex-wrap gap-1">
          <Button
            size="sm"
            aria-pressed={state.inverted}
            disabled={locked}
            onClick={() => commit((prev) => push(prev, { kind: 'invert' }))}
            className={TOGGLE_ON}
          >
            <Contrast className="size-4" aria-hidden="true" />
            <Trans>Invert</Trans>
          </Button>
          <Button
            size="sm"
            disabled={locked || state.strokes.length === 0}
            onClick={() => commit((prev) => push(prev, { kind: 'clear' }))}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            <Trans>Clear</Trans>
          </Button>
          <Button
            size="sm"
            disabled={locked || !canUndo(actions)}
            aria-keyshortcuts="Control+Z Meta+Z"
            onClick={doUndo}
          >
            <Undo2 className="size-4 rtl:-scale-x-100" aria-hidden="true" />
            <Trans>Undo</Trans>
          </Button>
        </div>
      </div>

      <p id={legendId} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
        <span
          aria-hidden="true"
          className="mt-1 inline-block size-3 shrink-0 rounded-sm bg-rose-500/60 ring-1 ring-rose-600"
        />
        <span>
          <Trans>
            Painted (shown in red) = area to change. The uploaded mask is white where you painted and black
            elsewhere. Invert swaps them: the red then covers everything you did not paint, and that is what
            changes.
          </Trans>
        </span>
      </p>

      <div className="flex justify-center rounded-lg bg-slate-100 p-2 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
        {image.status === 'loading' && (
          <p role="status" className="self-center py-8 text-sm text-slate-600 dark:text-slate-400">
            <Spinner className="me-2 inline" /> <Trans>Loading image…</Trans>
          </p>
        )}
        {image.status === 'error' && (
          <Alert tone="error" title={t`The image could not be loaded, so there is nothing to paint on.`}>
            {image.message}
          </Alert>
        )}
        <div className={cn('max-w-full', ready ? 'grid' : 'hidden')}>
          <img
            src={sourceUrl}
            alt={t`Source for ${label}`}
            draggable={false}
            onLoad={(e) => {
              const { naturalWidth, naturalHeight } = e.currentTarget;
              setImage(
                naturalWidth > 0 && naturalHeight > 0
                  ? { status: 'ready', width: naturalWidth, height: naturalHeight }
                  : { status: 'error', message: t`The image has no pixel size (is it an SVG without one?).` },
              );
            }}
            onError={() =>
              setImage({
                status: 'error',
                message: t`Check that the file is an image and that its URL is still reachable, then try again.`,
              })
            }
            className={cn(
              IMAGE_SIZE,
              'select-none bg-[repeating-conic-gradient(#e2e8f0_0%_25%,transparent_0%_50%)] bg-[length:16px_16px]',
              'dark:bg-[repeating-conic-gradient(#1e293b_0%_25%,transparent_0%_50%)]',
            )}
          />
          {image.status === 'ready' && (
            <canvas
              ref={canvasRef}
              width={image.width}
              height={image.height}
              aria-label={t`Mask painting area`}
              aria-describedby={legendId}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={finish}
              onPointerCancel={finish}
              onLostPointerCapture={finish}
              onPointerLeave={onPointerLeave}
              className={cn(IMAGE_SIZE, 'touch-none', locked ? 'cursor-not-allowed' : 'cursor-crosshair')}
            />
          )}
        </div>
      </div>

      {exportError && (
        <Alert tone="error" title={t`The mask could not be made.`}>
          {exportError}
        </Alert>
      )}

      <div className="flex flex-wrap items-center justify-end gap-2">
        {ready && !usable && (
          <p id={hintId} className="me-auto text-sm text-slate-600 dark:text-slate-400">
            <Trans>Paint over the area to change, or use Invert, to enable “Use mask”.</Trans>
          </p>
        )}
        <Button variant="secondary" onClick={onCancel} disabled={exporting}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          variant="primary"
          disabled={!ready || !usable || busy || exporting}
          aria-describedby={ready && !usable ? hintId : undefined}
          onClick={() => void submitMask()}
        >
          {(busy || exporting) && <Spinner className="text-white" />}
          <Trans>Use mask</Trans>
        </Button>
      </div>
    </div>
  );
}
