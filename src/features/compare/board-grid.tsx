import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { formatCredits } from '../../lib/format';
import { blindLabel, identifyingNames } from './board-model';
import { BoardRow, type BlindProps } from './board-row';
import { GridControls } from './grid-controls';
import type { BoardState } from './use-board';
import { useSyncedScroll } from './use-synced-scroll';

// The board itself (product-notes §3 "Compare"): a table, one column per model and one row per prompt
// (board-row.tsx). Images sit in same-size boxes whose zoom and scroll move together; videos and audio
// play together (grid-controls.tsx).

export function BoardGrid({ state, blind, votes, onVote }: { state: BoardState } & BlindProps) {
  const { t } = useLingui();
  const { board, columns, cells, totals } = state;
  const names = blind ? identifyingNames(columns) : [];
  const [zoom, setZoom] = useState(1);
  const grid = useRef<HTMLDivElement>(null);
  const onScroll = useSyncedScroll(grid);

  const media = () => [...(grid.current?.querySelectorAll<HTMLMediaElement>('video, audio') ?? [])];
  const hasImages = cells.some((c) => c.state === 'succeeded' && c.col.model.type === 'image');
  const hasPlayable = cells.some((c) => c.state === 'succeeded' && c.col.model.type !== 'image');

  if (columns.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      <GridControls
        zoom={zoom}
        onZoom={setZoom}
        hasImages={hasImages}
        hasPlayable={hasPlayable}
        media={media}
      />
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
            {board.setup.rows.map((row, r) => (
              <BoardRow
                key={row.id}
                state={state}
                row={row}
                index={r}
                blind={blind}
                blindNames={names}
                votes={votes}
                onVote={onVote}
                zoom={zoom}
                onScroll={onScroll}
              />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
