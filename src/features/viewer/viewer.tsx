import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog as D } from 'radix-ui';
import {
  AudioLines,
  ChevronLeft,
  ChevronRight,
  Columns2,
  Keyboard,
  Repeat,
  SkipBack,
  SkipForward,
  Star,
  X,
} from 'lucide-react';
import { Fragment, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { ShortcutList } from '../../components/shortcut-list';
import { shortcutFor, shortcutsOf, type ShortcutId } from '../../components/shortcuts';
import type { Judgements } from '../../model/history/judgements';
import { statusWord } from '../../model/tasks/status-words';
import type { TeamPick } from '../../model/team/team-judgements';
import { cn } from '../../lib/cn';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import { editSourceOf } from '../../model/history/edit-source';
import type { GalleryItem } from '../../model/history/gallery-item';
import { outputKey } from '../../model/history/gallery-item';
import { promptOf, type MediaType } from '../../model/history/history-filter';
import type { HistoryEntry } from '../../model/history/history-types';
import { MediaFailed, SafeImage, useMediaFailure } from '../../components/history/media-fallback';
import { StatusIcon, STATUS_LOOK } from '../../components/history/status-badge';
import { OutputActions, ParamList, TaskEndNotice, TaskFacts, Timings } from '../../components/history/task-detail';
import { teamPickText, tileLabel } from '../../components/history/gallery-tile';
import { ZoomStage, type ZoomApi } from '../../components/zoom-stage';
import { documentDirection } from '../../lib/i18n/direction';
import { useSwipe } from '../../lib/use-swipe';

// The Viewer (product-notes §3 "Gallery and viewer"): one output full screen, ArrowLeft/ArrowRight through the
// gallery's filtered set, zoom and pan for images, loop and frame step for video, every param and timing,
// the task's other outputs, the detail view's actions, Star and rating (keys S and 1-5); "?" lists the
// shortcuts. Escape closes it and the gallery gives the focus back to the tile.

/** Frame step when the file's frame rate is unknown: the sandbox and most services render 24-30 fps. */
const FRAME_S = 1 / 30;

/** The Viewer's keys (Escape closes it through the dialog itself). */
const VIEWER_KEYS = [
  'help',
  'viewer.previous',
  'viewer.next',
  'viewer.star',
  'viewer.rate',
  'viewer.clearRating',
  'viewer.fit',
  'viewer.actual',
  'viewer.zoomIn',
  'viewer.zoomOut',
  'viewer.loop',
  'viewer.previousFrame',
  'viewer.nextFrame',
  'viewer.compareSource',
] as const satisfies readonly ShortcutId[];

export interface ViewerProps {
  items: GalleryItem[];
  index: number;
  onIndex: (index: number) => void;
  /** Another output of the task, which may not be in the filtered set. */
  onShow: (item: GalleryItem) => void;
  current: GalleryItem;
  judgements: Judgements;
  onToggleStar: (item: GalleryItem) => void;
  onRate: (item: GalleryItem, rating: number | null) => void;
  onClose: (item: GalleryItem) => void;
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: MediaType) => void;
  onCompareSource: (item: GalleryItem) => void;
  /** The team's stars and ratings of the output shown (team space on). */
  teamPick?: TeamPick;
  /** More of the side panel for the output shown: the app puts the team's comments here. */
  renderOutputExtras?: (outputKey: string) => ReactNode;
}

