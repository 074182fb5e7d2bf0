import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Quote } from '../../../contract/quote';
import { formatCredits } from '../../lib/format';
import type { Cell } from '../../model/compare/boards';
import type { HistoryEntry } from '../../model/history/history-types';
import { statusWord } from '../../model/tasks/status-words';
import type { CellRunState, PlannedCell } from './board-model';

// A board's cell as the grid, the run bar and the contact sheet show it: its plan, its task as the history
// knows it, its quote, and the facts read from them (state, status, cost, time).

export interface CellView extends PlannedCell {
  entry: HistoryEntry | null;
  state: CellRunState;
  quote: Quote | undefined;
  quoteError: string | null;
  /** Why the last send did not create a task (refused), or that it is still being sent. */
  sendNote: string | null;
  /**
   * The cell's task is held in this device's queue (never sent, nothing charged): the queue owns it, so
   * the cell offers what the queue offers (resume, remove), never a run of its own beside it.
   */
  held?: CellHeld | null;
}

interface CellHeld {
  /** The whole queue is paused (by the user, or by itself: a refusal, the credit stop). */
  queuePaused: boolean;
}

/** The cell's task in the history: by its id, or (a reload before the answer) by the key it was sent with. */
export const cellEntry = (run: Cell | undefined, history: readonly HistoryEntry[]): HistoryEntry | null =>
  (run?.taskId ? history.find((e) => e.taskId === run.taskId) : undefined) ??
  (run ? history.find((e) => e.idempotencyKey === run.idempotencyKey) : undefined) ??
  null;

/** Where a cell stands: never run, changed since its run, on its way, or finished one way or the other. */
export function cellRunState(
  cell: PlannedCell,
  run: Cell | undefined,
  entry: HistoryEntry | null,
  refused: boolean,
): CellRunState {
  if (!run) return 'never';
  if (run.request !== cell.body) return 'changed';
  if (entry?.status === 'succeeded') return 'succeeded';
  if (entry?.status === 'failed' || entry?.status === 'cancelled' || (!entry && refused)) return 'failed';
  return 'active';
}

/** The wall-clock time a finished cell took, from the history's timestamps. */
export const cellSeconds = (cell: CellView): number | null =>
  cell.entry?.completedAt
    ? Math.max(0, Math.round((cell.entry.completedAt - cell.entry.createdAt) / 1000))
    : null;

/** What a cell cost (charged when finished), or what it would cost (quoted). */
const cellCost = (cell: CellView): { credits: number; charged: boolean } | null => {
  if (cell.state === 'succeeded' && cell.entry?.creditsCharged != null)
    return { credits: cell.entry.creditsCharged, charged: true };
  return cell.quote ? { credits: cell.quote.credits, charged: false } : null;
};

/** The cell's cost as shown: the credits charged, or "≈" the quote. */
export const cellCostText = (cell: CellView): string | null => {
  const cost = cellCost(cell);
  if (!cost) return null;
  return cost.charged ? formatCredits(cost.credits) : `≈ ${formatCredits(cost.credits)}`;
};

const CELL_STATUS = {
  never: msg`not run`,
  changed: msg`changed since run`,
  notSent: msg`not sent`,
  sending: msg`sending`,
  held: msg({ message: 'held', comment: "A cell's status: its task waits in the queue on this device" }),
};

/** A task's own status in the words its badge shows (status-words.ts); the studio's words are messages. */
export const cellStatus = (cell: CellView): string =>
  cell.problem
    ? cell.problem
    : cell.state === 'never'
      ? i18n._(CELL_STATUS.never)
      : cell.state === 'changed'
        ? i18n._(CELL_STATUS.changed)
        : cell.entry
          ? statusWord(cell.entry.status, i18n)
          : i18n._(cell.held ? CELL_STATUS.held : cell.sendNote ? CELL_STATUS.notSent : CELL_STATUS.sending);
