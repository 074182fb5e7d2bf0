import { plural, t as tNow } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Columns2, Columns3, EyeOff, Eye, Images, SlidersHorizontal, Star, X } from 'lucide-react';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Button } from '../../components/button';
import { notify, notifyError, notifyUndo } from '../../components/notices';
import { shortcutFor } from '../../components/shortcuts';
import { inputClass } from '../../components/field';
import { SearchField } from '../../components/search-field';
import { Segmented } from '../../components/segmented';
import { Select } from '../../components/select';
import { categoryLabel } from '../../model/category-labels';
import { cn } from '../../lib/cn';
import { formatCount, formatDate } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { calendarDaysBetween, dayStartOfKey } from '../../lib/local-day';
import { displayText } from '../../lib/untrusted-text';
import type { OutboxEntry } from '../../model/db';
import type { HiddenTasks } from '../../model/history/hidden-tasks';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import type { JudgementStore } from '../../model/history/judgements';
import { taskIdOfKey } from '../../model/history/output-key';
import type { TeamPicks } from '../../model/team/team-judgements';
import { safeMediaUrl } from '../../lib/untrusted-text';
import { CompareTwo, type CompareMode, type CompareSide } from '../compare-two/compare-two';
import { editSourceOf } from '../../model/history/edit-source';
import { MediaTypeSelect, MemberSelect, ModelSelect, StatusSelect } from '../../components/history/filter-selects';
import {
  SORTS,
  SORT_LABELS,
  NO_GALLERY_FILTER,
  categoryOptions,
  isGalleryFiltering,
  rowsOf,
  runningFirst,
  selectItems,
  type GalleryFilter,
  type GalleryRow,
  type GallerySort,
} from './gallery-filter';
import { galleryItemsOf, type GalleryItem } from '../../model/history/gallery-item';
import { GalleryTile, tileLabel } from '../../components/history/gallery-tile';
import { memberOptions, modelOptions, type MediaType } from '../../model/history/history-filter';
import {
  EMPTY_SELECTION,
  extendTo,
  restrictTo,
  selectAll,
  toggle,
  type TileSelection,
} from './tile-selection';
import { Viewer } from '../viewer/viewer';
import { BatchStackTile } from '../../components/history/batch-stack';
import {
  batchIdOf,
  batchOrder,
  isStack,
  stackCells,
  stackKey,
  type BatchStack,
  type Cell,
} from '../../model/history/batch-stacks';
import { useGroupBatches } from '../../components/history/group-batches-setting';
import type { KeepersStore } from '../../model/history/keepers';
import { KeptCopyContext } from '../../components/history/kept-copy-context';
import { DownloadSelectedButton } from '../takeaway/download-selected-button';
import { StorageMeter } from '../takeaway/storage-meter';
import { useKeepStarred } from '../takeaway/use-keep-starred';

// The "Gallery" view (product-notes §3 "Gallery and viewer"): the same history as the History column, one tile
// per output, newest first and grouped by day, filtered and sorted from the URL, virtualised by rows so
// 20,000 outputs stay smooth; multi-select with bulk actions; the Viewer and Compare two open from it.

/** A model to add to Compare (product-notes §3: "Add to comparison" sends the selection's models). */
export interface ComparisonModel {
  category: string;
  modelId: string;
  versionId: string;
}

export interface GalleryViewProps {
  history: HistoryStore;
  judgements: JudgementStore;
  hidden: HiddenTasks;
  filter: GalleryFilter;
  onFilter: (filter: GalleryFilter) => void;
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: MediaType) => void;
  onAddToComparison: (models: ComparisonModel[]) => void;
  /**
   * More buttons for the selection toolbar, given the selected tiles in the shown order: the place for
   * "Download selected" (a module of its own, wired in by the app).
   */
  extraActions?: (selected: GalleryItem[]) => ReactNode;
  /** Starred outputs kept on this device (their bytes), shown when their URL no longer answers. */
  keepers?: KeepersStore | null;
  /**
   * The team's stars and ratings, while the team space is on: a "Team picks" filter, and on each tile
   * how many members starred it and their average rating. Without it the gallery is this device's alone.
   */
  teamPicks?: TeamPicks;
  /** More of the Viewer's side panel for the output shown (the team's comments on it). */
  renderOutputExtras?: (outputKey: string) => ReactNode;
  /**
   * An output to open in the Viewer (a notice's "Open output"); a new nonce opens it again. It opens
   * once its task is in the history, even when the filters leave it out.
   */
  openOutput?: { key: string; nonce: number } | null;
  /** Tasks held in this device's queue, in order: not sent, so no outputs; shown as held, by place. */
  held?: readonly OutboxEntry[];
  /** Tasks still running before the rest (the phone's Results, docs/phone.md), in the sort's order. */
  runningFirst?: boolean;
}

