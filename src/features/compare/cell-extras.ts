import { createContext, useContext, type ReactNode } from 'react';
import { outputKey } from '../../model/history/output-key';
import type { CellView } from './cell-view';

// The app's per-cell extras (a cell's Review and the team's Comments on it) and what they are about:
// features do not import each other, so the app composes them in. They come in once, at the top of the
// Compare view, which provides them here for each board row to read.

/** What a cell's extras are about: the board's cell and, once it has a result, that output. */
interface CellTarget {
  boardId: string;
  cellKey: string;
  /** `${taskId}#0`, the output the cell shows (model/history/output-key.ts). */
  outputKey?: string;
}

/** Per-cell extras the app composes in. */
export type RenderCellExtras = (target: CellTarget) => ReactNode;

/** The app's per-cell extras; none without a provider. */
export const CellExtrasContext = createContext<RenderCellExtras | undefined>(undefined);

export const useCellExtras = (): RenderCellExtras | undefined => useContext(CellExtrasContext);

export const cellTarget = (boardId: string, cell: CellView): CellTarget => ({
  boardId,
  cellKey: cell.key,
  outputKey:
    cell.state === 'succeeded' && cell.entry?.taskId && cell.entry.outputs.length > 0
      ? outputKey(cell.entry.taskId, 0)
      : undefined,
});
