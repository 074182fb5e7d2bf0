import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useVirtualizer } from '@tanstack/react-virtual';
import { GalleryVerticalEnd, X } from 'lucide-react';
import {
  useCallback,
  useDeferredValue,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Button } from '../../components/button';
import { HistorySearch } from '../../components/search/history-search';
import { useOutputTags, useSearchIndex, useSearchStores } from '../../components/search/search-stores';
import type { Judgements } from '../../model/history/judgements';
import type { OutboxEntry } from '../../model/db';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import {
  filterEntries,
  memberOptions,
  modelOptions,
  NO_FILTER,
  type HistoryFilter,
  type MediaType,
} from '../../model/search/history-filter';
import { HistoryTransfer } from './history-transfer';
import { SendingCard, TaskCard } from './task-card';
import { TaskDetail } from '../../components/history/task-detail';
import {
  MediaTypeSelect,
  MemberSelect,
  ModelSelect,
  StatusSelect,
} from '../../components/history/filter-selects';
import { TeamQueue, type MemberHeld } from './team-queue';
import {
  EarlierTeamTasks,
  useEarlierSearch,
  type EarlierSource,
} from '../../components/history/earlier-team-tasks';
import { BatchStackCard } from '../../components/history/batch-stack';
import {
  batchIdOf,
  isStack,
  stackCells,
  stackKey,
  type BatchStack,
  type Cell,
} from '../../model/gallery/batch-stacks';
import { useGroupBatches } from '../../components/history/group-batches-setting';
import { GroupBatchesToggle } from '../../components/history/group-batches-toggle';
import { NO_SUBSCRIBE, useOptionalStore } from '../../lib/use-optional-store';
import { oncePerKey } from '../../lib/once-per-key';

// The "History" region (product-notes §3, History and gallery): submits still sending, then every task of
// this key newest first, filtered and searched, virtualised so 5,000 tasks stay smooth. Reads the
// store with useSyncExternalStore; the app shell owns polling and the outbox.

const NO_RATINGS: Judgements = new Map();

export interface HistoryPanelProps {
  store: HistoryStore;
  /** Submits made that have had no answer yet (the outbox). */
  sending: OutboxEntry[];
  /** Tasks held in this device's queue, in queue order (not sent: shown with their place). */
  held?: readonly OutboxEntry[];
  /**
   * Or the queue itself, read here: a change of the queue (a move, a removal among a thousand held)
   * then renders this panel alone, not the whole workspace around it.
   */
  heldFrom?: HeldSource | null;
  /** With the team space: what each member holds in their queue (the team's queue shows it). */
  teamHeld?: readonly MemberHeld[];
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: MediaType) => void;
  /** Tasks hidden on this device (the gallery's "Hide"): left out of the list. */
  hiddenTaskIds?: ReadonlySet<string>;
  /** With the team space: the team's earlier tasks, read from the server at the list's end and by search. */
  earlier?: EarlierSource | null;
}

type Facets = Omit<HistoryFilter, 'query'>;
const NO_FACETS: Facets = {
  status: NO_FILTER.status,
  mediaType: NO_FILTER.mediaType,
  model: NO_FILTER.model,
  member: 'all',
};

const NO_HIDDEN: ReadonlySet<string> = new Set();
const NO_HELD: readonly OutboxEntry[] = [];

/** What the panel reads of the queue (TaskQueue is one): its held tasks, in order, and their changes. */
interface HeldSource {
  subscribe: (listener: () => void) => () => void;
  snapshot: () => { items: readonly OutboxEntry[] };
}
/** Held tasks shown as cards (the Queue lists them all): a thousand held would crowd out the history. */
const HELD_SHOWN = 20;