const TILE_SIZES = { small: 140, medium: 200, large: 300 } as const;
type TileSize = keyof typeof TILE_SIZES;
const TILE_SIZE_KEY = 'media-studio:gallery-tile-size';
const GAP = 8;
const NARROW_GRID = 600;
const DAY_ROW = 40;

const readTileSize = (): TileSize => {
  const saved = globalThis.localStorage?.getItem(TILE_SIZE_KEY);
  return saved === 'small' || saved === 'large' ? saved : 'medium';
};

function dayLabel(day: string): string {
  const date = new Date(dayStartOfKey(day));
  const today = new Date();
  const diff = calendarDaysBetween(date, today);
  if (diff === 0) return tNow`Today`;
  if (diff === 1) return tNow`Yesterday`;
  return formatDate(date, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(date.getFullYear() === today.getFullYear() ? {} : { year: 'numeric' }),
  });
}

const NO_ITEMS: GalleryItem[] = [];
const NO_KEYS: ReadonlySet<string> = new Set();
const NO_ITEMS_SET: ReadonlySet<GalleryItem> = new Set();

/** A cell of the grid: a tile, or a batch's stack ("Group batches"). */
type GridCell = Cell<GalleryItem>;
const itemBatch = (item: GalleryItem) => batchIdOf(item.entry);
const stackKeyOf = (item: GalleryItem) => stackKey(itemBatch(item) ?? '');
const rowsHold = (rows: GalleryRow<GridCell>[], key: string) =>
  rows.some((row) => row.kind === 'tiles' && row.items.some((c) => c.key === key));

type Comparing = { before: CompareSide; after: CompareSide; mode: CompareMode };

const sideOf = (item: GalleryItem): CompareSide | null => {
  const url = safeMediaUrl(item.output?.url);
  return url
    ? { url, label: tileLabel(item), mediaType: item.entry.meta.mediaType, keptKey: item.key }
    : null;
};
const sourceSide = (item: GalleryItem): CompareSide | null => {
  const url = editSourceOf(item.entry);
  return url ? { url, label: tNow`Source`, mediaType: item.entry.meta.mediaType } : null;
};

