import { useLingui } from '@lingui/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../../api/api-context';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { ModelType } from '../../../contract/category';
import type { TeamBoards } from '../../model/compare/team-boards';
import { THIS_DEVICE, withScore, type Board } from '../../model/compare/boards';
import { needsRun, planCells, resolveColumns, sumQuotes, type BoardColumn } from './board-model';
import type { CellView } from './cell-view';
import type { CompareRunner } from './send-cells';
import { useBoardRecord } from './use-board-record';
import { useCellQuotes } from './use-cell-quotes';
import { useCellRuns } from './use-cell-runs';

// A board's live state, put together: its record (use-board-record.ts), the catalog models of its category,
// its cells planned from them, a quote per cell (use-cell-quotes.ts), and each cell's task and runs
// (use-cell-runs.ts); with the totals the run bar shows.

export function useBoard(
  initial: Board,
  runner: CompareRunner | null,
  onFirstSave?: (board: Board) => void,
  /** The team's boards when this board is (or, once it holds something, will be) a team board. */
  shared?: TeamBoards | null,
) {
  const { i18n } = useLingui();
  const { client, connectionId } = useApi();
  const record = useBoardRecord(initial, onFirstSave, shared ?? null);
  const { board, update, setSetup, teamRecord } = record;

  const [type, subType] = board.setup.category.split('/') as [ModelType, string];
  const models = useQuery(catalogQueries.models(client, connectionId, type, subType ?? 'default'));
  const columns: BoardColumn[] = useMemo(
    () => resolveColumns(board.setup, models.data?.items ?? []),
    [board.setup, models.data],
  );
  // A cell's problem is text: the cells are planned again when the studio's language changes.
  const locale = i18n.locale;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const planned = useMemo(() => planCells(board.setup, columns), [board.setup, columns, locale]);

  const quoteByBody = useCellQuotes(planned);
  const { cells, runCells, removeHeld, resumeQueue, history } = useCellRuns(
    { ...record, isTeam: !!shared },
    planned,
    quoteByBody,
    runner,
  );

  const totals = sumQuotes(cells, (c) => quoteByBody.get(c.body)?.quote?.credits);
  const toRun = cells.filter((c) => !c.problem && needsRun(c.state));
  const runTotal = toRun.reduce<number | null>(
    (sum, c) => (sum === null || c.quote === undefined ? null : sum + c.quote.credits),
    0,
  );

  return {
    board,
    update,
    setSetup,
    models,
    columns,
    cells,
    totals,
    toRun,
    runTotal,
    runAll: () => runCells(toRun),
    rerun: (cell: CellView) => runCells([cell]),
    /** A held cell: its task out of the queue, or the whole queue resumed. */
    removeHeld,
    resumeQueue,
    ready: runner !== null,
    /** The team's record of this board (null: a local board, or a team board not saved yet). */
    teamRecord,
    /** Every task this studio knows (its history; in a team, the team's too): a category report reads them. */
    history,
    /** Whose score sheet is this member's (THIS_DEVICE on a board of this device). */
    me: shared ? shared.memberId : THIS_DEVICE,
    /**
     * Sets this member's score of a cell on a criterion (null takes it back); false when the team space
     * is too old to keep scores.
     */
    score: (cell: string, criterion: string, value: number | null): boolean => {
      if (!shared) {
        update((b) => ({
          ...b,
          scores: {
            ...b.scores,
            [THIS_DEVICE]: withScore(b.scores[THIS_DEVICE], cell, criterion, value, Date.now()),
          },
        }));
        return true;
      }
      // A team board not saved yet is saved first (the score goes into the team's board).
      if (!teamRecord) update((b) => b);
      return shared.score(board.id, cell, criterion, value);
    },
    /** Whether the board can keep criteria and scores where it lives. */
    keepsScores: shared ? shared.keepsScores() : true,
  };
}

export type BoardState = ReturnType<typeof useBoard>;
