import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog as D } from 'radix-ui';
import { ChevronLeft, ChevronRight, Keyboard, Repeat, SkipBack, SkipForward, X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { teamPickText } from '../../components/history/gallery-tile';
import type { LocalReviewStore, ReviewTeam } from '../../components/history/review-control';
import type { ZoomApi } from '../../components/zoom-stage';
import { documentDirection } from '../../lib/i18n/direction';
import { safeMediaUrl } from '../../lib/untrusted-text';
import { useSwipe } from '../../lib/use-swipe';
import { editSourceOf } from '../../model/history/edit-source';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import type { MediaType } from '../../model/search/history-filter';
import type { HistoryEntry } from '../../model/history/history-types';
import type { Lineage } from '../../model/gallery/lineage';
import type { Judgements } from '../../model/history/judgements';
import type { TeamPick } from '../../model/team/team-judgements';
import { DarkButton } from './dark-button';
import { ViewerDetails } from './viewer-details';
import { onViewerKey } from './viewer-keys';
import { ViewerShortcuts } from './viewer-shortcuts';
import { ViewerStage } from './viewer-stage';

// The Viewer (product-notes §3 "Gallery and viewer"): one output full screen, ArrowLeft/ArrowRight through the
// gallery's filtered set, zoom and pan for images, loop and frame step for video, every param and timing,
// the task's other outputs, the detail view's actions, Star and rating (keys S and 1-5), Review; "?" lists the
// shortcuts. Escape closes it and the gallery gives the focus back to the tile.

/** Frame step when the file's frame rate is unknown: the sandbox and most services render 24-30 fps. */
const FRAME_S = 1 / 30;

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
  /** "Made from" and "Used in" of the output shown (lineage-links.tsx). */
  lineage?: Lineage;
  /** This member's reviews (Approve, Needs changes, Reject): the Review of the output shown. */
  reviews?: LocalReviewStore | null;
  /** The team's reviews and members' names, while the team space is on. */
  reviewTeam?: ReviewTeam | null;
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

  const onKeyDown = (e: KeyboardEvent) =>
    onViewerKey(e, {
      goTowards,
      toggleHelp: () => setHelp((h) => !h),
      output: output ? entry.meta.mediaType : null,
      rating: judgement?.rating ?? null,
      toggleStar: () => onToggleStar(current),
      rate: (r) => onRate(current, r),
      zoom: zoom.current,
      toggleLoop: () => setLoop((l) => !l),
      step,
      compareSource: source ? () => props.onCompareSource(current) : null,
    });

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
              <ViewerStage key={current.key} item={current} url={url} zoom={zoom} video={video} loop={loop} />
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
            {help && <ViewerShortcuts onClose={() => setHelp(false)} />}
          </div>

          <ViewerDetails
            current={current}
            url={url}
            judgement={judgement}
            teamText={teamText}
            source={source}
            onToggleStar={onToggleStar}
            onRate={onRate}
            onClose={onClose}
            onRemix={props.onRemix}
            onUseAsInput={props.onUseAsInput}
            onCompareSource={props.onCompareSource}
            onShow={props.onShow}
            renderOutputExtras={props.renderOutputExtras}
            reviews={props.reviews ?? null}
            reviewTeam={props.reviewTeam ?? null}
            {...(props.lineage ? { lineage: props.lineage } : {})}
          />
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
