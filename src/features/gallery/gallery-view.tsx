import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  useCallback,
  useDeferredValue,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Button } from '../../components/button';
import { useGroupBatches } from '../../components/history/group-batches-setting';
import { formatCount } from '../../lib/format';
import type { OutboxEntry } from '../../model/db';
import { batchOrder } from '../../model/gallery/batch-stacks';
import type { ComparePair } from '../../model/gallery/compare-pair';
import { galleryItemsOf, type GalleryItem } from '../../model/gallery/gallery-item';
import { lineageOf } from '../../model/gallery/lineage';
import { taskIdOfKey } from '../../model/history/output-key';
import { reviewStatesOf, type Reviews } from '../../model/history/reviews';
import { useOutputTags, useSearchIndex } from '../../components/search/search-stores';
import { compareTargetOf, compareWithSource } from './compare-target';
import { useGalleryData, useGalleryTeam } from './gallery-context';
import { GalleryEarlier } from './gallery-earlier';
import { GalleryEmpty } from './gallery-empty';
import { GalleryOpenContext, type OpenCompareTwo, type OpenViewer } from './gallery-open';
import {
  NO_GALLERY_FILTER,
  isGalleryFiltering,
  runningFirst,
  searchCounter,
  selectItems,
  type GalleryFilter,
} from '../../model/gallery/gallery-filter';
import { GalleryGrid, type GridApi } from './gallery-grid';
import { useEarlierSearch } from '../../components/history/earlier-team-tasks';
import { GalleryToolbar } from './gallery-toolbar';
import { itemBatch } from './grid-cells';
import { HeldStrip } from './held-strip';
import { selectionKeyHandler } from './selection-keys';
import { SelectionToolbar, type ComparisonModel } from './selection-toolbar';
import { EMPTY_SELECTION, extendTo, restrictTo, toggle, type TileSelection } from './tile-selection';
import { TILE_SIZES, useTileSize } from './tile-size';
import { useOptionalStore } from '../../lib/use-optional-store';

// The "Gallery" view (product-notes §3 "Gallery and viewer"): the same history as the History column, one tile
// per output, newest first and grouped by day, filtered and sorted from the URL, virtualised by rows so
// 20,000 outputs stay smooth; multi-select with bulk actions; the Viewer and Compare two open from it. This
// file holds the view's state (what is shown, selected, open) and lays out its parts. The stores come from
// the app's contexts (gallery-context.ts); the Viewer, Compare two and the take-away are features of their
// own that the app composes in (app/gallery-screen.tsx): the first two as children, which read what is open
// (gallery-open.ts).

export interface GalleryViewProps {
  filter: GalleryFilter;
  onFilter: (filter: GalleryFilter) => void;
  onAddToComparison: (models: ComparisonModel[]) => void;
  /**
   * More buttons for the selection toolbar, given the selected tiles in the shown order: the place for
   * "Download selected" (the take-away, wired in by the app).
   */
  extraActions?: (selected: GalleryItem[]) => ReactNode;
  /** Above the grid: what the kept copies take on this device (the take-away's meter, from the app). */
  storage?: ReactNode;
  /**
   * An output to open in the Viewer (a notice's "Open output"); a new nonce opens it again. It opens
   * once its task is in the history, even when the filters leave it out.
   */
  openOutput?: { key: string; nonce: number } | null;
  /** Tasks held in this device's queue, in order: not sent, so no outputs; shown as held, by place. */
  held?: readonly OutboxEntry[];
  /** Tasks still running before the rest (the phone's Results, docs/phone.md), in the sort's order. */
  runningFirst?: boolean;
  /**
   * What opens over the grid (the Viewer, Compare two: features/viewer and features/compare-two, composed
   * in by the app); each reads what is open with useOpenViewer or useOpenCompareTwo.
   */
  children?: ReactNode;
}

const NO_ITEMS: GalleryItem[] = [];
const NO_REVIEWS: Reviews = new Map();

