import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useVirtualizer } from '@tanstack/react-virtual';
import { GripVertical, Pause, Play, Send, Trash2 } from 'lucide-react';
import type { Announcements, Active, Over, ScreenReaderInstructions } from '@dnd-kit/core';
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { cn } from '../../lib/cn';
import { displayText } from '../../lib/untrusted-text';
import { formatCount, formatCredits, numberFormat } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import {
  pauseReasonText,
  queueCost,
  type QueueCost,
  type QueueItem,
  type TaskQueue,
} from '../../model/queue/queue';
import { notifyUndo } from '../../components/notices';
import type * as HeldSortable from './held-sortable';
import type { HeldDrag } from './held-sortable';

// The "Queue" region (product-notes §3 "Your queue"; docs/queue.md): the tasks this device holds back
// until the key's pool is about to free a place. Each can be moved (dragged by its handle with a mouse or
// a finger, dnd-kit in held-sortable.tsx; or ArrowUp/ArrowDown on the handle), paused, removed (never sent, never charged; with Undo) or sent now; the whole queue paused or
// resumed. Its total stands against the balance and what is left under today's cap, the first task the
// service would refuse marked, before anything is spent.

function useQueue(queue: TaskQueue) {
  return useSyncExternalStore(queue.subscribe, queue.snapshot);
}

let sortableModule: Promise<typeof HeldSortable> | undefined;
const loadSortable = () => (sortableModule ??= import('./held-sortable'));

/**
 * The drag and drop (dnd-kit, a chunk of its own), fetched once there is something to drag; null until it
 * is there (or if it cannot be fetched: the list is then moved by keyboard only).
 */
