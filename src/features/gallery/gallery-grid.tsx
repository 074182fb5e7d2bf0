import { t as tNow } from '@lingui/core/macro';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { formatDate } from '../../lib/format';
import { calendarDaysBetween, dayStartOfKey } from '../../lib/local-day';
import { isStack, stackCells, stackKey, type BatchStack } from '../../model/gallery/batch-stacks';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import type { JudgementStore } from '../../model/history/judgements';
import type { TeamPicks } from '../../model/team/team-judgements';
import type { ReviewState } from '../../model/history/reviews';
import { rowsOf, type GalleryRow } from '../../model/gallery/gallery-filter';
import { GAP, itemBatch, stackKeyOf, type GridCell } from './grid-cells';
import { GridRow } from './grid-row';

// The Gallery's grid: rows of tiles (and day headings) virtualised, so 20,000 outputs stay smooth; the
// columns follow the grid's own width; "Group batches" stacks opened in place; the focus given back to a tile.

const NARROW_GRID = 600;
const DAY_ROW = 40;

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

const NO_KEYS: ReadonlySet<string> = new Set();
const NO_ITEMS_SET: ReadonlySet<GalleryItem> = new Set();
const rowsHold = (rows: GalleryRow<GridCell>[], key: string) =>
  rows.some((row) => row.kind === 'tiles' && row.items.some((c) => c.key === key));

export interface GridApi {
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
  /** Each reviewed output's latest review state: a badge on its tile. */
  reviewStates: ReadonlyMap<string, ReviewState>;
  hiddenIds: ReadonlySet<string>;
  selection: ReadonlySet<string>;
  onOpen: (item: GalleryItem) => void;
  onSelect: (item: GalleryItem, range: boolean) => void;
  onToggleStar: (item: GalleryItem) => void;
  ref: React.Ref<GridApi>;
  /** After the last row, inside the scrolling box (the team's earlier tasks: read as it comes into view). */
  footer?: React.ReactNode;
}

/** Rows of tiles (and day headings), only those in and near view in the DOM. */
export function GalleryGrid({
  items,
  grouped,
  byDay,
  tileSize,
  judged,
  teamPicks,
  reviewStates,
  hiddenIds,
  selection,
  onOpen,
  onSelect,
  onToggleStar,
  ref,
  footer,
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
      className="-mx-1 min-h-[50dvh] flex-1 overflow-y-auto overscroll-contain px-1"
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
              reviewStates={reviewStates}
              hiddenIds={hiddenIds}
              selection={selection}
              onOpen={onOpen}
              onSelect={onSelect}
              onToggleStar={onToggleStar}
            />
          );
        })}
      </div>
      {footer}
    </div>
  );
}
