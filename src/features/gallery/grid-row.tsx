import { memo, type KeyboardEvent } from 'react';
import { BatchStackTile } from '../../components/history/batch-stack';
import { GalleryTile } from '../../components/history/gallery-tile';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { isStack, type BatchStack } from '../../model/gallery/batch-stacks';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import type { JudgementStore } from '../../model/history/judgements';
import type { TeamPicks } from '../../model/team/team-judgements';
import type { ReviewState } from '../../model/history/reviews';
import { reviewStateWord } from '../../components/history/review-control';
import type { GalleryRow } from '../../model/gallery/gallery-filter';
import { GAP, stackKeyOf, type GridCell } from './grid-cells';

export interface GridRowProps {
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
  reviewStates: ReadonlyMap<string, ReviewState>;
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
export const GridRow = memo(function GridRow({
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
  reviewStates,
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
              className={cn(
                'relative',
                opened.has(item) && 'rounded-lg bg-indigo-100 p-1 dark:bg-indigo-950',
              )}
              data-in-stack={!isStack(item) && opened.has(item) ? stackKeyOf(item) : undefined}
            >
              {isStack(item) ? (
                <BatchStackTile stack={item} onToggle={onToggleStack} />
              ) : (
                <>
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
                  <ReviewBadge state={reviewStates.get(item.key)} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

const BADGE_LOOK: Record<ReviewState, string> = {
  approved: 'bg-emerald-700 text-white',
  changes: 'bg-amber-200 text-amber-950',
  rejected: 'bg-rose-700 text-white',
};

/**
 * A reviewed tile's latest review ("Approved"), over the tile's top, between its checkbox and its star
 * (the tile itself is shared with the History: the badge is the Gallery's).
 */
function ReviewBadge({ state }: { state: ReviewState | undefined }) {
  if (!state) return null;
  return (
    <span
      data-testid="tile-review"
      data-state={state}
      className={cn(
        'pointer-events-none absolute top-9 start-1.5 z-10 rounded px-1.5 text-[11px] font-semibold shadow-sm',
        BADGE_LOOK[state],
      )}
    >
      {reviewStateWord(state)}
    </span>
  );
}
