import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { useRef, useState } from 'react';
import { Segmented } from '../../components/segmented';
import { cn } from '../../lib/cn';
import { MediaFailed, SafeImage, useMediaFailure } from './media-fallback';
import { ZoomStage, type ZoomApi, type ZoomState } from './zoom-stage';

// Compare two outputs (product-notes §3): side by side, or one over the other with a slider ("Before and
// after"), zoom and pan kept in sync. An edit opens on its source: the slider is its natural view.

export interface CompareSide {
  label: string;
  url: string;
  mediaType: 'image' | 'video' | 'audio';
  /** The output shown (`${taskId}#${index}`), when it is one: its kept copy stands in for a failed URL. */
  keptKey?: string;
}

export type CompareMode = 'side' | 'slider';

export function CompareTwo({
  before,
  after,
  initialMode,
  onClose,
}: {
  before: CompareSide;
  after: CompareSide;
  initialMode: CompareMode;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<CompareMode>(initialMode);
  const [split, setSplit] = useState(50);
  const left = useRef<ZoomApi>(null);
  const right = useRef<ZoomApi>(null);
  // Either pane leads: the other follows its transform (follow() ignores one it already has, so the
  // echo stops there).
  const followLeft = (state: ZoomState) => left.current?.follow(state);
  const followRight = (state: ZoomState) => right.current?.follow(state);

  return (
    <D.Root open onOpenChange={(open) => !open && onClose()}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-950" />
        <D.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-50 flex flex-col bg-slate-950 text-white"
        >
          <div className="flex flex-wrap items-center gap-3 bg-white px-3 py-2 text-slate-900 dark:bg-slate-900 dark:text-slate-100">
            <D.Title className="text-sm font-semibold">Compare two</D.Title>
            <Segmented
              aria-label="Layout"
              value={mode}
              onChange={(v) => setMode(v as CompareMode)}
              options={[
                { value: 'side', label: 'Side by side' },
                { value: 'slider', label: 'Slider' },
              ]}
            />
            <D.Close
              aria-label="Close"
              className="ms-auto rounded-md p-1.5 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
            >
              <X className="size-5" aria-hidden="true" />
            </D.Close>
          </div>
          {mode === 'side' ? (
            <div className="grid min-h-0 flex-1 grid-rows-2 gap-1 sm:grid-cols-2 sm:grid-rows-1">
              <Pane side={before} caption="Before" stage={left} onTransform={followRight} />
              <Pane side={after} caption="After" stage={right} onTransform={followLeft} />
            </div>
          ) : (
            <div className="relative flex min-h-0 flex-1 flex-col">
              <ZoomStage ref={left} className="min-h-0 flex-1" label="Zoom">
                <div className="relative" data-testid="before-after">
                  <Media side={before} />
                  <div className="absolute inset-0" style={{ clipPath: `inset(0 0 0 ${split}%)` }}>
                    <Media side={after} fill />
                  </div>
                  {/* Physical left: the line sits where the clip-path's inset cuts the image, both measured
                      from the image's left edge (pixel geometry, not the reading direction). */}
                  <div
                    aria-hidden="true"
                    className="pointer-events-none absolute inset-y-0 w-0.5 bg-white shadow-[0_0_0_1px_rgb(15_23_42/0.6)]"
                    style={{ left: `${split}%` }}
                  />
                </div>
              </ZoomStage>
              {/* Left to right like the image above it: the range's value is the clip's inset from the
                  image's left edge, so under RTL a mirrored range would put its thumb opposite the line. */}
              <div
                dir="ltr"
                className="flex items-center gap-3 bg-white px-4 py-2 text-sm text-slate-900 dark:bg-slate-900 dark:text-slate-100"
              >
                <span dir="auto" className="max-w-[35%] truncate">
                  Before: {before.label}
                </span>
                <input
                  type="range"
                  min={0}
                  max={100}
                  step={1}
                  value={split}
                  onChange={(e) => setSplit(Number(e.target.value))}
                  aria-label="Before and after"
                  aria-valuetext={`${split}% before`}
                  className="min-w-0 flex-1 accent-indigo-600"
                />
                <span dir="auto" className="max-w-[35%] truncate">
                  After: {after.label}
                </span>
              </div>
            </div>
          )}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

function Pane({
  side,
  caption,
  stage,
  onTransform,
}: {
  side: CompareSide;
  caption: string;
  stage: React.RefObject<ZoomApi | null>;
  onTransform: (state: ZoomState) => void;
}) {
  return (
    <figure className="relative flex min-h-0 flex-col">
      <ZoomStage
        ref={stage}
        onTransform={onTransform}
        className="min-h-0 flex-1"
        label={`Zoom ${caption.toLowerCase()}`}
      >
        <Media side={side} />
      </ZoomStage>
      <figcaption
        dir="auto"
        className="truncate bg-white px-3 py-1 text-xs text-slate-900 dark:bg-slate-900 dark:text-slate-100"
      >
        {caption}: {side.label}
      </figcaption>
    </figure>
  );
}

/**
 * Both sides are laid out at one width, whatever their pixel sizes (an upscale is 4 times its source),
 * so one transform shows the same spot of each: that is what keeps side by side in sync.
 */
const LAYOUT_WIDTH = 'w-[1024px]';

function Media({ side, fill }: { side: CompareSide; fill?: boolean }) {
  const media = useMediaFailure(side.mediaType === 'image' ? undefined : side.url, side.keptKey);
  const cls = cn('block max-w-none', fill ? 'size-full object-cover' : `${LAYOUT_WIDTH} h-auto`);
  if (side.mediaType === 'image')
    return <SafeImage src={side.url} keptKey={side.keptKey} alt={side.label} lazy={false} className={cls} />;
  if (media.failed) return <MediaFailed reason={media.reason} onRetry={media.retry} />;
  if (side.mediaType === 'video') {
    return (
      <video
        key={media.attempt}
        src={media.src}
        muted
        loop
        autoPlay
        playsInline
        onError={media.onError}
        aria-label={side.label}
        className={cls}
      />
    );
  }
  return (
    <audio key={media.attempt} src={media.src} controls onError={media.onError} aria-label={side.label} />
  );
}
