import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Pause, Play, RotateCcw, Star, StickyNote } from 'lucide-react';
import { Button } from '../../components/button';
import { cn } from '../../lib/cn';
import { formatCredits, formatSeconds } from '../../lib/format';
import { cellKey } from '../../lib/boards';
import type { BoardState, CellView } from './use-board';

// The board itself (PRODUCT 3 "Compare"): a table, one column per model and one row per prompt.
// Images sit in same-size boxes whose zoom and scroll move together; videos and audio play together.

/** The wall-clock time a finished cell took, from the history's timestamps. */
export const cellSeconds = (cell: CellView): number | null =>
  cell.entry?.completedAt
    ? Math.max(0, Math.round((cell.entry.completedAt - cell.entry.createdAt) / 1000))
    : null;

/** What a cell cost (charged when finished), or what it would cost (quoted). */
export const cellCost = (cell: CellView): { credits: number; charged: boolean } | null => {
  if (cell.state === 'succeeded' && cell.entry?.creditsCharged != null)
    return { credits: cell.entry.creditsCharged, charged: true };
  return cell.quote ? { credits: cell.quote.credits, charged: false } : null;
};

export const cellStatus = (cell: CellView): string =>
  cell.problem
    ? cell.problem
    : cell.state === 'never'
      ? 'not run'
      : cell.state === 'changed'
        ? 'changed since run'
        : (cell.entry?.status ?? (cell.sendNote ? 'not sent' : 'sending'));

