import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { AudioLines, ChevronDown, ChevronRight, Film, Layers } from 'lucide-react';
import { memo, useId } from 'react';
import type { TaskStatus } from '../../../contract/task';
import type { HistoryEntry } from '../../model/history/history-types';
import { statusCount } from '../../model/tasks/status-words';
import { cn } from '../../lib/cn';
import { formatCount, formatList } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import type { BatchStack } from '../../model/gallery/batch-stacks';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { tileLabel } from './gallery-tile';
import { promptOf } from '../../model/search/history-filter';
import { SafeImage } from './media-fallback';
import { CardThumb } from './output-media';
import { STATUS_LOOK, StatusIcon } from './status-badge';
import { truncate } from '../../lib/truncate';

// A batch shown as one stack ("Group batches", product-notes §3 "History and gallery"): its best member
// under the current sort, and how many it holds. The stack is a disclosure button: it opens in place
// (its members follow it in the list) and closes again; Escape on a member closes it too, and the
// list puts the focus back on the stack.

/** "3 succeeded, 1 running": the batch's statuses, most common first. */
function statusSummary(entries: readonly HistoryEntry[]): string {
  const counts = new Map<TaskStatus, number>();
  for (const e of entries) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
  return formatList([...counts].sort((a, b) => b[1] - a[1]).map(([status, n]) => statusCount(status, n)));
}

const stackLook =
  // Two offset edges behind the tile say "more than one".
  'shadow-[4px_4px_0_-1px_var(--color-slate-300),8px_8px_0_-2px_var(--color-slate-200)] dark:shadow-[4px_4px_0_-1px_var(--color-slate-600),8px_8px_0_-2px_var(--color-slate-700)]';

export interface BatchStackTileProps {
  stack: BatchStack<GalleryItem>;
  onToggle: (stack: BatchStack<GalleryItem>) => void;
}

