import { Trans, useLingui } from '@lingui/react/macro';
import { Maximize, Minus, Plus, Scan } from 'lucide-react';
import { useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from 'react-zoom-pan-pinch';
import { Button } from './button';
import { cn } from '../lib/cn';
import { formatWholePercent } from '../lib/format';

// Zoom and pan for images (product-notes §3 "Gallery and viewer"; wheel, pinch, "Fit", "100%"), on
// react-zoom-pan-pinch: a small, maintained library that already does wheel, pinch, pan, double-click and
// their inertia right, which a hand-written version would take long to match. The content is laid out at its
// natural size, so a scale of 1 is exactly 100% and "Fit" is the library's fitToView.

export interface ZoomApi {
  fit: () => void;
  actual: () => void;
  zoomIn: () => void;
  zoomOut: () => void;
  /** Moves to another stage's transform (compare: zoom and pan kept in sync). */
  follow: (state: ZoomState) => void;
  /** Whether the whole image is in view (at "Fit" or smaller): a swipe then turns to the next. */
  fitted: () => boolean;
}

export interface ZoomState {
  scale: number;
  positionX: number;
  positionY: number;
}

const near = (a: ZoomState, b: ZoomState) =>
  Math.abs(a.scale - b.scale) < 1e-3 &&
  Math.abs(a.positionX - b.positionX) < 0.5 &&
  Math.abs(a.positionY - b.positionY) < 0.5;

export interface ZoomStageProps {
  children: ReactNode;
  className?: string;
  /** Called on every transform, for syncing another stage. */
  onTransform?: (state: ZoomState) => void;
  /** Without controls (compare's second pane uses the first's). */
  controls?: boolean;
  label?: string;
  /** React 19: `ref` is an ordinary prop (no forwardRef); it receives the stage's ZoomApi. */
  ref?: Ref<ZoomApi>;
}

export function ZoomStage({ children, className, onTransform, controls = true, label, ref }: ZoomStageProps) {
  const { t } = useLingui();
  const lib = useRef<ReactZoomPanPinchRef | null>(null);
  const [scale, setScale] = useState<number | null>(null);
  const api: ZoomApi = {
    fit: () => void lib.current?.fitToView({ mode: 'contain', animationTime: 0 }),
    actual: () => void lib.current?.centerView(1, 0),
    zoomIn: () => void lib.current?.zoomIn(0.4, 0),
    zoomOut: () => void lib.current?.zoomOut(0.4, 0),
    follow: (state) => {
      const current = lib.current?.state;
      if (!current || near(current, state)) return;
      void lib.current?.setTransform(state.positionX, state.positionY, state.scale, 0);
    },
    fitted: () => {
      const r = lib.current;
      const wrapper = r?.instance.wrapperComponent;
      const content = r?.instance.contentComponent;
      if (!r || !wrapper || !content || !content.offsetWidth || !content.offsetHeight) return true;
      // The content is laid out at its natural size (transforms leave offsetWidth alone).
      const fit = Math.min(
        wrapper.clientWidth / content.offsetWidth,
        wrapper.clientHeight / content.offsetHeight,
      );
      return r.state.scale <= fit * 1.02;
    },
  };
  useImperativeHandle(ref, () => api);
  return (
    <div className={cn('relative flex min-h-0 flex-col', className)}>
      <TransformWrapper
        ref={lib}
        minScale={0.02}
        maxScale={16}
        limitToBounds={false}
        centerZoomedOut
        fitOnInit="contain"
        doubleClick={{ mode: 'toggle' }}
        wheel={{ step: 0.1 }}
        onInit={(r) => setScale(r.state.scale)}
        onTransform={(_r, state) => {
          setScale(state.scale);
          onTransform?.(state);
        }}
      >
        {/* Left to right in every direction: the library places the image with physical x offsets, and
            an image is never mirrored (in RTL the content box started at the right, off its fit). */}
        <TransformComponent
          wrapperClass="!size-full min-h-0 flex-1"
          contentClass=""
          wrapperProps={{ dir: 'ltr' }}
        >
          {children}
        </TransformComponent>
      </TransformWrapper>
      {controls && (
        <div
          // Centred under the image (left-1/2 with the physical -translate-x-1/2): the same either way.
          role="group"
          aria-label={label ?? t`Zoom`}
          className="absolute bottom-3 left-1/2 z-10 flex -translate-x-1/2 items-center gap-1 rounded-lg bg-white/95 p-1 text-slate-900 shadow-lg dark:text-slate-100 ring-1 ring-slate-300 dark:bg-slate-900/95 dark:ring-slate-700"
        >
          <Button
            size="sm"
            variant="ghost"
            aria-label={t`Zoom out`}
            title={t`Zoom out (-)`}
            onClick={api.zoomOut}
          >
            <Minus className="size-4" aria-hidden="true" />
          </Button>
          <span className="w-12 text-center text-xs tabular-nums" data-testid="zoom-level" aria-live="polite">
            {scale === null ? '' : formatWholePercent(scale)}
          </span>
          <Button
            size="sm"
            variant="ghost"
            aria-label={t`Zoom in`}
            title={t`Zoom in (+)`}
            onClick={api.zoomIn}
          >
            <Plus className="size-4" aria-hidden="true" />
          </Button>
          <Button size="sm" variant="ghost" onClick={api.fit} title={t`Fit (F)`}>
            <Maximize className="size-4" aria-hidden="true" />
            <Trans>Fit</Trans>
          </Button>
          <Button size="sm" variant="ghost" onClick={api.actual} title={t`Actual size (A)`}>
            <Scan className="size-4" aria-hidden="true" />
            {formatWholePercent(1)}
          </Button>
        </div>
      )}
    </div>
  );
}