export function GalleryView(props: GalleryViewProps) {
  const { t, i18n } = useLingui();
  const { onFilter } = props;
  const { history, judgements, hidden, reviews } = useGalleryData();
  const { picks, earlier, reviewTeam } = useGalleryTeam();
  const teamPicks = useOptionalStore(picks, undefined);
  // A team joining brings its entries in pieces: each piece's grid is rendered as a transition, in slices.
  const live = useSyncExternalStore(history.subscribe, history.list);
  const entries = useDeferredValue(live);
  // A grid still catching up with its store reads no earlier tasks for its end being in view (as History).
  const catchingUp = entries !== live;
  const judged = useSyncExternalStore(judgements.subscribe, judgements.snapshot);
  const hiddenIds = useSyncExternalStore(hidden.subscribe, hidden.snapshot);
  const myReviews = useOptionalStore(reviews, NO_REVIEWS);
  const teamReviews = useOptionalStore(reviewTeam?.reviews, undefined);
  // Each reviewed output's latest review (anyone's in a team): its tile's badge and the "Review" filter.
  const reviewStates = useMemo(() => reviewStatesOf(myReviews, teamReviews), [myReviews, teamReviews]);
  // "Team picks" in the URL means nothing while the team space is off.
  const teamOn = teamPicks !== undefined;
  const filter = useMemo(
    () => (teamOn || !props.filter.teamPicks ? props.filter : { ...props.filter, teamPicks: false }),
    [props.filter, teamOn],
  );
  const deferred = useDeferredValue(filter);
  useEarlierSearch(earlier, deferred.query);
  const [grouped, setGrouped] = useGroupBatches();
  // Grouped, a batch's tiles sit together where its best one falls under the sort (the grid shows them
  // as one stack): the Viewer and range selection then go through them in that order too.
  const index = useSearchIndex(entries);
  const tags = useOutputTags();
  const items = useMemo(() => {
    const selected = selectItems(
      entries,
      deferred,
      judged,
      hiddenIds,
      galleryItemsOf,
      teamPicks,
      reviewStates,
      { index, tags },
    );
    const ordered = props.runningFirst ? runningFirst(selected) : selected;
    return grouped ? batchOrder(ordered, itemBatch) : ordered;
  }, [
    entries,
    deferred,
    judged,
    hiddenIds,
    teamPicks,
    reviewStates,
    index,
    tags,
    props.runningFirst,
    grouped,
  ]);
  // A saved search's count: the outputs it matches now, under no other filter (hidden tasks left out),
  // counted without making tiles, and kept per query until the list, stars, hidden tasks or tags change.
  const countOf = useMemo(
    () => searchCounter(entries, judged, hiddenIds, { index, tags }),
    [entries, judged, hiddenIds, index, tags],
  );
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
  // Lineage (model/gallery/lineage.ts) of the output the Viewer shows.
  const lineage = useMemo(
    () => (viewing ? lineageOf(viewing, (id) => history.get(id), entries) : null),
    [viewing, history, entries],
  );
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
  const [comparing, setComparing] = useState<ComparePair | null>(null);
  const [tileSize, setTileSize] = useTileSize();

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

  const onKeyDown = selectionKeyHandler(orderOf, selection, setSelection);
  const clearSelection = () => setSelection(EMPTY_SELECTION);
  const compareTarget = useMemo(() => compareTargetOf(selected), [selected]);

  const viewIndex = useMemo(
    () => (viewing ? items.findIndex((i) => i.key === viewing.key) : -1),
    [items, viewing],
  );
  const filtering = isGalleryFiltering(filter);
  const shown = items.length;
  const shownCount = formatCount(shown);
  const totalCount = formatCount(totalOutputs);

  const openViewer: OpenViewer | null =
    viewing && lineage && !comparing
      ? {
          lineage,
          items,
          index: viewIndex,
          current: viewing,
          onIndex: (i) => items[i] && setViewing(items[i]),
          onShow: setViewing,
          judgements: judged,
          teamPick: teamPicks?.get(viewing.key),
          reviews,
          reviewTeam,
          onToggleStar,
          onRate: (item, r) => void judgements.setRating(item.key, r),
          onClose: closeViewer,
          onCompareSource: (item) => {
            const target = compareWithSource(item);
            if (target) setComparing(target);
          },
        }
      : null;
  const openCompareTwo: OpenCompareTwo | null = comparing && {
    before: comparing.before,
    after: comparing.after,
    initialMode: comparing.mode,
    onClose: () => setComparing(null),
  };

  return (
    <main
      aria-label={t`Gallery`}
      // On a phone the bar of destinations (4 rem) is below it too. When the tools above the grid
      // (filters, a selection's actions) take more than the screen leaves it, the whole page scrolls:
      // the grid keeps half the screen rather than shrinking to nothing.
      className="flex h-[calc(100dvh-3.5rem)] min-h-0 flex-col gap-3 overflow-y-auto p-3 max-sm:h-[calc(100dvh-7.5rem-env(safe-area-inset-bottom))] sm:p-4"
      onKeyDown={onKeyDown}
    >
      <GalleryToolbar
        entries={entries}
        countOf={countOf}
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

      {props.storage}

      {selection.keys.size > 0 && (
        <SelectionToolbar
          size={selection.keys.size}
          selected={selected}
          hiddenIds={hiddenIds}
          judged={judged}
          compareTarget={compareTarget}
          onCompare={setComparing}
          onAddToComparison={props.onAddToComparison}
          extraActions={props.extraActions}
          onClear={clearSelection}
        />
      )}

      {entries.length === 0 ? (
        <GalleryEmpty title={t`No outputs yet`}>
          <Trans>What you generate appears here, newest first, and stays on this device.</Trans>
        </GalleryEmpty>
      ) : items.length === 0 ? (
        <>
          <GalleryEmpty title={t`No outputs match these filters`}>
            <Button size="sm" onClick={() => onFilter({ ...NO_GALLERY_FILTER, sort: filter.sort })}>
              <Trans>Clear filters</Trans>
            </Button>
          </GalleryEmpty>
          {/* What matches may be among the team's earlier tasks, not read yet. */}
          {earlier && (
            <GalleryEarlier source={earlier} filter={filter} onFilter={onFilter} paused={catchingUp} />
          )}
        </>
      ) : (
        <GalleryGrid
          ref={grid}
          // Other dates are another stretch of time: the grid starts again at its top.
          key={`${tileSize}|${filter.sort}|${grouped}|${i18n.locale}|${filter.from}|${filter.to}`}
          items={items}
          grouped={grouped}
          byDay={deferred.sort === 'newest' || deferred.sort === 'oldest'}
          tileSize={TILE_SIZES[tileSize]}
          judged={judged}
          teamPicks={teamPicks}
          reviewStates={reviewStates}
          hiddenIds={hiddenIds}
          selection={selection.keys}
          onOpen={onOpen}
          onSelect={onSelect}
          onToggleStar={onToggleStar}
          footer={earlier && <GalleryEarlier source={earlier} filter={filter} onFilter={onFilter} />}
        />
      )}

      <GalleryOpenContext value={{ viewer: openViewer, compareTwo: openCompareTwo }}>
        {props.children}
      </GalleryOpenContext>
    </main>
  );
}