export function GalleryView(props: GalleryViewProps) {
  const { t, i18n } = useLingui();
  const { history, judgements, hidden, onFilter, teamPicks } = props;
  const entries = useSyncExternalStore(history.subscribe, history.list);
  const judged = useSyncExternalStore(judgements.subscribe, judgements.snapshot);
  const hiddenIds = useSyncExternalStore(hidden.subscribe, hidden.snapshot);
  // "Team picks" in the URL means nothing while the team space is off.
  const teamOn = teamPicks !== undefined;
  const filter = useMemo(
    () => (teamOn || !props.filter.teamPicks ? props.filter : { ...props.filter, teamPicks: false }),
    [props.filter, teamOn],
  );
  const deferred = useDeferredValue(filter);
  useKeepStarred(history, judgements, props.keepers);
  const [grouped, setGrouped] = useGroupBatches();
  // Grouped, a batch's tiles sit together where its best one falls under the sort (the grid shows them
  // as one stack): the Viewer and range selection then go through them in that order too.
  const items = useMemo(() => {
    const selected = selectItems(entries, deferred, judged, hiddenIds, galleryItemsOf, teamPicks);
    const ordered = props.runningFirst ? runningFirst(selected) : selected;
    return grouped ? batchOrder(ordered, itemBatch) : ordered;
  }, [entries, deferred, judged, hiddenIds, teamPicks, props.runningFirst, grouped]);
  // The shown order of keys, built when a selection needs it (not on every change of the history:
  // 200,000 keys would be a long task each time a poll answers).
  const orderOf = useCallback(() => items.map((i) => i.key), [items]);
  const totalOutputs = useMemo(
    () => entries.reduce((n, e) => n + Math.max(1, e.outputs.length), 0),
    [entries],
  );

  const [selection, setSelection] = useState<TileSelection>(EMPTY_SELECTION);
  // Tiles no longer shown (a filter, a hide) leave the selection.
  const selecting = selection.keys.size > 0;
  const shownKeys = useMemo(() => (selecting ? new Set(items.map((i) => i.key)) : null), [items, selecting]);
  const kept = shownKeys ? restrictTo(selection, shownKeys) : selection;
  if (kept !== selection) setSelection(kept);
  const selected = useMemo(
    () => (selection.keys.size > 0 ? items.filter((i) => selection.keys.has(i.key)) : NO_ITEMS),
    [items, selection],
  );

  const [viewing, setViewing] = useState<GalleryItem | null>(null);
  // The last openOutput nonce acted on: set when its task is found (it may arrive after the request).
  const [opened, setOpened] = useState<number | null>(null);
  const open = props.openOutput;
  if (open && open.nonce !== opened) {
    const taskId = taskIdOfKey(open.key);
    const entry = entries.find((e) => e.taskId === taskId);
    const item = entry && galleryItemsOf([entry]).find((i) => i.key === open.key);
    if (item) {
      setOpened(open.nonce);
      setViewing(item);
    }
  }
  const [comparing, setComparing] = useState<Comparing | null>(null);
  const [tileSize, setTileSizeState] = useState<TileSize>(readTileSize);
  const setTileSize = (size: TileSize) => {
    setTileSizeState(size);
    globalThis.localStorage?.setItem(TILE_SIZE_KEY, size);
  };

  const grid = useRef<GridApi>(null);
  const onOpen = useCallback((item: GalleryItem) => setViewing(item), []);
  const onSelect = useCallback(
    (item: GalleryItem, range: boolean) =>
      setSelection((s) => (range ? extendTo(s, item.key, orderOf()) : toggle(s, item.key))),
    [orderOf],
  );
  const onToggleStar = useCallback((item: GalleryItem) => void judgements.toggleStar(item.key), [judgements]);

  const closeViewer = useCallback((item: GalleryItem) => {
    setViewing(null);
    grid.current?.focusTile(item.key);
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    // React bubbles a portal's keydown up the component tree, so the Viewer's, Compare two's and the
    // download dialog's keys arrive here too: they belong to that dialog, not to the grid behind it.
    if (!(e.target instanceof Node) || !e.currentTarget.contains(e.target)) return;
    const shortcut = shortcutFor(['gallery.selectAll', 'gallery.clearSelection'], e);
    if (shortcut === 'gallery.selectAll') {
      e.preventDefault();
      setSelection(selectAll(orderOf()));
    } else if (shortcut === 'gallery.clearSelection' && selection.keys.size > 0) {
      setSelection(EMPTY_SELECTION);
    }
  };

  const taskIdsOf = (list: GalleryItem[]) => [...new Set(list.map((i) => i.entry.taskId))];
  const hideSelected = () => {
    const ids = taskIdsOf(selected).filter((id) => !hiddenIds.has(id));
    void hidden.hide(ids);
    setSelection(EMPTY_SELECTION);
    const tasks = ids.length;
    const count = formatCount(tasks);
    notifyUndo(
      plural(tasks, {
        one: `${count} task hidden on this device.`,
        other: `${count} tasks hidden on this device.`,
      }),
      () => hidden.unhide(ids),
      {
        undone: plural(tasks, {
          one: `${count} task shown again.`,
          other: `${count} tasks shown again.`,
        }),
      },
    );
  };
  const showSelected = () => {
    const ids = taskIdsOf(selected).filter((id) => hiddenIds.has(id));
    void hidden.unhide(ids);
    const tasks = ids.length;
    const count = formatCount(tasks);
    notify(plural(tasks, { one: `${count} task shown again.`, other: `${count} tasks shown again.` }));
  };
  const starSelected = () => {
    const withOutput = selected.filter((i) => i.output);
    const allStarred = withOutput.every((i) => judged.get(i.key)?.starred);
    void judgements.setStarred(
      withOutput.map((i) => i.key),
      !allStarred,
    );
  };
  const addToComparison = () => {
    const models = new Map<string, ComparisonModel>();
    for (const { entry } of selected) {
      const { category, modelId, versionId, kind } = entry.meta;
      if (kind === 'model' && category && modelId && versionId)
        models.set(`${modelId}|${versionId}`, { category, modelId, versionId });
    }
    const list = [...models.values()];
    if (list.length === 0) {
      notifyError(t`None of the selected outputs was made by a model: nothing to compare.`);
      return;
    }
    // Compare runs one category at a time: the one most of the selection is in.
    const counts = new Map<string, number>();
    for (const m of list) counts.set(m.category, (counts.get(m.category) ?? 0) + 1);
    const category = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const chosen = list.filter((m) => m.category === category).slice(0, 8);
    props.onAddToComparison(chosen);
    const left = list.length - chosen.length;
    const categoryName = categoryLabel(category);
    const added = chosen.length;
    notify(
      left
        ? plural(added, {
            one: `Added # model of ${categoryName} to the comparison: open Compare to run them. ${left} left out (another category, or over 8).`,
            other: `Added # models of ${categoryName} to the comparison: open Compare to run them. ${left} left out (another category, or over 8).`,
          })
        : plural(added, {
            one: `Added # model of ${categoryName} to the comparison: open Compare to run them.`,
            other: `Added # models of ${categoryName} to the comparison: open Compare to run them.`,
          }),
    );
  };

  const compareTarget = useMemo((): Comparing | null => {
    if (selected.length === 2) {
      // Older first: before, then after. An edit made from the other one is shown on the slider.
      const [a, b] = [...selected].sort((x, y) => x.entry.createdAt - y.entry.createdAt) as [
        GalleryItem,
        GalleryItem,
      ];
      const before = sideOf(a);
      const after = sideOf(b);
      if (!before || !after) return null;
      const related = editSourceOf(b.entry) === before.url || editSourceOf(a.entry) === after.url;
      return { before, after, mode: related || editSourceOf(b.entry) ? 'slider' : 'side' };
    }
    if (selected.length === 1) return compareWithSource(selected[0]!);
    return null;
  }, [selected]);

  const viewIndex = useMemo(
    () => (viewing ? items.findIndex((i) => i.key === viewing.key) : -1),
    [items, viewing],
  );
  const filtering = isGalleryFiltering(filter);
  const shown = items.length;
  const shownCount = formatCount(shown);
  const totalCount = formatCount(totalOutputs);
  const selectedCount = formatCount(selection.keys.size);

  return (
    <KeptCopyContext.Provider value={props.keepers ?? null}>
      <main
        aria-label={t`Gallery`}
        // On a phone the bar of destinations (4 rem) is below it too.
        className="flex h-[calc(100dvh-3.5rem)] min-h-0 flex-col gap-3 p-3 max-sm:h-[calc(100dvh-7.5rem-env(safe-area-inset-bottom))] sm:p-4"
        onKeyDown={onKeyDown}
      >
        <Toolbar
          entries={entries}
          filter={filter}
          onFilter={onFilter}
          tileSize={tileSize}
          onTileSize={setTileSize}
          hiddenCount={hiddenIds.size}
          teamOn={teamOn}
          grouped={grouped}
          onGrouped={setGrouped}
          count={
            filtering || filter.showHidden
              ? t`${shownCount} of ${totalCount} outputs`
              : plural(shown, { one: `${shownCount} output`, other: `${shownCount} outputs` })
          }
        />
        {props.held && props.held.length > 0 && <HeldStrip held={props.held} />}

        {props.keepers && <StorageMeter keepers={props.keepers} />}

        {selection.keys.size > 0 && (
          <div
            role="toolbar"
            aria-label={t`Selection`}
            className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm ring-1 ring-indigo-200 dark:bg-indigo-950/50 dark:ring-indigo-900"
          >
            <span className="font-medium tabular-nums" data-testid="selection-count" aria-live="polite">
              <Trans>{selectedCount} selected</Trans>
            </span>
            <Button size="sm" onClick={starSelected}>
              <Star className="size-4" aria-hidden="true" />
              <Trans>Star selected</Trans>
            </Button>
            {selected.some((i) => !hiddenIds.has(i.entry.taskId)) && (
              <Button
                size="sm"
                onClick={hideSelected}
                title={t`Hide from this device's history (the service keeps them)`}
              >
                <EyeOff className="size-4" aria-hidden="true" />
                <Trans>Hide</Trans>
              </Button>
            )}
            {selected.some((i) => hiddenIds.has(i.entry.taskId)) && (
              <Button size="sm" onClick={showSelected}>
                <Eye className="size-4" aria-hidden="true" />
                <Trans>Show again</Trans>
              </Button>
            )}
            <Button size="sm" onClick={addToComparison}>
              <Columns3 className="size-4" aria-hidden="true" />
              <Trans>Add to comparison</Trans>
            </Button>
            <Button
              size="sm"
              disabled={!compareTarget}
              onClick={() => compareTarget && setComparing(compareTarget)}
              title={t`Two outputs, or one edit and its source`}
            >
              <Columns2 className="size-4" aria-hidden="true" />
              <Trans>Compare two</Trans>
            </Button>
            <DownloadSelectedButton size="sm" items={selected} />
            {props.extraActions?.(selected)}
            <Button
              size="sm"
              variant="ghost"
              className="ms-auto"
              onClick={() => setSelection(EMPTY_SELECTION)}
            >
              <Trans>Clear selection</Trans>
            </Button>
          </div>
        )}

        {entries.length === 0 ? (
          <Empty title={t`No outputs yet`}>
            <Trans>What you generate appears here, newest first, and stays on this device.</Trans>
          </Empty>
        ) : items.length === 0 ? (
          <Empty title={t`No outputs match these filters`}>
            <Button size="sm" onClick={() => onFilter({ ...NO_GALLERY_FILTER, sort: filter.sort })}>
              <Trans>Clear filters</Trans>
            </Button>
          </Empty>
        ) : (
          <Grid
            ref={grid}
            key={`${tileSize}|${filter.sort}|${grouped}|${i18n.locale}`}
            items={items}
            grouped={grouped}
            byDay={deferred.sort === 'newest' || deferred.sort === 'oldest'}
            tileSize={TILE_SIZES[tileSize]}
            judged={judged}
            teamPicks={teamPicks}
            hiddenIds={hiddenIds}
            selection={selection.keys}
            onOpen={onOpen}
            onSelect={onSelect}
            onToggleStar={onToggleStar}
          />
        )}

        {viewing && !comparing && (
          <Viewer
            items={items}
            index={viewIndex}
            current={viewing}
            onIndex={(i) => items[i] && setViewing(items[i])}
            onShow={setViewing}
            judgements={judged}
            teamPick={teamPicks?.get(viewing.key)}
            renderOutputExtras={props.renderOutputExtras}
            onToggleStar={onToggleStar}
            onRate={(item, r) => void judgements.setRating(item.key, r)}
            onClose={closeViewer}
            onRemix={props.onRemix}
            onUseAsInput={props.onUseAsInput}
            onCompareSource={(item) => {
              const target = compareWithSource(item);
              if (target) setComparing(target);
            }}
          />
        )}
        {comparing && (
          <CompareTwo {...comparing} initialMode={comparing.mode} onClose={() => setComparing(null)} />
        )}
      </main>
    </KeptCopyContext.Provider>
  );
}

function compareWithSource(item: GalleryItem): Comparing | null {
  const before = sourceSide(item);
  const after = sideOf(item);
  return before && after ? { before, after, mode: 'slider' } : null;
}

function Empty({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-16 text-center dark:border-slate-700">
      <Images className="size-7 text-slate-400 dark:text-slate-500" aria-hidden="true" />
      <p className="text-sm font-medium">{title}</p>
      <div className="text-sm text-slate-600 dark:text-slate-400">{children}</div>
    </div>
  );
}

function Toolbar({
  entries,
  filter,
  onFilter,
  tileSize,
  onTileSize,
  hiddenCount,
  teamOn,
  grouped,
  onGrouped,
  count,
}: {
  entries: HistoryEntry[];
  filter: GalleryFilter;
  onFilter: (f: GalleryFilter) => void;
  tileSize: TileSize;
  onTileSize: (size: TileSize) => void;
  hiddenCount: number;
  /** The team space is on: the "Team picks" filter is offered. */
  teamOn: boolean;
  /** "Group batches": each batch one stack. */
  grouped: boolean;
  onGrouped: (on: boolean) => void;
  count: string;
}) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(() => isGalleryFiltering({ ...filter, query: '' }));
  const models = useMemo(() => modelOptions(entries), [entries]);
  const members = useMemo(() => memberOptions(entries), [entries]);
  const categories = useMemo(() => categoryOptions(entries), [entries]);
  const set = (patch: Partial<GalleryFilter>) => onFilter({ ...filter, ...patch });
  const active = [
    filter.status !== 'all',
    filter.mediaType !== 'all',
    filter.model !== 'all',
    filter.category !== 'all',
    filter.starred,
    filter.minRating > 0,
    filter.from !== '',
    filter.to !== '',
    filter.showHidden,
    filter.teamPicks,
  ].filter(Boolean).length;
  const panelId = 'gallery-filters';
  const hiddenTasks = formatCount(hiddenCount);

  return (
    <div role="search" aria-label={t`Filter gallery`} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">
          <Trans>Gallery</Trans>
        </h2>
        <span
          className="text-xs text-slate-600 tabular-nums dark:text-slate-400"
          aria-live="polite"
          data-testid="gallery-count"
        >
          {count}
        </span>
        <SearchField
          className="min-w-40 flex-1 sm:max-w-sm"
          value={filter.query}
          onChange={(e) => set({ query: e.target.value })}
          placeholder={t`Search prompts`}
          aria-label={t`Search prompts`}
        />
        {(members.length > 0 || (filter.member ?? 'all') !== 'all') && (
          <MemberSelect
            className="w-40"
            value={filter.member ?? 'all'}
            onChange={(member) => set({ member })}
            members={members}
          />
        )}
        <Select
          aria-label={t`Sort`}
          value={filter.sort}
          onChange={(e) => set({ sort: e.target.value as GallerySort })}
          className="w-40"
        >
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {i18n._(SORT_LABELS[s])}
            </option>
          ))}
        </Select>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={grouped}
            onChange={(e) => onGrouped(e.target.checked)}
            className="size-4 accent-indigo-600"
          />
          <Trans>Group batches</Trans>
        </label>
        <Button aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
          <SlidersHorizontal className="size-4" aria-hidden="true" />
          <Trans>Filters</Trans>
          {active > 0 && (
            <span className="rounded-full bg-indigo-600 px-1.5 text-xs text-white tabular-nums">
              <Trans>
                <span className="sr-only">(</span>
                {active}
                <span className="sr-only"> active)</span>
              </Trans>
            </span>
          )}
        </Button>
        <div className="flex items-center gap-2 sm:ms-auto">
          <span id="tile-size-label" className="text-xs text-slate-600 dark:text-slate-400">
            <Trans>Tile size</Trans>
          </span>
          <Segmented
            aria-labelledby="tile-size-label"
            value={tileSize}
            onChange={(v) => onTileSize(v as TileSize)}
            options={[
              { value: 'small', label: t({ message: 'S', comment: 'tile size: small' }) },
              { value: 'medium', label: t({ message: 'M', comment: 'tile size: medium' }) },
              { value: 'large', label: t({ message: 'L', comment: 'tile size: large' }) },
            ]}
          />
        </div>
      </div>
      {open && (
        <div
          id={panelId}
          className="grid grid-cols-2 items-end gap-2 rounded-lg bg-white p-3 ring-1 ring-slate-200 sm:grid-cols-3 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto_auto] xl:grid-cols-[repeat(6,minmax(0,1fr))_auto_auto] dark:bg-slate-900 dark:ring-slate-800"
        >
          <StatusSelect value={filter.status} onChange={(status) => set({ status })} />
          <MediaTypeSelect value={filter.mediaType} onChange={(mediaType) => set({ mediaType })} />
          <ModelSelect value={filter.model} onChange={(model) => set({ model })} models={models} />
          <Select
            aria-label={t`Category filter`}
            value={filter.category}
            onChange={(e) => set({ category: e.target.value })}
          >
            <option value="all">{t`All categories`}</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
            {filter.category !== 'all' && !categories.includes(filter.category) && (
              <option value={filter.category}>{categoryLabel(filter.category)}</option>
            )}
          </Select>
          <Select
            aria-label={t`Minimum rating`}
            value={String(filter.minRating)}
            onChange={(e) => set({ minRating: Number(e.target.value) })}
          >
            <option value="0">{t`Any rating`}</option>
            {[1, 2, 3, 4, 5].map((r) => (
              <option key={r} value={r}>
                {r === 5 ? t`5 only` : t`${r} or more`}
              </option>
            ))}
          </Select>
          <div className="col-span-2 grid grid-cols-2 gap-2 sm:col-span-1">
            <DateBound
              label={t({ message: 'From', comment: 'the first day of a date range' })}
              value={filter.from}
              max={filter.to}
              onChange={(from) => set({ from })}
            />
            <DateBound
              label={t({ message: 'To', comment: 'the last day of a date range' })}
              value={filter.to}
              min={filter.from}
              onChange={(to) => set({ to })}
            />
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={filter.starred}
                onChange={(e) => set({ starred: e.target.checked })}
                className="size-4 accent-indigo-600"
              />
              <Trans>Starred only</Trans>
            </label>
            {teamOn && (
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={filter.teamPicks}
                  onChange={(e) => set({ teamPicks: e.target.checked })}
                  className="size-4 accent-indigo-600"
                />
                <Trans>Team picks</Trans>
              </label>
            )}
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={filter.showHidden}
                onChange={(e) => set({ showHidden: e.target.checked })}
                className="size-4 accent-indigo-600"
              />
              <Trans>Show hidden tasks ({hiddenTasks})</Trans>
            </label>
          </div>
          <Button
            variant="ghost"
            onClick={() => onFilter({ ...NO_GALLERY_FILTER, sort: filter.sort })}
            disabled={!isGalleryFiltering(filter) && !filter.showHidden}
          >
            <X className="size-4" aria-hidden="true" />
            <Trans>Clear filters</Trans>
          </Button>
        </div>
      )}
    </div>
  );
}