function useSortableModule(wanted: boolean): typeof HeldSortable | null {
  const [loaded, setLoaded] = useState<typeof HeldSortable | null>(null);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    loadSortable().then(
      (m) => live && setLoaded(m),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return loaded;
}

/** A row's place while the drag library is not loaded: nothing to drag yet. */
function PlainItem({ children }: { id: string; children: (drag: HeldDrag | null) => ReactNode }) {
  return children(null);
}

/** The index a dragged or hovered row had in the list when the drag saw it (dnd-kit's sortable data). */
function sortIndexOf(node: Active | Over): number {
  const sortable: unknown = node.data.current?.sortable;
  return typeof sortable === 'object' &&
    sortable !== null &&
    'index' in sortable &&
    typeof sortable.index === 'number'
    ? sortable.index
    : -1;
}

/**
 * A place in the queue, "1" to "1000", in the locale's digits but not grouped: "place 4 of 1000", as the
 * studio has always said it (and as a person reads a position, not an amount).
 */
const formatPlace = (n: number): string => numberFormat(PLACE).format(n);
const PLACE: Intl.NumberFormatOptions = { useGrouping: false };

export function QueuePanel({
  queue,
  balance,
  capRemaining,
}: {
  queue: TaskQueue;
  /** The balance of the key's account (user or team), or null when unknown. */
  balance: number | null;
  /** Credits left under today's cap for this key, or null when it has no cap. */
  capRemaining: number | null;
}) {
  const { t } = useLingui();
  const { items, settings, sentCredits } = useQueue(queue);
  const cost = queueCost(items, { balance, capRemaining });
  const [announcement, setAnnouncement] = useState('');
  const hintId = useId();
  const stopId = useId();
  /** The task last moved: a long (virtualised) list keeps it in view, its handle focused. */
  const [lastMoved, setLastMoved] = useState<string | null>(null);
  const sortable = useSortableModule(items.length > 0);

  /** Writes a move (TaskQueue.move: one write, between the new neighbours); false when out of range. */
  const reorder = useCallback(
    (key: string, to: number): boolean => {
      const total = queue.snapshot().items.length;
      if (to < 0 || to >= total) return false;
      setLastMoved(key);
      void queue.move(key, to);
      return true;
    },
    [queue],
  );
  /** A move by ArrowUp/ArrowDown, said in the panel's status (a drag is said by dnd-kit's announcements). */
  const move = useCallback(
    (key: string, to: number) => {
      if (!reorder(key, to)) return;
      const place = formatPlace(to + 1);
      const count = formatPlace(queue.snapshot().items.length);
      setAnnouncement(t`Moved to place ${place} of ${count}.`);
    },
    [queue, reorder, t],
  );
  const onDragMove = useCallback((key: string, to: number) => void reorder(key, to), [reorder]);
  const ids = useMemo(() => items.map((item) => item.idempotencyKey), [items]);

  // What a screen reader hears while a task is dragged (by a finger, a mouse, or Space and the arrows).
  const instructions = useMemo<ScreenReaderInstructions>(
    () => ({
      draggable: t`Press ArrowUp or ArrowDown to move this task one place. Or press Space to pick it up, the arrow keys to move it, and Space again to drop it; Escape cancels.`,
    }),
    [t],
  );
  /** dnd-kit's first "over" of a drag is the lifted task's own place: said already by "Picked up". */
  const liftedOver = useRef(false);
  const announcements = useMemo<Announcements>(() => {
    const titleOf = (id: string | number) =>
      displayText(queue.snapshot().items.find((item) => item.idempotencyKey === id)?.meta.title ?? '');
    const placeOf = (node: Active | Over) => formatPlace(sortIndexOf(node) + 1);
    const countOf = () => formatPlace(queue.snapshot().items.length);
    return {
      onDragStart: ({ active }) => {
        liftedOver.current = true;
        const title = titleOf(active.id);
        const place = placeOf(active);
        const count = countOf();
        return t`Picked up ${title}, place ${place} of ${count}.`;
      },
      onDragOver: ({ active, over }) => {
        const title = titleOf(active.id);
        if (!over) return t`${title} is no longer over a place in the queue.`;
        if (liftedOver.current) {
          liftedOver.current = false;
          if (over.id === active.id) return undefined;
        }
        const place = placeOf(over);
        const count = countOf();
        return t`${title} is over place ${place} of ${count}.`;
      },
      onDragEnd: ({ active, over }) => {
        const title = titleOf(active.id);
        const place = placeOf(over ?? active);
        const count = countOf();
        return over
          ? t`${title} dropped at place ${place} of ${count}.`
          : t`${title} dropped outside the queue: it stays at place ${place} of ${count}.`;
      },
      onDragCancel: ({ active }) => {
        const title = titleOf(active.id);
        const place = placeOf(active);
        const count = countOf();
        return t`Move cancelled: ${title} stays at place ${place} of ${count}.`;
      },
    };
  }, [queue, t]);

  const remove = useCallback(
    async (key: string) => {
      const removed = await queue.remove([key]);
      const first = removed[0];
      if (!first) return;
      // The title is text of the service's: a value of the message.
      const title = displayText(first.meta.title);
      notifyUndo(
        t`Removed "${title}" from the queue: never sent, never charged.`,
        () => queue.restore(removed),
        { undone: t`Undone.`, label: t`Undo` },
      );
    },
    [queue, t],
  );

  const Item = sortable?.SortableHeldItem ?? PlainItem;
  const row = (item: QueueItem, i: number, virtual?: VirtualPlace) => (
    <Item key={item.idempotencyKey} id={item.idempotencyKey}>
      {(drag) => (
        <QueueRow
          item={item}
          index={i}
          total={items.length}
          refused={
            cost.firstRefused?.idempotencyKey === item.idempotencyKey ? cost.firstRefused.reason : null
          }
          hintId={hintId}
          queue={queue}
          onMove={move}
          onRemove={remove}
          drag={drag}
          virtual={virtual}
        />
      )}
    </Item>
  );
  const list =
    items.length > VIRTUAL_FROM ? (
      <VirtualHeldList items={items} follow={lastMoved} renderRow={row} />
    ) : (
      <ol aria-label={t`Held tasks`} className="flex max-h-[28rem] flex-col gap-2 overflow-y-auto">
        {items.map((item, i) => row(item, i))}
      </ol>
    );

  const sent = formatCredits(sentCredits);
  return (
    <section aria-label={t`Queue`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          <Trans>Queue</Trans>
          <span className="ms-1.5 font-normal text-slate-500 dark:text-slate-400">
            ({formatCount(items.length)})
          </span>
        </h2>
        {settings.paused ? (
          <Button size="sm" onClick={() => queue.resume()}>
            <Play className="size-4" aria-hidden="true" />
            <Trans>Resume queue</Trans>
          </Button>
        ) : (
          <Button size="sm" onClick={() => queue.pause()}>
            <Pause className="size-4" aria-hidden="true" />
            <Trans>Pause queue</Trans>
          </Button>
        )}
      </div>
      {settings.pausedReason && (
        <Alert tone="warning" title={t`The queue is paused`}>
          {pauseReasonText(settings.pausedReason)}
        </Alert>
      )}
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {settings.sendAtOnce
          ? t`Tasks are sent at once, as they are made.`
          : t`Tasks wait here, on this device, until your pool is about to free a place: until then they are not sent and not charged.`}
      </p>
      {items.length > 0 && <CostLine cost={cost} balance={balance} capRemaining={capRemaining} />}
      {items.length > 0 && (
        <>
          <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>
              Drag a task by its handle, or focus the handle and press ArrowUp or ArrowDown, to change its
              place.
            </Trans>
          </p>
          {sortable ? (
            <sortable.SortableHeld
              ids={ids}
              onMove={onDragMove}
              announcements={announcements}
              instructions={instructions}
            >
              {list}
            </sortable.SortableHeld>
          ) : (
            list
          )}
        </>
      )}
      <div role="status" className="sr-only">
        {announcement}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-xs font-medium text-slate-700 dark:text-slate-300">
          <Trans>Queue settings</Trans>
        </summary>
        <div className="mt-2 flex flex-col gap-2">
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              checked={settings.sendAtOnce}
              onChange={(e) => queue.setSendAtOnce(e.target.checked)}
              className="mt-0.5 size-4 accent-indigo-600"
            />
            <span>
              <Trans>Send every task at once (no queue)</Trans>
            </span>
          </label>
          <label htmlFor={stopId} className="text-xs font-medium">
            <Trans>Stop after this many credits this session</Trans>
          </label>
          <input
            id={stopId}
            type="number"
            min={0}
            inputMode="decimal"
            className={cn(inputClass, 'w-32')}
            value={settings.stopAfterCredits ?? ''}
            placeholder={t`No stop`}
            onChange={(e) => {
              const n = e.target.value === '' ? null : Number(e.target.value);
              queue.setStopAfterCredits(n === null || !Number.isFinite(n) || n < 0 ? null : n);
            }}
          />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>Sent through the queue this session: {sent}.</Trans>
          </p>
        </div>
      </details>
    </section>
  );
}

function CostLine({
  cost,
  balance,
  capRemaining,
}: {
  cost: QueueCost;
  balance: number | null;
  capRemaining: number | null;
}) {
  const total = formatCredits(cost.total);
  const balanceText = balance === null ? null : formatCredits(balance);
  const capText = capRemaining === null ? null : formatCredits(capRemaining);
  // The total, then what it stands against, each its own phrase after a " · ".
  return (
    <div className="flex flex-col gap-1 text-xs text-slate-700 dark:text-slate-300" data-testid="queue-cost">
      <p>
        {cost.unpriced > 0 ? (
          // One message, its plural inside: the branches hold no element, so "#" is the count.
          <Trans>
            Held: <strong>{total}</strong> (and{' '}
            <Plural value={cost.unpriced} one="# task of unknown price" other="# tasks of unknown price" />)
          </Trans>
        ) : (
          <Trans>
            Held: <strong>{total}</strong>
          </Trans>
        )}
        {balanceText !== null && (
          <>
            {' · '}
            <Trans>balance {balanceText}</Trans>
          </>
        )}
        {capText !== null && (
          <>
            {' · '}
            <Trans>{capText} left under today&apos;s cap</Trans>
          </>
        )}
      </p>
      {cost.firstRefused && (
        <p className="font-medium text-rose-700 dark:text-rose-300">
          {cost.firstRefused.reason === 'cap' ? (
            <Trans>
              Not everything fits: the first task marked below would be refused (over today&apos;s cap).
            </Trans>
          ) : (
            <Trans>
              Not everything fits: the first task marked below would be refused (over the balance).
            </Trans>
          )}
        </p>
      )}
    </div>
  );
}

/**
 * From this many held tasks on, the list renders only the rows in view (and a few around them): a
 * thousand rows rendered again on every move or removal take the main thread for hundreds of ms.
 * @internal
 */
export const VIRTUAL_FROM = 100;
const ROW_GAP_PX = 8;
const estimateRow = () => 120;

interface VirtualPlace {
  measure: (el: Element | null) => void;
  start: number;
}

function VirtualHeldList({
  items,
  follow,
  renderRow,
}: {
  items: readonly QueueItem[];
  /** A task to keep in view as it moves (the one moved by keyboard, whose handle has the focus). */
  follow: string | null;
  renderRow: (item: QueueItem, index: number, virtual: VirtualPlace) => React.ReactNode;
}) {
  const { t } = useLingui();
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((i: number) => items[i]?.idempotencyKey ?? i, [items]);
  // The virtualizer is read afresh on each render (its rows move with the scroll), as in the History list.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimateRow,
    getItemKey,
    gap: ROW_GAP_PX,
    overscan: 6,
    // React 19: measuring inside a layout effect must not flushSync.
    useFlushSync: false,
  });
  const followIndex = follow === null ? -1 : items.findIndex((item) => item.idempotencyKey === follow);
  useEffect(() => {
    if (followIndex >= 0) virtualizer.scrollToIndex(followIndex, { align: 'auto' });
  }, [followIndex, virtualizer]);
  return (
    <div
      ref={scrollRef}
      className="max-h-[28rem] overflow-y-auto overscroll-contain"
      data-testid="queue-scroll"
    >
      <ol
        aria-label={t`Held tasks`}
        className="relative w-full"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((v) => {
          const item = items[v.index];
          return item
            ? renderRow(item, v.index, { measure: virtualizer.measureElement, start: v.start })
            : null;
        })}
      </ol>
    </div>
  );
}

