import { i18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Award, Equal, Pause, Play, RotateCcw, Star, StickyNote } from 'lucide-react';
import { Button } from '../../components/button';
import { cn } from '../../lib/cn';
import { formatCredits, formatSeconds } from '../../lib/format';
import { cellKey } from '../../model/boards/boards';
import { outputKey } from '../../model/history/output-key';
import type { Candidate, Vote } from '../../model/boards/votes';
import { blindLabel, identifyingNames, scrubNames, urlNamesModel, type BoardColumn } from './board-model';
import { blindOrder } from './blind-order';
import type { BoardState, CellView } from './use-board';

// The board itself (product-notes §3 "Compare"): a table, one column per model and one row per prompt.
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

const CELL_STATUS = {
  never: msg`not run`,
  changed: msg`changed since run`,
  notSent: msg`not sent`,
  sending: msg`sending`,
};

/** A task's own status is the spec's word (as the Gallery's badge shows it); the studio's words are messages. */
export const cellStatus = (cell: CellView): string =>
  cell.problem
    ? cell.problem
    : cell.state === 'never'
      ? i18n._(CELL_STATUS.never)
      : cell.state === 'changed'
        ? i18n._(CELL_STATUS.changed)
        : (cell.entry?.status ?? i18n._(cell.sendNote ? CELL_STATUS.notSent : CELL_STATUS.sending));

export interface BlindProps {
  /** Names hidden and each row shuffled (until Reveal). */
  blind: boolean;
  /** This board's votes, by row id. */
  votes: ReadonlyMap<string, Vote>;
  /** Best of a row (a column key), or a tie (null); the same pick again withdraws it. */
  onVote: (rowId: string, candidates: Candidate[], winner: string | null) => void;
}

/** What a cell's extras are about: the board's cell and, once it has a result, that output. */
interface CellTarget {
  boardId: string;
  cellKey: string;
  /** `${taskId}#0`, the output the cell shows (model/history/output-key.ts). */
  outputKey?: string;
}
/** Per-cell extras the app composes in (the team's Comments on a cell): features do not import each other. */
export type RenderCellExtras = (target: CellTarget) => ReactNode;

const candidateOf = (col: BoardColumn): Candidate => ({
  key: col.key,
  modelId: col.model.id,
  versionId: col.column.versionId,
  name: col.model.name,
  versionName: col.versionName,
});