/** The gallery's stack: the best member's picture, the count, and the button that opens it in place. */
export const BatchStackTile = memo(function BatchStackTile({ stack, onToggle }: BatchStackTileProps) {
  // Memoised: its parent's render in a new locale does not reach it, so it listens itself.
  useLocale();
  const best = stack.members[0]!;
  const { entry, output } = best;
  const url = safeMediaUrl(output?.url);
  const poster = safeMediaUrl(output?.thumbnailUrl);
  const { t } = useLingui();
  const n = stack.members.length;
  const label = tileLabel(best);
  const statuses = statusSummary(stack.members.map((m) => m.entry));
  const statusId = useId();
  return (
    <div
      className={cn(
        'relative size-full rounded-lg bg-slate-100 ring-1 ring-slate-300 dark:bg-slate-800 dark:ring-slate-600',
        stackLook,
        stack.open && 'ring-2 ring-indigo-500 dark:ring-indigo-400',
      )}
      data-testid="batch-stack"
      data-key={stack.key}
      data-batch-id={stack.batchId}
    >
      <div className="size-full overflow-hidden rounded-lg">
        {url && entry.meta.mediaType === 'image' ? (
          <SafeImage src={poster ?? url} alt="" compact className="size-full object-cover" />
        ) : url && entry.meta.mediaType === 'video' && poster ? (
          <SafeImage src={poster} alt="" compact className="size-full object-cover" />
        ) : (
          <div
            className={cn(
              'flex size-full items-center justify-center',
              STATUS_LOOK[url ? 'succeeded' : entry.status].tile,
            )}
          >
            {!url ? (
              <StatusIcon status={entry.status} className="size-7" />
            ) : entry.meta.mediaType === 'audio' ? (
              <AudioLines className="size-8" aria-hidden="true" />
            ) : (
              <Film className="size-8" aria-hidden="true" />
            )}
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={() => onToggle(stack)}
        aria-expanded={stack.open}
        aria-label={t`Batch of ${n}: ${label}`}
        aria-describedby={statusId}
        data-role="open"
        className="absolute inset-0 rounded-lg focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-indigo-500"
      />
      <span id={statusId} className="sr-only">
        {statuses}
      </span>
      <span
        className="pointer-events-none absolute top-1.5 end-1.5 flex items-center gap-1 rounded-md bg-slate-900/80 px-1.5 py-0.5 text-xs font-medium text-white tabular-nums"
        aria-hidden="true"
        data-testid="batch-count"
      >
        <Layers className="size-3.5" />
        {formatCount(n)}
      </span>
      <div className="pointer-events-none absolute inset-x-0 bottom-0 flex items-end justify-between gap-1 rounded-b-lg bg-linear-to-t from-slate-950/75 to-transparent px-2 pt-6 pb-1.5 text-xs text-white">
        <span dir="auto" translate="no" className="min-w-0 truncate font-medium">
          {displayText(entry.meta.title)}
        </span>
        {stack.open ? (
          <ChevronDown className="size-4 shrink-0" aria-hidden="true" />
        ) : (
          <ChevronRight className="size-4 shrink-0 rtl:-scale-x-100" aria-hidden="true" />
        )}
      </div>
    </div>
  );
});

export interface BatchStackCardProps {
  stack: BatchStack<HistoryEntry>;
  onToggle: (stack: BatchStack<HistoryEntry>) => void;
}

/** The History's stack: the newest member's card face, the count and the batch's statuses. */
export const BatchStackCard = memo(function BatchStackCard({ stack, onToggle }: BatchStackCardProps) {
  // Memoised: its parent's render in a new locale does not reach it, so it listens itself.
  useLocale();
  const { entry } = stack;
  const { t } = useLingui();
  const n = stack.members.length;
  const count = formatCount(n);
  const title = displayText(entry.meta.title);
  const prompt = promptOf(entry.request.params);
  const statuses = statusSummary(stack.members);
  const statusId = useId();
  return (
    <div
      className={cn(
        'relative flex gap-3 rounded-lg bg-white p-2 ring-1 ring-slate-300 hover:bg-slate-50 dark:bg-slate-900 dark:ring-slate-600 dark:hover:bg-slate-800/60',
        stackLook,
        stack.open && 'ring-2 ring-indigo-500 dark:ring-indigo-400',
      )}
      data-testid="batch-stack"
      data-key={stack.key}
      data-batch-id={stack.batchId}
    >
      <CardThumb entry={entry} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h3 className="min-w-0 text-sm leading-5 font-medium">
          <button
            type="button"
            onClick={() => onToggle(stack)}
            aria-expanded={stack.open}
            aria-label={t`Batch of ${n}: ${title}`}
            aria-describedby={statusId}
            data-role="open"
            className={cn(
              'flex max-w-full items-center gap-1 text-start text-slate-900 dark:text-slate-100',
              'after:absolute after:inset-0 after:rounded-lg after:content-[""]',
              'focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-indigo-500',
            )}
          >
            {stack.open ? (
              <ChevronDown className="size-4 shrink-0" aria-hidden="true" />
            ) : (
              <ChevronRight className="size-4 shrink-0 rtl:-scale-x-100" aria-hidden="true" />
            )}
            <span dir="auto" translate="no" className="truncate">
              {displayText(entry.meta.title)}
            </span>
          </button>
        </h3>
        <p className="flex items-center gap-1 text-xs text-slate-600 dark:text-slate-400">
          <Layers className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="tabular-nums" data-testid="batch-count">
            {plural(n, { one: `${count} task`, other: `${count} tasks` })}
          </span>
          <span aria-hidden="true">·</span>
          <span id={statusId} className="truncate">
            {statuses}
          </span>
        </p>
        {prompt && (
          <p
            dir="auto"
            translate="no"
            className="line-clamp-2 text-[13px] leading-snug wrap-anywhere text-slate-700 dark:text-slate-300"
          >
            {truncate(displayText(prompt), 200)}
          </p>
        )}
      </div>
    </div>
  );
});
