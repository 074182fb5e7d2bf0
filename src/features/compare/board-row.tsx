import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { cellKey, type Row } from '../../model/compare/boards';
import type { Candidate, Vote } from '../../model/compare/votes';
import { blindLabel, type BoardColumn } from './board-model';
import { blindOrder } from './blind-order';
import { CellCard } from './cell-card';
import { CellScores } from './criteria';
import { cellTarget, useCellExtras } from './cell-extras';
import type { CellView } from './cell-view';
import { RowVote } from './row-vote';
import type { BoardState } from './use-board';

// One prompt's row of the board: the prompt (and its vote) as the row's header, then a cell per model, in
// the columns' order or, on a blind board, in the row's own shuffled order.

export interface BlindProps {
  /** Names hidden and each row shuffled (until Reveal). */
  blind: boolean;
  /** This board's votes, by row id. */
  votes: ReadonlyMap<string, Vote>;
  /** Best of a row (a column key), or a tie (null); the same pick again withdraws it. */
  onVote: (rowId: string, candidates: Candidate[], winner: string | null) => void;
}

const candidateOf = (col: BoardColumn): Candidate => ({
  key: col.key,
  modelId: col.model.id,
  versionId: col.column.versionId,
  name: col.model.name,
  versionName: col.versionName,
});

export function BoardRow({
  state,
  row,
  index,
  blind,
  blindNames,
  votes,
  onVote,
  zoom,
  onScroll,
}: BlindProps & {
  state: BoardState;
  row: Row;
  index: number;
  /** Blind: the names nothing shown may contain. */
  blindNames: readonly string[];
  zoom: number;
  onScroll: (box: HTMLElement) => void;
}) {
  const { t } = useLingui();
  // The app's extras in each cell (its Review, the team's Comments), from the Compare view's context.
  const renderCellExtras = useCellExtras();
  const { board, columns, cells, update } = state;
  // Blind: this row's own order, the same after a reload; the cells are named by their place.
  const order = blind ? blindOrder(board.id, row.id, columns) : columns;
  const rowCells = order.map((col) => cells.find((c) => c.key === cellKey(row.id, col.key)));
  const judged = rowCells.filter((c): c is CellView => c?.state === 'succeeded');
  const canVote = blind && judged.length >= 2;
  const vote = votes.get(row.id);
  const candidates = judged.map((c) => candidateOf(c.col));
  const promptNumber = index + 1;
  const votedFor =
    vote && vote.winner !== null ? blindLabel(order.findIndex((c) => c.key === vote.winner)) : null;
  return (
    <tr>
      <th
        scope="row"
        className="max-w-44 text-start align-top text-xs font-normal text-slate-700 dark:text-slate-300"
      >
        <span className="mb-1 block font-medium text-slate-500 dark:text-slate-400">
          <Trans>Prompt {promptNumber}</Trans>
        </span>
        {/* The prompt is someone's words, shown as written (docs/i18n.md). */}
        {row.prompt ? (
          <span dir="auto" translate="no" className="line-clamp-6 break-words whitespace-pre-line">
            {row.prompt}
          </span>
        ) : (
          <span className="line-clamp-6 break-words whitespace-pre-line">{t`(no prompt)`}</span>
        )}
        <RowVote
          blind={blind}
          vote={vote}
          votedFor={votedFor}
          canVote={canVote}
          promptNumber={promptNumber}
          onTie={() => onVote(row.id, candidates, null)}
        />
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
                blindNames={blind ? blindNames : null}
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
                onNote={(text) => update((b) => ({ ...b, notes: { ...b.notes, [cell.key]: text } }))}
                onRerun={() => void state.rerun(cell)}
                onResumeQueue={state.resumeQueue}
                onRemoveHeld={() => void state.removeHeld(cell)}
                scoring={
                  cell.state === 'succeeded' && (
                    <CellScores
                      criteria={board.criteria}
                      scores={board.scores}
                      me={state.me}
                      cell={cell.key}
                      blind={blind}
                      onScore={(criterion, value) => state.score(cell.key, criterion, value)}
                    />
                  )
                }
                extras={renderCellExtras?.(cellTarget(board.id, cell))}
              />
            )}
          </td>
        );
      })}
    </tr>
  );
}