export function HistoryPanel({
  store,
  sending,
  held: heldGiven = NO_HELD,
  heldFrom = null,
  teamHeld,
  onRemix,
  onUseAsInput,
  hiddenTaskIds = NO_HIDDEN,
  earlier = null,
}: HistoryPanelProps) {
  const { t } = useLingui();
  const headingId = useId();
  const held = useSyncExternalStore(
    heldFrom?.subscribe ?? NO_SUBSCRIBE,
    heldFrom ? () => heldFrom.snapshot().items : () => heldGiven,
  );
  // A team joining brings a thousand entries in pieces (team-preload.ts): each piece's list is rendered
  // as a transition, in slices, so no render of it holds the page for long.
  const live = useSyncExternalStore(store.subscribe, store.list);
  const all = useDeferredValue(live);
  // A list still catching up with its store (a team joining) may have its end in view for a moment:
  // the team's earlier tasks are not read for that (nobody scrolled there).
  const catchingUp = all !== live;
  const entries = useMemo(
    () => (hiddenTaskIds.size ? all.filter((e) => !hiddenTaskIds.has(e.taskId)) : all),
    [all, hiddenTaskIds],
  );
  const [facets, setFacets] = useState<Facets>(NO_FACETS);
  const [query, setQuery] = useState('');
  // Typing stays responsive; the filtering of thousands of entries follows a moment later.
  const deferredQuery = useDeferredValue(query);
  // The search runs over the store's whole list (the one the Gallery's search shares its index with),
  // hidden tasks left out after it.
  const index = useSearchIndex(all);
  const searchStores = useSearchStores();
  const tags = useOutputTags();
  const ratings = useOptionalStore(searchStores?.ratings, NO_RATINGS);
  const withoutHidden = useCallback(
    (list: HistoryEntry[]) => (hiddenTaskIds.size ? list.filter((e) => !hiddenTaskIds.has(e.taskId)) : list),
    [hiddenTaskIds],
  );
  const shown = useMemo(() => {
    const found = filterEntries(
      all,
      { ...facets, query: deferredQuery },
      { index, tags, judgements: ratings },
    );
    return found === all ? entries : withoutHidden(found);
  }, [all, entries, facets, deferredQuery, index, tags, ratings, withoutHidden]);
  // A saved search's count: the tasks it matches now, under no other filter; counted once per state of
  // the history (not on every render: the list re-renders as a poll answers or a row is typed in).
  const countOf = useMemo(
    () =>
      oncePerKey(
        (q: string) =>
          withoutHidden(filterEntries(all, { ...NO_FILTER, query: q }, { index, tags, judgements: ratings }))
            .length,
      ),
    [all, index, tags, ratings, withoutHidden],
  );
  const filtering = shown !== entries;
  useEarlierSearch(earlier, deferredQuery);
  const [grouped, setGrouped] = useGroupBatches();
  const models = useMemo(() => modelOptions(entries), [entries]);
  const members = useMemo(() => memberOptions(entries), [entries]);
  const [openId, setOpenId] = useState<string | null>(null);
  const openEntry = useMemo(
    () => (openId === null ? undefined : entries.find((e) => e.taskId === openId)),
    [entries, openId],
  );
  const onOpen = useCallback((entry: HistoryEntry) => setOpenId(entry.taskId), []);
  const sectionRef = useRef<HTMLElement>(null);
  // The dialog has no Radix trigger, so focus is returned by hand to the card it was opened from
  // (found again by task id: the card element may have been re-rendered meanwhile).
  const closeDetail = useCallback(() => {
    const taskId = openId;
    setOpenId(null);
    setTimeout(() => {
      const cards = sectionRef.current?.querySelectorAll<HTMLElement>('[data-task-id]') ?? [];
      const card = [...cards].find((c) => c.dataset.taskId === taskId);
      card?.querySelector<HTMLElement>('h3 button')?.focus();
    }, 0);
  }, [openId]);
  const clear = () => {
    setFacets(NO_FACETS);
    setQuery('');
  };

  // While the older pages are still being read (a moment after a reload), the count is IndexedDB's.
  const total = store.complete
    ? entries.length
    : Math.max(entries.length, store.size() - (all.length - entries.length));
  const shownTasks = formatCount(shown.length);
  const totalTasks = formatCount(total);
  const count = filtering
    ? t`${shownTasks} of ${totalTasks} tasks`
    : plural(total, { one: `${totalTasks} task`, other: `${totalTasks} tasks` });
  const hiddenCount = all.length - entries.length;
  const hiddenTasks = formatCount(hiddenCount);
  const countText = hiddenCount > 0 ? t`${count} · ${hiddenTasks} hidden` : count;
  const moreHeld = held.length - HELD_SHOWN;

  return (
    <section ref={sectionRef} aria-labelledby={headingId} className="@container flex min-w-0 flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <div className="flex min-w-0 items-baseline gap-2">
          <h2 id={headingId} className="shrink-0 text-sm font-semibold">
            <Trans>History</Trans>
          </h2>
          <span
            className="truncate text-xs text-slate-500 tabular-nums dark:text-slate-400"
            aria-live="polite"
            data-testid="history-count"
            data-complete={store.complete}
          >
            {countText}
          </span>
        </div>
        <HistoryTransfer store={store} canExport={all.length > 0} />
      </div>

      {total > 0 && (
        <Filters
          facets={facets}
          onFacets={setFacets}
          query={query}
          onQuery={setQuery}
          entries={entries}
          countOf={countOf}
          models={models}
          members={members}
          filtering={filtering || query !== ''}
          onClear={clear}
          grouped={grouped}
          onGrouped={setGrouped}
        />
      )}

      {/* Another member holding tasks shows it too, before any of their tasks is in this history. */}
      {(members.length > 0 || teamHeld?.some((m) => !m.you && m.held > 0)) && (
        <TeamQueue entries={entries} held={teamHeld} />
      )}

      {held.length > 0 && (
        <ol aria-label={t`Held in your queue`} className="flex flex-col gap-2">
          {held.slice(0, HELD_SHOWN).map((s, i) => (
            <li key={s.idempotencyKey}>
              <SendingCard entry={s} place={i + 1} />
            </li>
          ))}
          {held.length > HELD_SHOWN && (
            <li className="text-xs text-slate-500 dark:text-slate-400">
              <Trans>and {moreHeld} more held in the Queue</Trans>
            </li>
          )}
        </ol>
      )}

      {sending.length > 0 && (
        <ul aria-label={t`Sending`} className="flex flex-col gap-2">
          {sending.map((s) => (
            <li key={s.idempotencyKey}>
              <SendingCard entry={s} />
            </li>
          ))}
        </ul>
      )}

      {total === 0 && sending.length === 0 && held.length === 0 && (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center dark:border-slate-700">
          <GalleryVerticalEnd className="size-6 text-slate-400 dark:text-slate-500" aria-hidden="true" />
          <p className="text-sm font-medium">
            <Trans>No tasks yet</Trans>
          </p>
          <p className="max-w-60 text-xs text-slate-500 dark:text-slate-400">
            <Trans>
              What you generate appears here, newest first, and stays on this device. Import a history file to
              bring back an earlier one.
            </Trans>
          </p>
        </div>
      )}
      {total > 0 && shown.length === 0 && (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center dark:border-slate-700">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            <Trans>No tasks match these filters.</Trans>
          </p>
          <Button size="sm" onClick={clear}>
            <Trans>Clear filters</Trans>
          </Button>
        </div>
      )}
      {shown.length === 0 && earlier && <EarlierTeamTasks source={earlier} paused={catchingUp} />}
      {shown.length > 0 && (
        // A new filter starts at the top of its results.
        <VirtualTaskList
          key={`${facets.status}|${facets.mediaType}|${facets.model}|${facets.member}|${deferredQuery}|${grouped}`}
          entries={shown}
          grouped={grouped}
          onOpen={onOpen}
          footer={earlier && <EarlierTeamTasks source={earlier} paused={catchingUp} />}
        />
      )}

      {openEntry && (
        <TaskDetail
          entry={openEntry}
          open
          onOpenChange={(open) => {
            if (!open) closeDetail();
          }}
          onRemix={onRemix}
          onUseAsInput={onUseAsInput}
        />
      )}
    </section>
  );
}

