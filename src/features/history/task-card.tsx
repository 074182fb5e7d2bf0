import { Trans, useLingui } from '@lingui/react/macro';
import { AlertOctagon, Hourglass, Loader2, Send } from 'lucide-react';
import { Fragment, memo, useId, type ReactNode } from 'react';
import { isTerminal } from '../../../contract/task';
import { Badge } from '../../components/badge';
import type { OutboxEntry } from '../../model/db';
import type { HistoryEntry } from '../../model/history/history-types';
import { cn } from '../../lib/cn';
import { useLocale } from '../../lib/use-locale';
import { creditsText } from '../../components/history/credits-text';
import { promptOf } from '../../model/search/history-filter';
import { CardAudio, CardThumb } from '../../components/history/output-media';
import { StatusBadge } from '../../components/history/status-badge';
import { elapsedMs, etaText, formatDuration, formatWhen } from '../../components/history/task-timing';
import { displayText } from '../../lib/untrusted-text';
import { useTaskForecast } from '../../components/history/use-task-forecast';
import { useNow } from '../../lib/use-now';
import { BatchPlaceSpoken } from '../../components/history/batch-place';

// One task in the gallery (product-notes §3, History: status, elapsed time and ETA, what ran, prompt, credits,
// the output, the error). The whole card opens the detail view: its title is a button stretched over
// the card, and only the media players sit above it (a player inside a button would be invalid HTML).

const cardBase = 'relative flex flex-col gap-2 rounded-lg p-2 transition-colors';

export interface TaskCardProps {
  entry: HistoryEntry;
  onOpen: (entry: HistoryEntry) => void;
}

export const TaskCard = memo(function TaskCard({ entry, onOpen }: TaskCardProps) {
  const { t } = useLingui();
  // Memoised: its parent's render in a new locale does not reach it, so it listens itself.
  useLocale();
  const id = useId();
  const live = !isTerminal(entry.status);
  const now = useNow(live);
  const elapsed = formatDuration(elapsedMs(entry, now));
  // What the poll schedule knows ("about 4 ahead", "likely running, ~3s left", "checking"); the
  // estimate-only ETA is shown only when no schedule follows the task.
  const forecast = useTaskForecast(entry.taskId, live, entry.status);
  const eta = forecast ? null : etaText(entry, now);
  const prompt = promptOf(entry.request.params);
  const credits = creditsText(entry);
  const statusId = `${id}-status`;
  const promptId = `${id}-prompt`;
  const byName = entry.by ? displayText(entry.by.name) : '';

  return (
    <div
      className={cn(
        cardBase,
        'bg-white ring-1 dark:bg-slate-900',
        entry.status === 'failed'
          ? 'ring-rose-200 dark:ring-rose-900/70'
          : 'ring-slate-200 dark:ring-slate-800',
        'hover:bg-slate-50 dark:hover:bg-slate-800/60',
      )}
      data-testid="task-card"
      data-task-id={entry.taskId}
    >
      <div className="flex min-w-0 gap-3">
        <CardThumb entry={entry} />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h3 className="min-w-0 text-sm leading-5 font-medium">
            <button
              type="button"
              onClick={() => onOpen(entry)}
              aria-describedby={prompt ? `${statusId} ${promptId}` : statusId}
              aria-haspopup="dialog"
              className={cn(
                'block max-w-full truncate text-start text-slate-900 dark:text-slate-100',
                // Stretched over the whole card, so a click anywhere opens the detail view.
                'after:absolute after:inset-0 after:rounded-lg after:content-[""]',
                'focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-indigo-500',
              )}
            >
              <span dir="auto" translate="no">
                {displayText(entry.meta.title)}
              </span>
            </button>
          </h3>
          <div className="flex min-w-0 items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
            <StatusBadge status={entry.status} id={statusId} />
            <BatchBadge meta={entry.meta} />
            {entry.by && (
              // Team space: another member's task (a name is untrusted text).
              <span dir="auto" className="max-w-28 shrink-0 truncate font-medium" data-testid="task-by">
                <Trans>
                  by <span translate="no">{byName}</span>
                </Trans>
              </span>
            )}
            {entry.meta.subtitle && (
              <span dir="auto" translate="no" className="min-w-0 truncate">
                {displayText(entry.meta.subtitle)}
              </span>
            )}
            {entry.unseen && (
              <span className="ms-auto shrink-0 font-medium text-indigo-600 dark:text-indigo-400">
                <span aria-hidden="true">● </span>
                <Trans>new</Trans>
              </span>
            )}
          </div>
          {prompt ? (
            <p
              id={promptId}
              dir="auto"
              translate="no"
              className="line-clamp-2 text-[13px] leading-snug wrap-anywhere text-slate-700 dark:text-slate-300"
            >
              {displayText(prompt)}
            </p>
          ) : (
            <p className="text-[13px] text-slate-500 italic dark:text-slate-400">
              <Trans>No prompt</Trans>
            </p>
          )}
          <MetaLine
            items={[
              <time key="when" dateTime={new Date(entry.createdAt).toISOString()}>
                {formatWhen(entry.createdAt)}
              </time>,
              elapsed && <span key="elapsed">{live ? t`${elapsed} so far` : t`took ${elapsed}`}</span>,
              // In this line, which wraps, not beside the badge: with a batch badge and the version that
              // row would run out of the card.
              forecast ? (
                <span key="forecast" data-testid="task-forecast" className="text-sky-700 dark:text-sky-300">
                  {forecast}
                </span>
              ) : (
                eta && (
                  <span key="eta" className="text-sky-700 dark:text-sky-300">
                    {eta}
                  </span>
                )
              ),
            ]}
            end={credits}
          />
        </div>
      </div>
      {entry.status === 'failed' && <CardError entry={entry} />}
      {entry.status === 'cancelled' && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>Cancelled before it finished; no output.</Trans>
        </p>
      )}
      {entry.by?.unfollowed && live && (
        <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="task-unfollowed">
          <Trans>
            No news: <span translate="no">{byName}</span>'s studio is not in the team space to follow this
            task. It shows here as it was last shared, and is not counted in the team queue.
          </Trans>
        </p>
      )}
      <CardAudio entry={entry} />
    </div>
  );
});