/** A row's buttons are 44 px tall on a phone, a finger's width (a min-height outranks the size's height). */
const PHONE_TARGET = 'max-sm:min-h-11';

const QueueRow = memo(function QueueRow({
  item,
  index,
  total,
  refused,
  hintId,
  queue,
  onMove,
  onRemove,
  drag,
  virtual,
}: {
  item: QueueItem;
  index: number;
  total: number;
  refused: 'cap' | 'balance' | null;
  hintId: string;
  queue: TaskQueue;
  onMove: (key: string, to: number) => void;
  onRemove: (key: string) => Promise<void>;
  /** Null until the drag library is loaded. */
  drag: HeldDrag | null;
  virtual?: VirtualPlace | undefined;
}) {
  // Memoised: its parent's render in a new locale does not reach it, so it listens itself.
  useLocale();
  const { t } = useLingui();
  const key = item.idempotencyKey;
  const { held } = item;
  const blocked = held.blocked;
  const prompt = typeof item.request.params.prompt === 'string' ? item.request.params.prompt : null;
  const title = displayText(item.meta.title);
  const place = formatPlace(index + 1);
  const oldPrice = formatCredits(held.credits ?? 0);
  const newPrice = held.newPrice === null ? '' : formatCredits(held.newPrice);
  const count = formatPlace(total);
  const measure = virtual?.measure;
  const nodeRef = drag?.nodeRef;
  // The row is measured by the virtual list (when long) and by the drag (once loaded).
  const rowRef = useCallback(
    (el: HTMLLIElement | null) => {
      measure?.(el);
      nodeRef?.(el);
    },
    [measure, nodeRef],
  );
  const dragging = drag?.dragging ?? false;
  return (
    <li
      ref={rowRef}
      className={cn(
        'flex gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2 dark:border-slate-700 dark:bg-slate-900/60',
        refused && 'border-rose-300 dark:border-rose-700',
        // A long list places its rows by `top`, not a transform: the drag measures a row without its
        // transform (its own shift), so a transform placing the row would be measured away.
        virtual ? 'absolute start-0 w-full' : 'relative',
        dragging && 'z-10 shadow-lg ring-2 ring-indigo-500',
      )}
      style={{ top: virtual?.start, transform: drag?.shift, transition: drag?.transition }}
      {...(virtual && {
        'data-index': index,
        'aria-setsize': total,
        'aria-posinset': index + 1,
      })}
      data-testid="queue-item"
    >
      <button
        type="button"
        ref={drag?.handleRef}
        {...drag?.handle}
        // A finger on the handle drags (after a short rest), never scrolls; 44 px square on a phone.
        className="flex size-11 shrink-0 cursor-grab touch-none items-center justify-center rounded text-slate-500 select-none hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600 active:cursor-grabbing sm:h-8 sm:w-6 dark:text-slate-400 dark:hover:bg-slate-800"
        aria-label={t`Move ${title}, place ${place} of ${count}`}
        aria-describedby={drag?.handle['aria-describedby'] ?? hintId}
        onKeyDown={(e) => {
          // While dnd-kit carries the task (Space), the arrows are its own; otherwise one place at once.
          if (!dragging && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
            e.preventDefault();
            onMove(key, index + (e.key === 'ArrowUp' ? -1 : 1));
            return;
          }
          drag?.handle.onKeyDown?.(e);
        }}
      >
        <GripVertical className="size-4" aria-hidden="true" />
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex min-w-0 items-center gap-1.5 text-sm">
          <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">{place}.</span>
          <span dir="auto" translate="no" className="min-w-0 truncate font-medium">
            {title}
          </span>
          {held.credits !== null && (
            <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
              {formatCredits(held.credits)}
            </span>
          )}
        </div>
        {prompt && (
          <p
            dir="auto"
            translate="no"
            className="line-clamp-1 text-xs wrap-anywhere text-slate-700 dark:text-slate-300"
          >
            {displayText(prompt)}
          </p>
        )}
        <div className="flex flex-wrap gap-1">
          <Badge tone="neutral">
            <Trans>Held · place {place}</Trans>
          </Badge>
          {held.paused && (
            <Badge tone="warning">
              <Trans>Paused</Trans>
            </Badge>
          )}
          {refused && (
            <Badge tone="danger">
              {refused === 'cap' ? t`Would be refused: today's cap` : t`Would be refused: balance`}
            </Badge>
          )}
        </div>
        {held.blocked && (
          // Why it was not sent may quote the service: a value of `t` (text), not of a <Trans>'s markup.
          <p className="text-xs text-rose-700 dark:text-rose-300">{t`Not sent: ${blocked}`}</p>
        )}
        {held.newPrice !== null && (
          <div className="flex flex-wrap items-center gap-2 text-xs text-amber-900 dark:text-amber-200">
            <span>
              <Trans>
                The price rose from {oldPrice} to {newPrice} since it was queued.
              </Trans>
            </span>
            <Button size="sm" onClick={() => void queue.acceptPrice(key)}>
              <Trans>Send at {newPrice}</Trans>
            </Button>
          </div>
        )}
        <div className="flex flex-wrap gap-1">
          <Button size="sm" variant="ghost" className={PHONE_TARGET} onClick={() => void queue.sendNow(key)}>
            <Send className="size-3.5 rtl:-scale-x-100" aria-hidden="true" />
            <Trans>Send now</Trans>
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className={PHONE_TARGET}
            onClick={() => void queue.setTaskPaused(key, !held.paused)}
          >
            {held.paused ? (
              <Play className="size-3.5" aria-hidden="true" />
            ) : (
              <Pause className="size-3.5" aria-hidden="true" />
            )}
            {held.paused ? t`Resume task` : t`Pause task`}
          </Button>
          <Button size="sm" variant="ghost" className={PHONE_TARGET} onClick={() => void onRemove(key)}>
            <Trash2 className="size-3.5" aria-hidden="true" />
            <Trans>Remove</Trans>
          </Button>
        </div>
      </div>
    </li>
  );
});
