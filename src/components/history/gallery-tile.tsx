import { plural, t as tNow } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { AudioLines, Star, Users } from 'lucide-react';
import { isTerminal, type TaskStatus } from '../../../contract/task';
import { useTaskForecast } from './use-task-forecast';
import { statusWord } from '../../model/tasks/status-words';
import { memo, useRef, useState, type ChangeEvent } from 'react';
import type { Judgement } from '../../model/history/judgements';
import type { TeamPick } from '../../model/team/team-judgements';
import { cn } from '../../lib/cn';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { promptOf } from '../../model/search/history-filter';
import { MediaFailed, SafeImage, useMediaFailure } from './media-fallback';
import { PlayToggle, usePlayback } from './play-toggle';
import { StatusBadge, StatusIcon, STATUS_LOOK } from './status-badge';
import { truncate } from '../../lib/truncate';
import { useLongPress } from '../../lib/use-long-press';
import { formatClock, formatOneDecimal } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { BatchPlaceSpoken } from './batch-place';

// One output in the gallery grid: its picture (or a playable video or audio tile, or the task's status),
// a checkbox "Select", a "Star" toggle and the rating, and a button over the whole tile that opens the
// Viewer. Only the checkbox, the star and the audio button sit above that button.

/** The tile's name: the prompt (shortened) or what made it, which output, and the status when not done. */
export function tileLabel(item: GalleryItem): string {
  const { entry } = item;
  const prompt = promptOf(entry.request.params);
  const text = prompt ? truncate(displayText(prompt), 120) : displayText(entry.meta.title);
  // Each part wraps the label so far: a translation can put it where its language does.
  const position = item.index + 1;
  const outputs = entry.outputs.length;
  const which = outputs > 1 ? tNow`${text} (output ${position} of ${outputs})` : text;
  // The status in the words the badge shows it (status-words.ts), in the studio's language.
  const status = statusWord(entry.status);
  const withStatus = item.output
    ? which
    : tNow({ message: `${which}, ${status}`, comment: "a tile's name, then its task's status" });
  const name = entry.by ? displayText(entry.by.name) : '';
  return entry.by ? tNow`${withStatus}, by ${name}` : withStatus;
}

/** An average rating as read: one decimal at most ("4.5", "4"). */
const formatAverage = formatOneDecimal;

/** What the team thinks of an output, in words: "Starred by 2, average 4.5". */
export function teamPickText(pick: TeamPick): string {
  const stars = pick.starredBy.length;
  const average = pick.averageRating === null ? null : formatAverage(pick.averageRating);
  if (stars === 0) return average === null ? '' : tNow`Average rating ${average}`;
  // A plural though the English needs none: other languages agree the words with the count.
  return average === null
    ? plural(stars, { one: 'Starred by #', other: 'Starred by #' })
    : plural(stars, { one: `Starred by #, average ${average}`, other: `Starred by #, average ${average}` });
}

export interface GalleryTileProps {
  item: GalleryItem;
  judgement: Judgement | undefined;
  /** The team's stars and ratings of this output (team space on). */
  teamPick?: TeamPick;
  selected: boolean;
  hidden: boolean;
  onOpen: (item: GalleryItem) => void;
  onSelect: (item: GalleryItem, range: boolean) => void;
  onToggleStar: (item: GalleryItem) => void;
}