/** One of the tasks a single click made ("Runs", "Variations"): its place in that batch. */
function BatchBadge({ meta }: { meta: HistoryEntry['meta'] }) {
  if (!meta.batchId || !meta.batchSize || meta.batchSize < 2) return null;
  const { batchIndex, batchSize } = meta;
  return (
    <span className="inline-flex shrink-0" data-testid="batch-badge" data-batch-id={meta.batchId}>
      <Badge tone="accent">
        <span aria-hidden="true">
          <Trans>
            Batch {batchIndex}/{batchSize}
          </Trans>
        </span>
        <BatchPlaceSpoken batchIndex={batchIndex} batchSize={batchSize} />
      </Badge>
    </span>
  );
}

/** Small facts in a row, separated by dots that screen readers skip. */
function MetaLine({ items, end }: { items: ReactNode[]; end?: ReactNode }) {
  const shown = items.filter(Boolean);
  return (
    <p className="mt-auto flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs text-slate-500 tabular-nums dark:text-slate-400">
      {shown.map((item, i) => (
        <Fragment key={i}>
          {i > 0 && <span aria-hidden="true">·</span>}
          {item}
        </Fragment>
      ))}
      {end && <span className="ms-auto ps-1.5 font-medium text-slate-600 dark:text-slate-300">{end}</span>}
    </p>
  );
}

function CardError({ entry }: { entry: HistoryEntry }) {
  const { t } = useLingui();
  return (
    <div className="flex gap-1.5 rounded-md bg-rose-50 px-2 py-1.5 text-xs text-rose-900 dark:bg-rose-950/50 dark:text-rose-100">
      <AlertOctagon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <div className="min-w-0 wrap-anywhere">
        <p className="font-mono font-semibold">{entry.error?.code ?? 'unknown_error'}</p>
        <p dir="auto" translate={entry.error?.message ? 'no' : undefined} className="line-clamp-3">
          {displayText(entry.error?.message ?? t`The task failed without a reason.`)}
        </p>
      </div>
    </div>
  );
}

/**
 * A submit that has no answer yet (it is in the outbox). It is re-sent automatically with the same
 * Idempotency-Key, so it is created and charged at most once (product-notes §3, Submit).
 */
/**
 * A submit with no answer yet, or (`place`) one held in this device's queue: not sent, so no service
 * status; its place in the queue instead (docs/queue.md).
 */
export function SendingCard({ entry, place }: { entry: OutboxEntry; place?: number }) {
  const prompt = promptOf(entry.request.params);
  const attempts = entry.attempts;
  const lastError = entry.lastError ? displayText(entry.lastError) : '';
  return (
    <div
      className={cn(
        cardBase,
        'border border-dashed border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900/60',
      )}
      data-testid={place === undefined ? 'sending-card' : 'held-card'}
    >
      <div className="flex min-w-0 gap-3">
        <div className="flex size-20 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-400 @sm:size-24 dark:bg-slate-800 dark:text-slate-500">
          <Send className="size-6 rtl:-scale-x-100" aria-hidden="true" />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h3 dir="auto" translate="no" className="min-w-0 truncate text-sm leading-5 font-medium">
            {displayText(entry.meta.title)}
          </h3>
          <div className="flex min-w-0 items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
            <span className="inline-flex shrink-0">
              {place === undefined ? (
                <Badge tone="neutral">
                  <Loader2 className="size-3 shrink-0 motion-safe:animate-spin" aria-hidden="true" />
                  <Trans>Sending…</Trans>
                </Badge>
              ) : (
                <Badge tone="neutral">
                  <Hourglass className="size-3 shrink-0" aria-hidden="true" />
                  <Trans>Held · place {place}</Trans>
                </Badge>
              )}
            </span>
            {entry.meta.subtitle && (
              <span dir="auto" translate="no" className="min-w-0 truncate">
                {displayText(entry.meta.subtitle)}
              </span>
            )}
          </div>
          {prompt && (
            <p
              dir="auto"
              translate="no"
              className="line-clamp-2 text-[13px] leading-snug wrap-anywhere text-slate-700 dark:text-slate-300"
            >
              {displayText(prompt)}
            </p>
          )}
          {place === undefined ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {attempts > 1 ? (
                <Trans>
                  No answer yet. It is re-sent automatically with the same Idempotency-Key, so it is charged
                  at most once. Attempt {attempts}.
                </Trans>
              ) : (
                <Trans>
                  No answer yet. It is re-sent automatically with the same Idempotency-Key, so it is charged
                  at most once.
                </Trans>
              )}
            </p>
          ) : (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              <Trans>Held in your queue on this device: not sent, not charged yet.</Trans>
            </p>
          )}
          {entry.lastError && (
            <p dir="auto" className="text-xs wrap-anywhere text-amber-800 dark:text-amber-300">
              <Trans>
                Last try: <span translate="no">{lastError}</span>
              </Trans>
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