interface GridApi {
  /** Scrolls the tile into view and focuses its open button (the Viewer gives the focus back). */
  focusTile: (key: string) => void;
}

interface GridProps {
  items: GalleryItem[];
  /** "Group batches": each batch of two or more tiles is one stack, opened in place. */
  grouped: boolean;
  byDay: boolean;
  tileSize: number;
  judged: ReturnType<JudgementStore['snapshot']>;
  teamPicks: TeamPicks | undefined;
  hiddenIds: ReadonlySet<string>;
  selection: ReadonlySet<string>;
  onOpen: (item: GalleryItem) => void;
  onSelect: (item: GalleryItem, range: boolean) => void;
  onToggleStar: (item: GalleryItem) => void;
  ref: React.Ref<GridApi>;
}

/** One end of the date range: a labelled date field, bounded by the other end when it is set. */
function DateBound({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
      {label}
      <input
        type="date"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(e) => onChange(e.target.value)}
        className={cn(inputClass, 'px-1.5 dark:scheme-dark')}
      />
    </label>
  );
}

/** Rows of tiles (and day headings), only those in and near view in the DOM. */
function Grid({
  items,
  grouped,
  byDay,
  tileSize,
  judged,
  teamPicks,
  hiddenIds,
  selection,
  onOpen,
  onSelect,
  onToggleStar,
  ref,
}: GridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // The rows' own width (inside the scroller's padding and scrollbar) decides the columns.
  useLayoutEffect(() => {
    const el = innerRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // A phone's grid (under 600 px) aims at tiles 0.6 as wide: S, M and L are then 3-4, 2-3 and 1-2
  // columns there, not 2, 1 and 1 (one picture per screen).
  const target = width > 0 && width < NARROW_GRID ? tileSize * 0.6 : tileSize;
  const columns = Math.max(1, Math.floor((width + GAP) / (target + GAP)));
  const tile = width > 0 ? (width - GAP * (columns - 1)) / columns : tileSize;
  // The stacks opened in place (their keys); a stack's members follow it in the rows.
  const [openStacks, setOpenStacks] = useState<ReadonlySet<string>>(NO_KEYS);
  const { cells, opened } = useMemo(
    () => (grouped ? stackCells(items, openStacks) : { cells: items as GridCell[], opened: NO_ITEMS_SET }),
    [items, grouped, openStacks],
  );
  // Nothing to lay out before the width is known (the first render): rows are built once, for it.
  const rows = useMemo(
    () => (width > 0 ? rowsOf(cells, columns, byDay, dayLabel) : []),
    [cells, columns, byDay, width],
  );
  // The row of a tile, found when the focus goes back to it (no map of every key per change).
  const rowOfKey = (key: string) =>
    rows.findIndex((row) => row.kind === 'tiles' && row.items.some((item) => item.key === key));
  // The same functions from render to render while the rows are the same: new ones would make the
  // virtualizer place every row again (some 50,000 at 200,000 outputs) on each scroll frame.
  const estimateSize = useCallback(
    (i: number) => (rows[i]?.kind === 'day' ? DAY_ROW : tile + GAP),
    [rows, tile],
  );
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  // The studio does not build with React Compiler; the virtualizer re-renders this list itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: 3,
    useFlushSync: false,
  });
  useEffect(() => virtualizer.measure(), [tile, rows, virtualizer]);

  const pendingFocus = useRef<string | null>(null);
  const tryFocus = useCallback(() => {
    const key = pendingFocus.current;
    if (!key) return;
    const button = [...(scrollRef.current?.querySelectorAll<HTMLElement>('[data-key]') ?? [])]
      .find((el) => el.dataset.key === key)
      ?.querySelector<HTMLElement>('[data-role="open"]');
    if (button) {
      pendingFocus.current = null;
      button.focus();
    }
  }, []);
  useEffect(() => {
    tryFocus();
  });
  const focusTile = (key: string) => {
    pendingFocus.current = key;
    const row = rowOfKey(key);
    if (row >= 0) virtualizer.scrollToIndex(row, { align: 'auto' });
    requestAnimationFrame(() => requestAnimationFrame(tryFocus));
  };
  useImperativeHandle(ref, () => ({
    // A tile inside a closed stack is not in the grid: the focus goes to its stack.
    focusTile: (key) => {
      const batch = grouped ? items.find((i) => i.key === key) : undefined;
      const stack = batch && itemBatch(batch);
      focusTile(stack && !rowsHold(rows, key) && rowsHold(rows, stackKey(stack)) ? stackKey(stack) : key);
    },
  }));
  const onToggleStack = useCallback((stack: BatchStack) => {
    setOpenStacks((keys) => {
      const next = new Set(keys);
      if (!next.delete(stack.key)) next.add(stack.key);
      return next;
    });
  }, []);
  // Escape on an opened stack or one of its tiles closes it and gives the focus back to the stack.
  const onCellKeyDown = (e: KeyboardEvent, cell: GridCell) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    const key = isStack(cell) ? (cell.open ? cell.key : null) : opened.has(cell) ? stackKeyOf(cell) : null;
    if (!key) return;
    // Handled here: the gallery's own Escape (clearing the selection) waits for the next one.
    e.stopPropagation();
    setOpenStacks((keys) => {
      const next = new Set(keys);
      next.delete(key);
      return next;
    });
    focusTile(key);
  };

  return (
    <div
      ref={scrollRef}
      className="-mx-1 min-h-0 flex-1 overflow-y-auto overscroll-contain px-1"
      data-testid="gallery-scroll"
    >
      <div ref={innerRef} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          return (
            <GridRow
              key={v.key}
              row={row}
              start={v.start}
              size={v.size}
              columns={columns}
              tile={tile}
              setSize={cells.length}
              opened={opened}
              onToggleStack={onToggleStack}
              onCellKeyDown={onCellKeyDown}
              judged={judged}
              teamPicks={teamPicks}
              hiddenIds={hiddenIds}
              selection={selection}
              onOpen={onOpen}
              onSelect={onSelect}
              onToggleStar={onToggleStar}
            />
          );
        })}
      </div>
    </div>
  );
}