export const GalleryTile = memo(function GalleryTile({
  item,
  judgement,
  teamPick,
  selected,
  hidden,
  onOpen,
  onSelect,
  onToggleStar,
}: GalleryTileProps) {
  const { t } = useLingui();
  // Memoised: its parent's render in a new locale does not reach it, so it listens itself.
  useLocale();
  const { entry, output } = item;
  const url = safeMediaUrl(output?.url);
  const videoRef = useRef<HTMLVideoElement>(null);
  // Videos play muted while pointed at or focused (product-notes §3), and stop when left.
  const play = () => void videoRef.current?.play().catch(() => undefined);
  const stop = () => {
    const v = videoRef.current;
    if (v) {
      v.pause();
      v.currentTime = 0;
    }
  };
  const label = tileLabel(item);
  const rating = judgement?.rating;
  const starred = judgement?.starred === true;
  // A shift-click extends from the last tile clicked (React's change event of a checkbox is the click).
  const onCheckbox = (e: ChangeEvent<HTMLInputElement>) =>
    onSelect(item, 'shiftKey' in e.nativeEvent && (e.nativeEvent as MouseEvent).shiftKey);
  // By touch, a long press on the tile selects it (or leaves the selection), as phones' galleries do.
  const longPress = useLongPress(() => onSelect(item, false));

  return (
    <div
      className={cn(
        'group relative size-full overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700',
        selected && 'ring-3 ring-indigo-500 dark:ring-indigo-400',
      )}
      data-testid="gallery-tile"
      data-key={item.key}
      onPointerEnter={play}
      onPointerLeave={stop}
      onFocus={play}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) stop();
      }}
    >
      {url && entry.meta.mediaType === 'image' && (
        <SafeImage
          src={safeMediaUrl(output?.thumbnailUrl) ?? url}
          keptKey={item.key}
          alt=""
          compact
          className={cn('size-full object-cover', hidden && 'opacity-40')}
        />
      )}
      {url && entry.meta.mediaType === 'video' && (
        <TileVideo url={url} keptKey={item.key} poster={output?.thumbnailUrl} videoRef={videoRef} />
      )}
      {url && entry.meta.mediaType === 'audio' && <TileAudio url={url} keptKey={item.key} label={label} />}
      {!url && (
        <div
          className={cn(
            'flex size-full flex-col items-center justify-center gap-2',
            STATUS_LOOK[entry.status].tile,
          )}
        >
          <StatusIcon status={entry.status} className="size-7" />
          <StatusBadge status={entry.status} />
          <TileForecast taskId={entry.taskId} status={entry.status} />
        </div>
      )}

      <button
        type="button"
        onClick={() => onOpen(item)}
        {...longPress}
        aria-label={label}
        // Its name is the prompt, someone's words: not for translation.
        translate="no"
        aria-haspopup="dialog"
        data-role="open"
        className="absolute inset-0 rounded-lg select-none [-webkit-touch-callout:none] focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-indigo-500"
      />

      <div className="pointer-events-none absolute inset-x-0 bottom-0 flex items-end justify-between gap-1 bg-linear-to-t from-slate-950/75 to-transparent px-2 pt-6 pb-1.5 text-xs text-white">
        <span dir="auto" translate="no" className="min-w-0 truncate font-medium">
          {displayText(entry.meta.title)}
          {entry.by && (
            // Team space: another member's output (a name is untrusted text).
            <span className="font-normal opacity-90" data-testid="tile-by">
              {' '}
              · {displayText(entry.by.name)}
            </span>
          )}
        </span>
        {entry.meta.batchId && (entry.meta.batchSize ?? 0) > 1 && (
          // One click's tasks (Runs, Variations) say which of the batch they are, as in the History.
          <span
            className="shrink-0 rounded bg-white/20 px-1 tabular-nums"
            data-testid="tile-batch"
            data-batch-id={entry.meta.batchId}
          >
            <span aria-hidden="true">
              {entry.meta.batchIndex}/{entry.meta.batchSize}
            </span>
            <BatchPlaceSpoken batchIndex={entry.meta.batchIndex} batchSize={entry.meta.batchSize} />
          </span>
        )}
        {teamPick && teamPickText(teamPick) && (
          <span
            className="flex shrink-0 items-center gap-0.5 rounded bg-white/20 px-1 tabular-nums"
            data-testid="team-pick"
          >
            <span aria-hidden="true" className="flex items-center gap-0.5">
              <Users className="size-3" />
              {[
                teamPick.starredBy.length > 0 ? String(teamPick.starredBy.length) : '',
                teamPick.averageRating === null ? '' : `${formatAverage(teamPick.averageRating)}★`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <span className="sr-only">{teamPickText(teamPick)}</span>
          </span>
        )}
        {judgement?.rating ? (
          <span className="shrink-0 tabular-nums" aria-label={t`Rated ${rating} of 5`}>
            {'★'.repeat(judgement.rating)}
          </span>
        ) : null}
      </div>
      {/* Centred (left-1/2 with the physical -translate-x-1/2): the same in both directions. */}
      {hidden && (
        <span className="pointer-events-none absolute top-2 left-1/2 -translate-x-1/2 rounded bg-slate-900/80 px-1.5 text-[11px] font-medium text-white">
          <Trans>Hidden</Trans>
        </span>
      )}

      <label
        className={cn(
          'absolute top-1.5 start-1.5 z-20 grid size-7 cursor-pointer place-items-center rounded-md bg-white/90 shadow-sm dark:bg-slate-900/90',
          !selected &&
            'opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 pointer-coarse:opacity-100',
        )}
      >
        <input
          type="checkbox"
          aria-label={t`Select`}
          aria-describedby={undefined}
          title={label}
          checked={selected}
          onChange={onCheckbox}
          className="size-4 cursor-pointer accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        />
      </label>
      {output && (
        <button
          type="button"
          aria-label={t`Star`}
          aria-pressed={starred}
          title={starred ? t`Starred` : t`Star`}
          onClick={() => onToggleStar(item)}
          className={cn(
            'absolute top-1.5 end-1.5 z-20 grid size-7 place-items-center rounded-md bg-white/90 text-slate-700 shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-900/90 dark:text-slate-200',
            !starred &&
              'opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 pointer-coarse:opacity-100',
          )}
        >
          <Star className={cn('size-4', starred && 'fill-amber-400 text-amber-500')} aria-hidden="true" />
        </button>
      )}
    </div>
  );
});