export function Viewer(props: ViewerProps) {
  const { t } = useLingui();
  const { items, index, onIndex, current, judgements, onToggleStar, onRate, onClose } = props;
  const [help, setHelp] = useState(false);
  const [loop, setLoop] = useState(true);
  const zoom = useRef<ZoomApi>(null);
  const video = useRef<HTMLVideoElement>(null);
  const { entry, output } = current;
  const url = safeMediaUrl(output?.url);
  const judgement = judgements.get(current.key);
  const source = editSourceOf(entry);
  const inSet = index >= 0;
  const position = index + 1;
  const total = items.length;
  const teamText = props.teamPick ? teamPickText(props.teamPick) : '';
  const go = (delta: number) => {
    if (!inSet || items.length === 0) return;
    const next = index + delta;
    if (next >= 0 && next < items.length) onIndex(next);
  };
  const step = (frames: number) => {
    const v = video.current;
    if (!v) return;
    v.pause();
    v.currentTime = Math.max(0, Math.min(v.duration || Infinity, v.currentTime + frames * FRAME_S));
  };

  // The arrows and a swipe follow the reading direction, as a book's pages turn: ArrowRight (a swipe to
  // the left) is the next output left to right, the previous one right to left. The direction is read
  // when the key is pressed, so a change of language needs no re-render here.
  const goTowards = (physical: 1 | -1) => go(documentDirection() === 'rtl' ? -physical : physical);

  // A swipe turns to the previous or next output, as ArrowLeft/ArrowRight; on an image zoomed in, a finger
  // pans it instead.
  const swipe = useSwipe(goTowards, () => zoom.current?.fitted() ?? true);

  const onKeyDown = (e: KeyboardEvent) => {
    const onMedia = e.target instanceof HTMLMediaElement;
    const handled = (() => {
      switch (shortcutFor(VIEWER_KEYS, e)) {
        case 'viewer.previous':
          return !onMedia && (goTowards(-1), true);
        case 'viewer.next':
          return !onMedia && (goTowards(1), true);
        case 'help':
          return (setHelp((h) => !h), true);
        default:
          break;
      }
      if (!output) return false;
      const image = entry.meta.mediaType === 'image';
      const video = entry.meta.mediaType === 'video';
      switch (shortcutFor(VIEWER_KEYS, e)) {
        case 'viewer.star':
          return (onToggleStar(current), true);
        case 'viewer.rate': {
          const r = Number(e.key);
          return (onRate(current, judgement?.rating === r ? null : r), true);
        }
        case 'viewer.clearRating':
          return (onRate(current, null), true);
        case 'viewer.fit':
          return image && (zoom.current?.fit(), true);
        case 'viewer.actual':
          return image && (zoom.current?.actual(), true);
        case 'viewer.zoomIn':
          return image && (zoom.current?.zoomIn(), true);
        case 'viewer.zoomOut':
          return image && (zoom.current?.zoomOut(), true);
        case 'viewer.loop':
          return video && (setLoop((l) => !l), true);
        case 'viewer.previousFrame':
          return video && (step(-1), true);
        case 'viewer.nextFrame':
          return video && (step(1), true);
        case 'viewer.compareSource':
          return !!source && (props.onCompareSource(current), true);
        default:
          return false;
      }
    })();
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  return (
    <D.Root open onOpenChange={(open) => !open && onClose(current)}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-950" />
        <D.Content
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
          onEscapeKeyDown={(e) => {
            if (help) {
              e.preventDefault();
              setHelp(false);
            }
          }}
          onCloseAutoFocus={(e) => e.preventDefault()}
          className="fixed inset-0 z-50 flex flex-col overflow-y-auto bg-white text-slate-900 lg:flex-row lg:overflow-hidden dark:bg-slate-900 dark:text-slate-100"
        >
          <div className="relative flex min-h-[60dvh] min-w-0 flex-1 flex-col bg-slate-950 lg:min-h-0">
            <div className="flex items-center gap-2 px-3 py-2 text-white">
              <D.Title className="text-sm font-semibold">
                <Trans>Viewer</Trans>
              </D.Title>
              <span className="text-xs text-slate-300 tabular-nums" data-testid="viewer-position">
                {inSet ? t`${position} of ${total}` : t`not in the filtered set`}
              </span>
              <div className="ms-auto flex items-center gap-1">
                <DarkButton label={t`Previous`} onClick={() => go(-1)} disabled={!inSet || index === 0}>
                  <ChevronLeft className="size-5 rtl:-scale-x-100" aria-hidden="true" />
                </DarkButton>
                <DarkButton
                  label={t`Next`}
                  onClick={() => go(1)}
                  disabled={!inSet || index >= items.length - 1}
                >
                  <ChevronRight className="size-5 rtl:-scale-x-100" aria-hidden="true" />
                </DarkButton>
                <DarkButton label={t`Keyboard shortcuts`} onClick={() => setHelp((h) => !h)} pressed={help}>
                  <Keyboard className="size-5" aria-hidden="true" />
                </DarkButton>
                <D.Close asChild>
                  <DarkButton label={t`Close`}>
                    <X className="size-5" aria-hidden="true" />
                  </DarkButton>
                </D.Close>
              </div>
            </div>
            <div className="flex min-h-0 flex-1 flex-col" data-testid="viewer-stage" {...swipe}>
              <Stage key={current.key} item={current} url={url} zoom={zoom} video={video} loop={loop} />
            </div>
            {entry.meta.mediaType === 'video' && url && (
              <div role="group" aria-label={t`Video`} className="flex justify-center gap-1 px-3 py-2">
                <DarkButton label={t`Loop`} pressed={loop} onClick={() => setLoop((l) => !l)}>
                  <Repeat className="size-4" aria-hidden="true" />
                </DarkButton>
                <DarkButton label={t`Previous frame`} onClick={() => step(-1)}>
                  <SkipBack className="size-4" aria-hidden="true" />
                </DarkButton>
                <DarkButton label={t`Next frame`} onClick={() => step(1)}>
                  <SkipForward className="size-4" aria-hidden="true" />
                </DarkButton>
              </div>
            )}
            {help && <Shortcuts onClose={() => setHelp(false)} />}
          </div>

          <aside
            aria-label={t`Details`}
            className="flex w-full shrink-0 flex-col gap-4 p-4 lg:w-96 lg:overflow-y-auto"
          >
            <div>
              <h2 dir="auto" translate="no" className="text-base font-semibold">
                {displayText(entry.meta.title)}
              </h2>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
                <TaskFacts entry={entry} />
              </div>
              <Prompt entry={entry} />
            </div>
            {output && (
              <Judging
                starred={judgement?.starred === true}
                rating={judgement?.rating ?? null}
                onStar={() => onToggleStar(current)}
                onRate={(r) => onRate(current, r)}
              />
            )}
            {teamText && (
              <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="viewer-team-pick">
                {t`Team: ${teamText}`}
              </p>
            )}
            <TaskEndNotice entry={entry} />
            <OutputActions
              entry={entry}
              url={url}
              keptKey={output ? current.key : undefined}
              onRemix={props.onRemix}
              onUseAsInput={props.onUseAsInput}
              onDone={() => onClose(current)}
            >
              {source && url && (
                <Button onClick={() => props.onCompareSource(current)} title={t`Compare with the source (C)`}>
                  <Columns2 className="size-4" aria-hidden="true" />
                  <Trans>Compare with source</Trans>
                </Button>
              )}
            </OutputActions>
            {entry.outputs.length > 1 && <OtherOutputs current={current} onShow={props.onShow} />}
            {/* Keyed by output: a draft comment on one output does not follow the viewer to the next. */}
            {output && props.renderOutputExtras && (
              <Fragment key={current.key}>{props.renderOutputExtras(current.key)}</Fragment>
            )}
            <section>
              <h3 className="mb-2 text-sm font-semibold">
                <Trans>Timing</Trans>
              </h3>
              <Timings entry={entry} />
            </section>
            <section>
              <h3 className="mb-2 text-sm font-semibold">
                <Trans>Params</Trans>
              </h3>
              <ParamList entry={entry} />
            </section>
          </aside>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

function DarkButton({
  label,
  onClick,
  disabled,
  pressed,
  children,
  ...rest
}: {
  label: string;
  onClick?: () => void;
  disabled?: boolean;
  pressed?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        'grid size-9 place-items-center rounded-lg text-slate-100 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-indigo-400 disabled:opacity-40',
        pressed && 'bg-white/15',
      )}
      {...rest}
    >
      {children}
    </button>
  );
}

function Prompt({ entry }: { entry: HistoryEntry }) {
  const prompt = promptOf(entry.request.params);
  if (!prompt) return null;
  return (
    <p
      dir="auto"
      translate="no"
      className="mt-3 text-sm whitespace-pre-wrap wrap-anywhere text-slate-700 dark:text-slate-300"
    >
      {displayText(prompt)}
    </p>
  );
}

/** "Star" and the 1-5 rating (buttons named "1" to "5" in the group "Rating"). */
function Judging({
  starred,
  rating,
  onStar,
  onRate,
}: {
  starred: boolean;
  rating: number | null;
  onStar: () => void;
  onRate: (rating: number | null) => void;
}) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button aria-pressed={starred} onClick={onStar} title={t`Star (S)`}>
        <Star className={cn('size-4', starred && 'fill-amber-400 text-amber-500')} aria-hidden="true" />
        <Trans>Star</Trans>
      </Button>
      <div role="group" aria-label={t`Rating`} className="flex items-center gap-0.5">
        {[1, 2, 3, 4, 5].map((r) => (
          <button
            key={r}
            type="button"
            aria-pressed={rating === r}
            title={t({
              message: `Rate ${r} of 5 (key ${r})`,
              comment: 'The rating, then the keyboard key that gives it',
            })}
            onClick={() => onRate(rating === r ? null : r)}
            className={cn(
              'grid size-8 place-items-center rounded-md text-sm font-semibold ring-1 ring-slate-300 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-500 dark:ring-slate-600',
              rating !== null && r <= rating
                ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100'
                : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
            )}
          >
            {r}
          </button>
        ))}
      </div>
    </div>
  );
}

