import { ph } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Vote } from '../../model/compare/votes';
import { saveBlob } from '../../lib/save-file';
import { blindLabel } from './board-model';
import { blindOrder } from './blind-order';
import { cellCostText, cellSeconds, cellStatus } from './cell-view';
import { sheetRecipe, sheetWithRecipe } from '../../model/recipes/sheet-recipe';
import { renderContactSheet } from './contact-sheet';
import type { BoardState } from './use-board';

// Export contact sheet: the board drawn as one PNG (contact-sheet.ts) and downloaded, or why it could not be;
// unless the board is blind, with what made each picture written into it (model/recipes/sheet-recipe.ts).

export function useSheetExport(state: BoardState, blind: boolean, votes: ReadonlyMap<string, Vote>) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const { board, columns } = state;

  const exportSheet = async () => {
    setError(null);
    try {
      // Blind: each row in its own order, columns named by place, no cost or time (they tell models
      // apart), the row's pick starred: the sheet can be judged by others without names.
      const drawn = await renderContactSheet({
        title: blind ? t`${ph({ name: board.name })} (blind)` : board.name,
        columns: blind
          ? columns.map((_, i) => ({ name: blindLabel(i), version: '' }))
          : columns.map((c) => ({ name: c.model.name, version: c.versionName })),
        rows: board.setup.rows.map((row) => ({
          prompt: row.prompt,
          cells: (blind ? blindOrder(board.id, row.id, columns) : columns).map((col) => {
            const cell = state.cells.find((c) => c.row.id === row.id && c.col.key === col.key)!;
            const output = cell.state === 'succeeded' ? cell.entry?.outputs[0] : undefined;
            const seconds = cellSeconds(cell);
            return {
              kind: col.model.type,
              pictureUrl: col.model.type === 'image' ? (output?.url ?? null) : (output?.thumbnailUrl ?? null),
              succeeded: cell.state === 'succeeded',
              status: cellStatus(cell),
              caption: blind
                ? ''
                : [
                    cellCostText(cell),
                    seconds !== null ? t({ message: `${seconds} s`, comment: 's: seconds' }) : null,
                  ]
                    .filter(Boolean)
                    .join(' · '),
              favourite: blind ? votes.get(row.id)?.winner === col.key : board.favourites[row.id] === col.key,
            };
          }),
        })),
      });
      const blob = blind
        ? drawn
        : await sheetWithRecipe(
            drawn,
            sheetRecipe(
              { name: board.name, category: board.setup.category },
              board.setup.rows.map((row) => ({
                prompt: row.prompt,
                cells: columns.map((col) => {
                  const cell = state.cells.find((c) => c.row.id === row.id && c.col.key === col.key);
                  return {
                    model: col.column.modelId,
                    modelVersion: col.column.versionId,
                    entry: cell?.state === 'succeeded' ? (cell.entry ?? null) : null,
                  };
                }),
              })),
            ),
          );
      // The file's name: the board's (without what a file name may not hold), its size in cells.
      const name =
        board.name.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() ||
        t({ message: 'board', comment: 'file name of a contact sheet, for a board without a name' });
      const size = `${columns.length}x${board.setup.rows.length}`;
      const file = blind
        ? t({ message: `${name} blind (${size})`, comment: "file name of a blind board's contact sheet" })
        : `${name} (${size})`;
      saveBlob(blob, `${file}.png`);
    } catch (e) {
      setError(e instanceof Error ? e.message : t`The contact sheet could not be made.`);
    }
  };

  return { exportSheet, error };
}