/** What the poll schedule knows of an unfinished task ("about 3 ahead", "~4s left", "checking"). */
function TileForecast({ taskId, status }: { taskId: string; status: TaskStatus }) {
  const text = useTaskForecast(taskId, !isTerminal(status), status);
  if (!text) return null;
  return (
    <span data-testid="task-forecast" className="text-xs text-slate-700 dark:text-slate-200">
      {text}
    </span>
  );
}

function TileVideo({
  url,
  keptKey,
  poster,
  videoRef,
}: {
  url: string;
  keptKey: string;
  poster: string | undefined;
  videoRef: React.RefObject<HTMLVideoElement | null>;
}) {
  const { t } = useLingui();
  const media = useMediaFailure(url, keptKey);
  if (media.failed)
    return (
      <MediaFailed reason={media.reason} onRetry={media.retry} compact label={t`Video could not load`} />
    );
  return (
    <video
      key={media.attempt}
      ref={videoRef}
      src={media.src}
      poster={safeMediaUrl(poster)}
      muted
      loop
      playsInline
      preload="metadata"
      onError={media.onError}
      aria-hidden="true"
      tabIndex={-1}
      className="size-full bg-slate-900 object-cover"
    />
  );
}

/** An audio tile: its duration, and a play button (above the tile's open button). */
function TileAudio({ url, keptKey, label }: { url: string; keptKey: string; label: string }) {
  const { ref, playing, events, toggle } = usePlayback<HTMLAudioElement>();
  const [duration, setDuration] = useState<number | null>(null);
  const { t } = useLingui();
  const media = useMediaFailure(url, keptKey);
  if (media.failed)
    return (
      <MediaFailed reason={media.reason} onRetry={media.retry} compact label={t`Audio could not load`} />
    );
  return (
    <div
      className={cn('flex size-full flex-col items-center justify-center gap-2', STATUS_LOOK.succeeded.tile)}
    >
      <AudioLines className="size-8" aria-hidden="true" />
      <span
        className="text-sm font-medium text-slate-700 tabular-nums dark:text-slate-200"
        data-testid="audio-duration"
      >
        {duration === null ? '–:––' : formatClock(duration)}
      </span>
      <audio
        key={media.attempt}
        ref={ref}
        src={media.src}
        preload="metadata"
        onLoadedMetadata={(e) =>
          Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)
        }
        {...events}
        onError={media.onError}
      />
      <PlayToggle playing={playing} label={label} onToggle={toggle} className="relative" />
    </div>
  );
}