function OtherOutputs({ current, onShow }: { current: GalleryItem; onShow: (item: GalleryItem) => void }) {
  const { t } = useLingui();
  const { entry } = current;
  const outputs = entry.outputs.length;
  return (
    <section>
      <h3 className="mb-2 text-sm font-semibold">
        <Trans>This task’s outputs</Trans>
      </h3>
      <ul className="flex flex-wrap gap-2">
        {entry.outputs.map((output, index) => {
          const item: GalleryItem = { key: outputKey(entry.taskId, index), entry, output, index };
          const src = safeMediaUrl(output.thumbnailUrl ?? output.url);
          const position = index + 1;
          return (
            <li key={item.key}>
              <button
                type="button"
                aria-label={t`Output ${position} of ${outputs}`}
                aria-current={index === current.index ? 'true' : undefined}
                onClick={() => onShow(item)}
                className={cn(
                  'size-16 overflow-hidden rounded-md bg-slate-100 ring-1 ring-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-800 dark:ring-slate-700',
                  index === current.index && 'ring-3 ring-indigo-500',
                )}
              >
                {src && entry.meta.mediaType === 'image' ? (
                  <SafeImage src={src} keptKey={item.key} alt="" compact className="size-full object-cover" />
                ) : (
                  <span className="text-xs">{index + 1}</span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Stage({
  item,
  url,
  zoom,
  video,
  loop,
}: {
  item: GalleryItem;
  url: string | undefined;
  zoom: React.RefObject<ZoomApi | null>;
  video: React.RefObject<HTMLVideoElement | null>;
  loop: boolean;
}) {
  const { t } = useLingui();
  const { entry } = item;
  const status = statusWord(entry.status);
  const label = tileLabel(item);
  const media = useMediaFailure(url, item.key);
  const box = 'flex min-h-0 flex-1 items-center justify-center p-2';
  if (!url) {
    return (
      <div className={box}>
        <div
          className={cn('flex flex-col items-center gap-2 rounded-lg p-8', STATUS_LOOK[entry.status].tile)}
        >
          <StatusIcon status={entry.status} className="size-10" />
          <span>{entry.status === 'succeeded' ? t`No output to show` : t`No output: ${status}`}</span>
        </div>
      </div>
    );
  }
  if (entry.meta.mediaType === 'image') {
    return (
      <ZoomStage
        ref={zoom}
        className="min-h-0 flex-1 bg-[repeating-conic-gradient(rgb(148_163_184/0.15)_0_25%,transparent_0_50%)] bg-size-[20px_20px]"
      >
        <SafeImage src={url} keptKey={item.key} alt={label} lazy={false} className="block max-w-none" />
      </ZoomStage>
    );
  }
  if (media.failed) {
    return (
      <div className={box}>
        <div className="h-56 w-80 max-w-full overflow-hidden rounded-lg">
          <MediaFailed reason={media.reason} onRetry={media.retry} label={t`Could not load`} />
        </div>
      </div>
    );
  }
  if (entry.meta.mediaType === 'video') {
    return (
      <div className={box}>
        <video
          key={media.attempt}
          ref={video}
          src={media.src}
          poster={safeMediaUrl(item.output?.thumbnailUrl)}
          controls
          autoPlay
          muted
          loop={loop}
          playsInline
          onError={media.onError}
          aria-label={t`Video: ${label}`}
          className="max-h-full max-w-full"
        />
      </div>
    );
  }
  return (
    <div className={cn(box, 'flex-col gap-4 text-slate-200')}>
      <AudioLines className="size-16" aria-hidden="true" />
      <audio
        key={media.attempt}
        src={media.src}
        controls
        preload="metadata"
        onError={media.onError}
        aria-label={t`Audio: ${label}`}
        className="w-full max-w-md scheme-dark"
      />
    </div>
  );
}

function Shortcuts({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  return (
    <section
      aria-label={t`Keyboard shortcuts`}
      className="absolute top-14 end-3 z-20 w-72 rounded-xl bg-white p-4 text-slate-900 shadow-2xl ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold">
          <Trans>Keyboard shortcuts</Trans>
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t`Hide shortcuts`}
          className="rounded-md p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      <ShortcutList shortcuts={shortcutsOf('viewer')} />
    </section>
  );
}
