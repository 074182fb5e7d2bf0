import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Segmented } from '../../components/segmented';
import { cn } from '../../lib/cn';
import { useDirection } from '../../lib/i18n/direction';
import { MediaFailed, SafeImage, useMediaFailure } from '../../components/history/media-fallback';
import { ZoomStage, type ZoomApi, type ZoomState } from '../../components/zoom-stage';
import type { CompareMode, CompareSide } from '../../model/gallery/compare-pair';

// Compare two outputs (product-notes §3): side by side, or one over the other with a slider ("Before and
// after"), zoom and pan kept in sync. An edit opens on its source: the slider is its natural view.

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
  const { t } = useLingui();
  const beforeLabel = before.label;
  const afterLabel = after.label;
  const [mode, setMode] = useState<CompareMode>(initialMode);
  const [split, setSplit] = useState(50);
  // "Before" is on the reading direction's start side: the left, or the right in a right-to-left document.
  // The image below is never mirrored, so the cut is placed in physical terms from that side.
  const rtl = useDirection() === 'rtl';
  const start = rtl ? 'right' : 'left';
  // The arrows move the handle the way they point, whatever the browser's own rule for a mirrored range:
  // toward the start side is more "before" in LTR and less in RTL.
  const onSliderKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const towardsRight = e.key === 'ArrowRight' ? 1 : -1;
    setSplit((s) => Math.min(100, Math.max(0, s + (rtl ? -towardsRight : towardsRight))));
  };
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
            <D.Title className="text-sm font-semibold">{t`Compare two`}</D.Title>
            <Segmented
              aria-label={t`Layout`}
              value={mode}
              onChange={(v) => setMode(v as CompareMode)}
              options={[
                { value: 'side', label: t`Side by side` },
                { value: 'slider', label: t`Slider` },
              ]}
            />
            <D.Close
              aria-label={t`Close`}
              className="ms-auto rounded-md p-1.5 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
            >
              <X className="size-5" aria-hidden="true" />
            </D.Close>
          </div>
          {mode === 'side' ? (
            <div className="grid min-h-0 flex-1 grid-rows-2 gap-1 sm:grid-cols-2 sm:grid-rows-1">
              <Pane
                side={before}
                caption={t`Before: ${beforeLabel}`}
                zoomLabel={t`Zoom before`}
                stage={left}
                onTransform={followRight}
              />
              <Pane
                side={after}
                caption={t`After: ${afterLabel}`}
                zoomLabel={t`Zoom after`}
                stage={right}
                onTransform={followLeft}
              />
            </div>
          ) : (
            <div className="relative flex min-h-0 flex-1 flex-col">
              <ZoomStage ref={left} className="min-h-0 flex-1" label={t`Zoom`}>
                <div className="relative" data-testid="before-after">
                  <Media side={before} />
                  <div
                    className="absolute inset-0"
                    data-testid="after-layer"
                    style={{ clipPath: rtl ? `inset(0 ${split}% 0 0)` : `inset(0 0 0 ${split}%)` }}
                  >
                    <Media side={after} fill />
                  </div>
                  {/* Physical left or right: the line sits where the clip-path's inset cuts the image, both
                      measured from the start side's edge of an image laid out left to right (the zoom
                      stage), so the pixel geometry holds and only the side "before" is on follows. */}
                  <div
                    aria-hidden="true"
                    data-testid="split-line"
                    className="pointer-events-none absolute inset-y-0 w-0.5 bg-white shadow-[0_0_0_1px_rgb(15_23_42/0.6)]"
                    style={{ [start]: `${split}%` }}
                  />
                </div>
              </ZoomStage>
              {/* In the document's direction, as the image's cut: the range's value is the share of "before",
                  measured from the start side, so a right-to-left range puts its thumb under the line. */}
              <div className="flex items-center gap-3 bg-white px-4 py-2 text-sm text-slate-900 dark:bg-slate-900 dark:text-slate-100">
                <span dir="auto" className="max-w-[35%] truncate">
                  <Trans>
                    Before: <span translate="no">{beforeLabel}</span>
                  </Trans>
                </span>
                <input
                  type="range"
                  min={0}
                  max={100}
                  step={1}
                  value={split}
                  onChange={(e) => setSplit(Number(e.target.value))}
                  onKeyDown={onSliderKey}
                  aria-label={t`Before and after`}
                  aria-valuetext={t`${split}% before`}
                  className="min-w-0 flex-1 accent-indigo-600"
                />
                <span dir="auto" className="max-w-[35%] truncate">
                  <Trans>
                    After: <span translate="no">{afterLabel}</span>
                  </Trans>
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
  zoomLabel,
  stage,
  onTransform,
}: {
  side: CompareSide;
  /** "Before: …" or "After: …", under the pane. */
  caption: string;
  zoomLabel: string;
  stage: React.RefObject<ZoomApi | null>;
  onTransform: (state: ZoomState) => void;
}) {
  return (
    <figure className="relative flex min-h-0 flex-col">
      <ZoomStage ref={stage} onTransform={onTransform} className="min-h-0 flex-1" label={zoomLabel}>
        <Media side={side} />
      </ZoomStage>
      <figcaption
        dir="auto"
        translate="no"
        className="truncate bg-white px-3 py-1 text-xs text-slate-900 dark:bg-slate-900 dark:text-slate-100"
      >
        {caption}
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