function Filters({
  facets,
  onFacets,
  query,
  onQuery,
  entries,
  countOf,
  models,
  members,
  filtering,
  onClear,
  grouped,
  onGrouped,
}: {
  facets: Facets;
  onFacets: (next: Facets) => void;
  query: string;
  onQuery: (q: string) => void;
  entries: readonly HistoryEntry[];
  /** How many tasks a saved search matches now. */
  countOf: (query: string) => number;
  models: Array<{ title: string; count: number }>;
  /** The team's other members with tasks here: "By" is shown when there are some. */
  members: Array<{ id: string; name: string; count: number }>;
  filtering: boolean;
  onClear: () => void;
  /** "Group batches": each batch one stack, opened in place. */
  grouped: boolean;
  onGrouped: (on: boolean) => void;
}) {
  const { t } = useLingui();
  return (
    <div role="search" aria-label={t`Filter history`} className="flex flex-col gap-2">
      <HistorySearch value={query} onChange={onQuery} entries={entries} countOf={countOf} />
      <div className="grid grid-cols-2 gap-2 @md:grid-cols-[1fr_1fr_1.4fr]">
        <StatusSelect value={facets.status} onChange={(status) => onFacets({ ...facets, status })} />
        <MediaTypeSelect
          value={facets.mediaType}
          onChange={(mediaType) => onFacets({ ...facets, mediaType })}
        />
        {(members.length > 0 || (facets.member ?? 'all') !== 'all') && (
          <MemberSelect
            className="col-span-2 @md:col-span-3"
            value={facets.member ?? 'all'}
            onChange={(member) => onFacets({ ...facets, member })}
            members={members}
          />
        )}
        <div className="col-span-2 flex gap-2 @md:col-span-1">
          <ModelSelect
            className="min-w-0 flex-1"
            value={facets.model}
            onChange={(model) => onFacets({ ...facets, model })}
            models={models}
          />
          {filtering && (
            <Button
              variant="ghost"
              size="icon"
              onClick={onClear}
              aria-label={t`Clear filters`}
              title={t`Clear filters`}
            >
              <X className="size-4" aria-hidden="true" />
            </Button>
          )}
        </div>
      </div>
      <GroupBatchesToggle checked={grouped} onChange={onGrouped} />
    </div>
  );
}