interface GridRowProps {
  row: GalleryRow<GridCell>;
  start: number;
  size: number;
  columns: number;
  tile: number;
  /** How many tiles the grid shows (aria-setsize). */
  setSize: number;
  /** Tiles shown inside an open stack (drawn as its members). */
  opened: ReadonlySet<GridCell>;
  onToggleStack: (stack: BatchStack) => void;
  onCellKeyDown: (e: KeyboardEvent, cell: GridCell) => void;
  judged: ReturnType<JudgementStore['snapshot']>;
  teamPicks: TeamPicks | undefined;
  hiddenIds: ReadonlySet<string>;
  selection: ReadonlySet<string>;
  onOpen: (item: GalleryItem) => void;
  onSelect: (item: GalleryItem, range: boolean) => void;
  onToggleStar: (item: GalleryItem) => void;
}

/**
 * One row of the grid: a day heading or a row of tiles. Memoised: a scroll frame re-renders the grid,
 * and only the rows that came into view render (the others keep their props).
 */
const GridRow = memo(function GridRow({
  row,
  start,
  size,
  columns,
  tile,
  setSize,
  opened,
  onToggleStack,
  onCellKeyDown,
  judged,
  teamPicks,
  hiddenIds,
  selection,
  onOpen,
  onSelect,
  onToggleStar,
}: GridRowProps) {
  // Memoised: its parent's render in a new locale does not reach it, so it listens itself.
  useLocale();
  return (
    <div
      className="absolute top-0 start-0 w-full"
      style={{ transform: `translateY(${start}px)`, height: size }}
    >
      {row.kind === 'day' ? (
        <h3 className="flex h-full items-end gap-2 pb-2 text-sm font-semibold">
          {row.label}
          <span className="text-xs font-normal text-slate-600 tabular-nums dark:text-slate-400">
            {formatCount(row.count)}
          </span>
        </h3>
      ) : (
        <ul
          className="grid"
          style={{ gridTemplateColumns: `repeat(${columns}, ${tile}px)`, gap: GAP, height: tile }}
        >
          {row.items.map((item, i) => (
            <li
              key={item.key}
              aria-setsize={setSize}
              aria-posinset={row.first + i + 1}
              onKeyDown={(e) => onCellKeyDown(e, item)}
              // A tile of an open stack: set off from the tiles around it.
              className={cn(opened.has(item) && 'rounded-lg bg-indigo-100 p-1 dark:bg-indigo-950')}
              data-in-stack={!isStack(item) && opened.has(item) ? stackKeyOf(item) : undefined}
            >
              {isStack(item) ? (
                <BatchStackTile stack={item} onToggle={onToggleStack} />
              ) : (
                <GalleryTile
                  item={item}
                  judgement={judged.get(item.key)}
                  teamPick={teamPicks?.get(item.key)}
                  selected={selection.has(item.key)}
                  hidden={hiddenIds.has(item.entry.taskId)}
                  onOpen={onOpen}
                  onSelect={onSelect}
                  onToggleStar={onToggleStar}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

const HELD_SHOWN = 8;

/** The queue's held tasks, as held with their place (they have no output, and no service status yet). */
function HeldStrip({ held }: { held: readonly OutboxEntry[] }) {
  const { t } = useLingui();
  const heldCount = formatCount(held.length);
  const more = formatCount(held.length - HELD_SHOWN);
  return (
    <section aria-label={t`Held in your queue`} className="flex flex-wrap items-center gap-1.5 text-xs">
      <span className="font-medium text-slate-700 dark:text-slate-300">
        <Trans>Held in your queue, not sent yet ({heldCount}):</Trans>
      </span>
      <ol className="contents">
        {held.slice(0, HELD_SHOWN).map((e, i) => {
          const place = i + 1;
          const title = displayText(e.meta.title);
          return (
            <li
              key={e.idempotencyKey}
              className="max-w-56 truncate rounded-full bg-slate-100 px-2 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
              dir="auto"
            >
              {t`Held · place ${place}`} · <span translate="no">{title}</span>
            </li>
          );
        })}
      </ol>
      {held.length > HELD_SHOWN && (
        <span className="text-slate-600 dark:text-slate-400">
          <Trans>and {more} more</Trans>
        </span>
      )}
    </section>
  );
}