export function BoardGrid({ state }: { state: BoardState }) {
  const { board, columns, cells, update, totals } = state;
  const [zoom, setZoom] = useState(1);
  const grid = useRef<HTMLDivElement>(null);
  const syncing = useRef(false);

  // One scroll moves every image box to the same relative place.
  const onScroll = useCallback((source: HTMLElement) => {
    if (syncing.current || !grid.current) return;
    syncing.current = true;
    const fx = source.scrollLeft / Math.max(1, source.scrollWidth - source.clientWidth);
    const fy = source.scrollTop / Math.max(1, source.scrollHeight - source.clientHeight);
    grid.current.querySelectorAll<HTMLElement>('[data-zoom-box]').forEach((box) => {
      if (box === source) return;
      box.scrollLeft = fx * (box.scrollWidth - box.clientWidth);
      box.scrollTop = fy * (box.scrollHeight - box.clientHeight);
    });
    requestAnimationFrame(() => {
      syncing.current = false;
    });
  }, []);

  const media = () => [...(grid.current?.querySelectorAll<HTMLMediaElement>('video, audio') ?? [])];
  const playAll = () => {
    const all = media();
    all.forEach((m) => {
      m.currentTime = 0;
    });
    all.forEach((m) => void m.play().catch(() => undefined));
  };
  const pauseAll = () => media().forEach((m) => m.pause());
  const hasImages = cells.some((c) => c.state === 'succeeded' && c.col.model.type === 'image');
  const hasPlayable = cells.some((c) => c.state === 'succeeded' && c.col.model.type !== 'image');

  if (columns.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        {hasImages && (
          <label className="flex items-center gap-2 text-sm">
            Zoom
            <input
              type="range"
              min={1}
              max={4}
              step={0.25}
              value={zoom}
              onChange={(e) => setZoom(Number(e.target.value))}
              className="w-36 accent-indigo-600"
            />
            <span className="w-12 tabular-nums text-slate-600 dark:text-slate-400">
              {Math.round(zoom * 100)}%
            </span>
          </label>
        )}
        {hasPlayable && (
          <>
            <Button size="sm" onClick={playAll}>
              <Play className="size-3.5" aria-hidden="true" />
              Play all
            </Button>
            <Button size="sm" onClick={pauseAll}>
              <Pause className="size-3.5" aria-hidden="true" />
              Pause all
            </Button>
          </>
        )}
      </div>
      <div ref={grid} className="overflow-x-auto">
        {/* Fixed layout: every model column gets the same width, so every result shows at the same size. */}
        <table
          className="w-full table-fixed border-separate border-spacing-2 text-sm"
          style={{ minWidth: `${11 + columns.length * 14}rem` }}
        >
          <caption className="sr-only">Results: one column per model, one row per prompt</caption>
          <thead>
            <tr>
              <th
                scope="col"
                className="w-44 text-left align-bottom text-xs font-medium text-slate-500 dark:text-slate-400"
              >
                Prompt
              </th>
              {columns.map((col) => {
                const sum = totals.byColumn.get(col.key);
                return (
                  <th key={col.key} scope="col" className="text-left align-bottom font-normal">
                    <span className="block font-semibold text-slate-900 dark:text-white">
                      {col.model.name}
                    </span>
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {col.versionName}
                    </span>
                    <span
                      className="block text-xs text-slate-600 tabular-nums dark:text-slate-400"
                      data-testid="column-quote"
                    >
                      {sum == null ? 'Quote pending' : formatCredits(sum)}
                    </span>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {board.setup.rows.map((row, r) => (
              <tr key={row.id}>
                <th
                  scope="row"
                  className="max-w-44 text-left align-top text-xs font-normal text-slate-700 dark:text-slate-300"
                >
                  <span className="mb-1 block font-medium text-slate-500 dark:text-slate-400">
                    Prompt {r + 1}
                  </span>
                  <span className="line-clamp-6 break-words whitespace-pre-line">
                    {row.prompt || '(no prompt)'}
                  </span>
                </th>
                {columns.map((col) => {
                  const cell = cells.find((c) => c.key === cellKey(row.id, col.key));
                  return (
                    <td key={col.key} className="align-top">
                      {cell && (
                        <CellCard
                          cell={cell}
                          zoom={zoom}
                          onScroll={onScroll}
                          label={`${col.model.name} ${col.versionName}, prompt ${r + 1}`}
                          favourite={board.favourites[row.id] === col.key}
                          onFavourite={() =>
                            update((b) => {
                              const favourites = { ...b.favourites };
                              if (favourites[row.id] === col.key) delete favourites[row.id];
                              else favourites[row.id] = col.key;
                              return { ...b, favourites };
                            })
                          }
                          note={board.notes[cell.key] ?? ''}
                          onNote={(text) =>
                            update((b) => ({ ...b, notes: { ...b.notes, [cell.key]: text } }))
                          }
                          onRerun={() => void state.rerun(cell)}
                        />
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function CellCard({
  cell,
  zoom,
  onScroll,
  label,
  favourite,
  onFavourite,
  note,
  onNote,
  onRerun,
}: {
  cell: CellView;
  zoom: number;
  onScroll: (box: HTMLElement) => void;
  label: string;
  favourite: boolean;
  onFavourite: () => void;
  note: string;
  onNote: (text: string) => void;
  onRerun: () => void;
}) {
  const [noteOpen, setNoteOpen] = useState(note !== '');
  const output = cell.state === 'succeeded' ? cell.entry?.outputs[0] : undefined;
  const cost = cellCost(cell);
  const seconds = cellSeconds(cell);
  const status = cellStatus(cell);
  const type = cell.col.model.type;

  let body: ReactNode;
  if (output && type === 'image') {
    body = (
      <div
        data-zoom-box
        onScroll={(e) => onScroll(e.currentTarget)}
        className="aspect-square w-full overflow-auto rounded-lg bg-[repeating-conic-gradient(#e2e8f0_0%_25%,transparent_0%_50%)] bg-[length:16px_16px] ring-1 ring-slate-200 dark:bg-[repeating-conic-gradient(#1e293b_0%_25%,transparent_0%_50%)] dark:ring-slate-700"
      >
        <img
          src={output.url}
          alt={`Result of ${label}`}
          style={{ width: `${zoom * 100}%`, height: `${zoom * 100}%` }}
          className="max-w-none object-contain"
        />
      </div>
    );
  } else if (output && type === 'video') {
    body = (
      <video
        src={output.url}
        poster={output.thumbnailUrl}
        controls
        muted
        playsInline
        preload="metadata"
        aria-label={`Result of ${label}`}
        className="aspect-square w-full rounded-lg bg-slate-950 object-contain"
      />
    );
  } else if (output) {
    body = (
      <div className="flex aspect-[4/1] w-full items-center rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
        <audio
          src={output.url}
          controls
          preload="metadata"
          aria-label={`Result of ${label}`}
          className="w-full"
        />
      </div>
    );
  } else {
    body = (
      <div
        className={cn(
          'flex aspect-square w-full flex-col items-center justify-center gap-1 rounded-lg p-3 text-center text-xs ring-1',
          cell.state === 'failed'
            ? 'bg-rose-50 text-rose-800 ring-rose-200 dark:bg-rose-950/40 dark:text-rose-200 dark:ring-rose-900'
            : 'bg-slate-50 text-slate-600 ring-slate-200 dark:bg-slate-800/60 dark:text-slate-300 dark:ring-slate-700',
          type === 'audio' && 'aspect-[4/1]',
        )}
      >
        <span className="font-medium">{status}</span>
        {cell.entry?.error && <span>{cell.entry.error.message}</span>}
        {cell.sendNote && <span>{cell.sendNote}</span>}
        {cell.quoteError && !cell.problem && <span>{cell.quoteError}</span>}
      </div>
    );
  }

  return (
    <div role="group" aria-label={label} className="flex flex-col gap-1.5" data-cell-state={cell.state}>
      {body}
      <div className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600 tabular-nums dark:text-slate-400">
        <span data-testid="cell-status" className="font-medium text-slate-800 dark:text-slate-200">
          {status}
        </span>
        {cost && (
          <span data-testid="cell-cost">
            {cost.charged ? formatCredits(cost.credits) : `≈ ${formatCredits(cost.credits)}`}
          </span>
        )}
        {seconds !== null && <span data-testid="cell-time">{formatSeconds(seconds)}</span>}
      </div>
      <div className="flex flex-wrap gap-1">
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={favourite}
          onClick={onFavourite}
          className={cn(favourite && 'text-amber-600 dark:text-amber-400')}
        >
          <Star className={cn('size-3.5', favourite && 'fill-current')} aria-hidden="true" />
          Favourite
        </Button>
        <Button variant="ghost" size="sm" aria-expanded={noteOpen} onClick={() => setNoteOpen((o) => !o)}>
          <StickyNote className="size-3.5" aria-hidden="true" />
          Note
        </Button>
        {cell.state === 'failed' && !cell.problem && (
          <Button size="sm" onClick={onRerun}>
            <RotateCcw className="size-3.5" aria-hidden="true" />
            Rerun
          </Button>
        )}
      </div>
      {noteOpen && (
        <textarea
          aria-label={`Note on ${label}`}
          value={note}
          onChange={(e) => onNote(e.target.value)}
          rows={2}
          className="w-full rounded-md border-0 bg-white px-2 py-1 text-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-500 dark:bg-slate-900 dark:ring-slate-700"
        />
      )}
    </div>
  );
}