const ESTIMATED_CARD_PX = 120;
const CARD_GAP_PX = 8;
const estimateCard = () => ESTIMATED_CARD_PX;
const NO_KEYS: ReadonlySet<string> = new Set();
const NO_ENTRIES: ReadonlySet<HistoryEntry> = new Set();
const cellKey = (cell: Cell<HistoryEntry>) => (isStack(cell) ? cell.key : cell.taskId);

/** Only the cards in (and near) view are in the DOM; heights are measured as they render. */
function VirtualTaskList({
  entries,
  grouped,
  onOpen,
  footer,
}: {
  entries: HistoryEntry[];
  grouped: boolean;
  onOpen: (entry: HistoryEntry) => void;
  /** After the last card, inside the scrolling box (the team's earlier tasks: read as it comes into view). */
  footer?: ReactNode;
}) {
  const { t } = useLingui();
  const scrollRef = useRef<HTMLDivElement>(null);
  // "Group batches": the stacks opened in place (their keys); a stack's cards follow it.
  const [openStacks, setOpenStacks] = useState<ReadonlySet<string>>(NO_KEYS);
  const { cells, opened } = useMemo(
    () =>
      grouped
        ? stackCells(entries, openStacks)
        : { cells: entries as Cell<HistoryEntry>[], opened: NO_ENTRIES },
    [entries, grouped, openStacks],
  );
  // The same function from render to render: a new one would make the virtualizer lay out every one of
  // the 50,000 cards again on each scroll frame (its measurements are kept while getItemKey is the same).
  const getItemKey = useCallback(
    (index: number) => {
      const cell = cells[index];
      return cell ? cellKey(cell) : index;
    },
    [cells],
  );
  // The studio does not build with React Compiler; the virtualizer re-renders this list itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: cells.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimateCard,
    getItemKey,
    gap: CARD_GAP_PX,
    overscan: 4,
    // React 19: measuring inside a layout effect must not flushSync.
    useFlushSync: false,
  });
  const onToggle = useCallback((stack: BatchStack<HistoryEntry>) => {
    setOpenStacks((keys) => {
      const next = new Set(keys);
      if (!next.delete(stack.key)) next.add(stack.key);
      return next;
    });
  }, []);
  // Escape on an opened stack or one of its cards closes it, and the focus goes back to the stack.
  const onCellKeyDown = (e: KeyboardEvent, cell: Cell<HistoryEntry>) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    const batch = isStack(cell)
      ? cell.open
        ? cell.batchId
        : undefined
      : opened.has(cell) && batchIdOf(cell);
    if (!batch) return;
    e.stopPropagation();
    const key = stackKey(batch);
    setOpenStacks((keys) => {
      const next = new Set(keys);
      next.delete(key);
      return next;
    });
    const index = cells.findIndex((c) => isStack(c) && c.key === key);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
    const focus = () =>
      [...(scrollRef.current?.querySelectorAll<HTMLElement>('[data-testid="batch-stack"]') ?? [])]
        .find((el) => el.dataset.key === key)
        ?.querySelector<HTMLElement>('[data-role="open"]')
        ?.focus();
    requestAnimationFrame(() => requestAnimationFrame(focus));
  };
  return (
    <div
      ref={scrollRef}
      className="-mx-1 max-h-[70vh] overflow-y-auto overscroll-contain px-1 py-1"
      data-testid="history-scroll"
    >
      <ul aria-label={t`Tasks`} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const cell = cells[item.index];
          if (!cell) return null;
          const inStack = !isStack(cell) && opened.has(cell);
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-setsize={cells.length}
              aria-posinset={item.index + 1}
              // A card of an open stack is set in under it.
              className={cn(
                'absolute top-0 start-0 w-full',
                inStack && 'border-s-4 border-indigo-300 ps-3 dark:border-indigo-800',
              )}
              style={{ transform: `translateY(${item.start}px)` }}
              onKeyDown={(e) => onCellKeyDown(e, cell)}
              data-in-stack={inStack ? stackKey(batchIdOf(cell) ?? '') : undefined}
            >
              {isStack(cell) ? (
                <BatchStackCard stack={cell} onToggle={onToggle} />
              ) : (
                <TaskCard entry={cell} onOpen={onOpen} />
              )}
            </li>
          );
        })}
      </ul>
      {footer}
    </div>
  );
}