export function BoardGrid({
  state,
  blind,
  votes,
  onVote,
  renderCellExtras,
}: { state: BoardState; renderCellExtras?: RenderCellExtras } & BlindProps) {
  const { t } = useLingui();
  const { board, columns, cells, update, totals } = state;
  const names = blind ? identifyingNames(columns) : [];
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
            <Trans>Zoom</Trans>
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
              <Trans>Play all</Trans>
            </Button>
            <Button size="sm" onClick={pauseAll}>
              <Pause className="size-3.5" aria-hidden="true" />
              <Trans>Pause all</Trans>
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
          <caption className="sr-only">
            <Trans>Results: one column per model, one row per prompt</Trans>
          </caption>
          <thead>
            <tr>
              <th
                scope="col"
                className="w-44 text-start align-bottom text-xs font-medium text-slate-500 dark:text-slate-400"
              >
                <Trans>Prompt</Trans>
              </th>
              {blind &&
                columns.map((col, i) => (
                  <th
                    key={i}
                    scope="col"
                    className="text-start align-bottom font-semibold text-slate-900 dark:text-white"
                  >
                    {blindLabel(i)}
                  </th>
                ))}
              {!blind &&
                columns.map((col) => {
                  const sum = totals.byColumn.get(col.key);
                  return (
                    <th key={col.key} scope="col" className="text-start align-bottom font-normal">
                      <span className="block font-semibold text-slate-900 dark:text-white" translate="no">
                        {col.model.name}
                      </span>
                      <span className="block text-xs text-slate-600 dark:text-slate-400" translate="no">
                        {col.versionName}
                      </span>
                      <span
                        className="block text-xs text-slate-600 tabular-nums dark:text-slate-400"
                        data-testid="column-quote"
                      >
                        {sum == null ? t`Quote pending` : formatCredits(sum)}
                      </span>
                    </th>
                  );
                })}
            </tr>
          </thead>
          <tbody>
            {board.setup.rows.map((row, r) => {
              // Blind: this row's own order, the same after a reload; the cells are named by their place.
              const order = blind ? blindOrder(board.id, row.id, columns) : columns;
              const rowCells = order.map((col) => cells.find((c) => c.key === cellKey(row.id, col.key)));
              const judged = rowCells.filter((c): c is CellView => c?.state === 'succeeded');
              const canVote = blind && judged.length >= 2;
              const vote = votes.get(row.id);
              const candidates = judged.map((c) => candidateOf(c.col));
              const promptNumber = r + 1;
              const votedFor =
                vote && vote.winner !== null
                  ? blindLabel(order.findIndex((c) => c.key === vote.winner))
                  : null;
              return (
                <tr key={row.id}>
                  <th
                    scope="row"
                    className="max-w-44 text-start align-top text-xs font-normal text-slate-700 dark:text-slate-300"
                  >
                    <span className="mb-1 block font-medium text-slate-500 dark:text-slate-400">
                      <Trans>Prompt {promptNumber}</Trans>
                    </span>
                    <span className="line-clamp-6 break-words whitespace-pre-line">
                      {row.prompt || t`(no prompt)`}
                    </span>
                    {blind && (
                      <span className="mt-2 flex flex-col items-start gap-1">
                        <span data-testid="row-vote">
                          {vote
                            ? vote.winner === null
                              ? t`Your vote: a tie`
                              : t`Your vote: ${votedFor}`
                            : canVote
                              ? t`Pick the best result, or a tie.`
                              : t`Votes open when two results are in.`}
                        </span>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-pressed={vote?.winner === null}
                          disabled={!canVote}
                          aria-label={t`Tie, prompt ${promptNumber}`}
                          onClick={() => onVote(row.id, candidates, null)}
                        >
                          <Equal className="size-3.5" aria-hidden="true" />
                          <Trans comment="A vote: no result of this prompt is better">Tie</Trans>
                        </Button>
                      </span>
                    )}
                    {!blind && vote && (
                      <span className="mt-2 block font-medium" data-testid="row-vote">
                        {vote.winner === null ? t`Voted a tie (blind)` : t`Voted in blind: see the badge`}
                      </span>
                    )}
                  </th>
                  {order.map((col, i) => {
                    const cell = rowCells[i];
                    const label = blind
                      ? t`${ph({ candidate: blindLabel(i) })}, prompt ${promptNumber}`
                      : t`${ph({ model: col.model.name })} ${ph({ version: col.versionName })}, prompt ${promptNumber}`;
                    return (
                      <td key={blind ? i : col.key} className="align-top">
                        {cell && (
                          <CellCard
                            cell={cell}
                            zoom={zoom}
                            onScroll={onScroll}
                            blindNames={blind ? names : null}
                            best={vote?.winner === col.key}
                            onBest={
                              canVote && cell.state === 'succeeded'
                                ? () => onVote(row.id, candidates, col.key)
                                : undefined
                            }
                            label={label}
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
                            extras={renderCellExtras?.({
                              boardId: board.id,
                              cellKey: cell.key,
                              outputKey:
                                cell.state === 'succeeded' &&
                                cell.entry?.taskId &&
                                cell.entry.outputs.length > 0
                                  ? outputKey(cell.entry.taskId, 0)
                                  : undefined,
                            })}
                          />
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
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
  blindNames,
  best,
  onBest,
  label,
  favourite,
  onFavourite,
  note,
  onNote,
  onRerun,
  extras,
}: {
  cell: CellView;
  zoom: number;
  onScroll: (box: HTMLElement) => void;
  /** Blind: the names nothing shown may contain; null when the board is not blind. */
  blindNames: readonly string[] | null;
  /** Voted the best of its row. */
  best: boolean;
  /** Blind, with results to judge: picks this cell as the best of its row. */
  onBest: (() => void) | undefined;
  label: string;
  favourite: boolean;
  onFavourite: () => void;
  note: string;
  onNote: (text: string) => void;
  onRerun: () => void;
  /** The app's per-cell extras (rendered as given, below the note). */
  extras?: ReactNode;
}) {
  const { t } = useLingui();
  const [noteOpen, setNoteOpen] = useState(note !== '');
  const output = cell.state === 'succeeded' ? cell.entry?.outputs[0] : undefined;
  const cost = cellCost(cell);
  const seconds = cellSeconds(cell);
  const blind = blindNames !== null;
  const text = (s: string) => (blind ? scrubNames(s, blindNames) : s);
  const status = text(cellStatus(cell));
  const type = cell.col.model.type;
  // An output URL that names its model (some services put it in the path) is shown from a copy.
  const outputUrl = useBlindSafeUrl(output?.url, blindNames);
  const posterUrl = useBlindSafeUrl(output?.thumbnailUrl, blindNames);

  let body: ReactNode;
  if (output && type === 'image') {
    body = (
      <div
        data-zoom-box
        onScroll={(e) => onScroll(e.currentTarget)}
        className="aspect-square w-full overflow-auto rounded-lg bg-[repeating-conic-gradient(#e2e8f0_0%_25%,transparent_0%_50%)] bg-[length:16px_16px] ring-1 ring-slate-200 dark:bg-[repeating-conic-gradient(#1e293b_0%_25%,transparent_0%_50%)] dark:ring-slate-700"
      >
        <img
          src={outputUrl}
          alt={t`Result of ${label}`}
          style={{ width: `${zoom * 100}%`, height: `${zoom * 100}%` }}
          className="max-w-none object-contain"
        />
      </div>
    );
  } else if (output && type === 'video') {
    body = (
      <video
        src={outputUrl}
        poster={posterUrl}
        controls
        muted
        playsInline
        preload="metadata"
        aria-label={t`Result of ${label}`}
        className="aspect-square w-full rounded-lg bg-slate-950 object-contain"
      />
    );
  } else if (output) {
    body = (
      <div className="flex aspect-[4/1] w-full items-center rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
        <audio
          src={outputUrl}
          controls
          preload="metadata"
          aria-label={t`Result of ${label}`}
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
        {cell.entry?.error && <span>{text(cell.entry.error.message)}</span>}
        {cell.sendNote && <span>{text(cell.sendNote)}</span>}
        {cell.quoteError && !cell.problem && <span>{text(cell.quoteError)}</span>}
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
        {/* Blind: cost and time would tell the models apart, so they wait for Reveal. */}
        {cost && !blind && (
          <span data-testid="cell-cost">
            {cost.charged ? formatCredits(cost.credits) : `≈ ${formatCredits(cost.credits)}`}
          </span>
        )}
        {seconds !== null && !blind && <span data-testid="cell-time">{formatSeconds(seconds)}</span>}
        {best && !blind && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">
            <Award className="size-3" aria-hidden="true" />
            <Trans>Voted best (blind)</Trans>
          </span>
        )}
      </div>
      <div className="flex flex-wrap gap-1">
        {blind && (
          <Button
            variant={best ? 'primary' : 'secondary'}
            size="sm"
            aria-pressed={best}
            disabled={!onBest}
            onClick={onBest}
          >
            <Award className="size-3.5" aria-hidden="true" />
            <Trans comment="A vote: this result is the best of its prompt">Best</Trans>
          </Button>
        )}
        {!blind && (
          <Button
            variant={favourite ? 'starred' : 'ghost'}
            size="sm"
            aria-pressed={favourite}
            onClick={onFavourite}
          >
            <Star className={cn('size-3.5', favourite && 'fill-current')} aria-hidden="true" />
            <Trans>Favourite</Trans>
          </Button>
        )}
        <Button variant="ghost" size="sm" aria-expanded={noteOpen} onClick={() => setNoteOpen((o) => !o)}>
          <StickyNote className="size-3.5" aria-hidden="true" />
          <Trans comment="noun: a note written on this result">Note</Trans>
        </Button>
        {cell.state === 'failed' && !cell.problem && (
          <Button size="sm" onClick={onRerun}>
            <RotateCcw className="size-3.5" aria-hidden="true" />
            <Trans>Rerun</Trans>
          </Button>
        )}
      </div>
      {noteOpen && (
        <textarea
          aria-label={t`Note on ${label}`}
          value={note}
          onChange={(e) => onNote(e.target.value)}
          rows={2}
          className="w-full rounded-md border-0 bg-white px-2 py-1 text-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-500 dark:bg-slate-900 dark:ring-slate-700"
        />
      )}
      {extras}
    </div>
  );
}

/**
 * The URL to put in src: the output's own, or, on a blind board when the URL names the model, an object
 * URL of a copy (fetched from the service's CDN, which answers CORS), so no attribute names the model.
 */
function useBlindSafeUrl(url: string | undefined, names: readonly string[] | null): string | undefined {
  const leaks = url !== undefined && names !== null && urlNamesModel(url, names);
  const [copy, setCopy] = useState<{ url: string; href: string } | null>(null);
  useEffect(() => {
    if (!leaks || !url) return;
    let href: string | null = null;
    let live = true;
    void fetch(url)
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((blob) => {
        href = URL.createObjectURL(blob);
        if (live) setCopy({ url, href });
        else URL.revokeObjectURL(href);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (href) URL.revokeObjectURL(href);
    };
  }, [leaks, url]);
  if (!leaks) return url;
  return copy?.url === url ? copy.href : undefined;
}
