import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { Award, Play, RotateCcw, Star, StickyNote, Trash2 } from 'lucide-react';
import { Button } from '../../components/button';
import { cn } from '../../lib/cn';
import { formatSeconds } from '../../lib/format';
import { scrubNames } from './board-model';
import { CellResult } from './cell-result';
import { cellCostText, cellSeconds, cellStatus, type CellView } from './cell-view';

// One cell of the board: its result, its facts (status, cost, time; on a blind board the status only), and
// what can be done with it: Best (blind) or Favourite, a note, Rerun after a failure (or, while its task is
// held in the queue, what the queue offers: Resume queue, Remove from queue), and the app's extras.

export function CellCard({
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
  onResumeQueue,
  onRemoveHeld,
  scoring,
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
  /** Held in a paused queue: resumes the queue (every held task goes on, this one in its turn). */
  onResumeQueue: () => void;
  /** Held: removes its task from the queue (never sent, nothing charged), so that it can run again. */
  onRemoveHeld: () => void;
  /** This member's scores of the cell on the board's criteria (rendered as given, below the actions). */
  scoring?: ReactNode;
  /** The app's per-cell extras (rendered as given, below the note). */
  extras?: ReactNode;
}) {
  const { t } = useLingui();
  const [noteOpen, setNoteOpen] = useState(note !== '');
  const cost = cellCostText(cell);
  const seconds = cellSeconds(cell);
  const blind = blindNames !== null;
  const text = (s: string) => (blind ? scrubNames(s, blindNames) : s);
  const status = text(cellStatus(cell));
  return (
    <div role="group" aria-label={label} className="flex flex-col gap-1.5" data-cell-state={cell.state}>
      <CellResult
        cell={cell}
        label={label}
        status={status}
        zoom={zoom}
        onScroll={onScroll}
        blindNames={blindNames}
        scrub={text}
      />
      <div className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600 tabular-nums dark:text-slate-400">
        <span data-testid="cell-status" className="font-medium text-slate-800 dark:text-slate-200">
          {status}
        </span>
        {/* Blind: cost and time would tell the models apart, so they wait for Reveal. */}
        {cost && !blind && <span data-testid="cell-cost">{cost}</span>}
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
        {cell.held?.queuePaused && (
          <Button size="sm" onClick={onResumeQueue}>
            <Play className="size-3.5" aria-hidden="true" />
            <Trans>Resume queue</Trans>
          </Button>
        )}
        {cell.held && (
          <Button variant="ghost" size="sm" onClick={onRemoveHeld}>
            <Trash2 className="size-3.5" aria-hidden="true" />
            <Trans>Remove from queue</Trans>
          </Button>
        )}
        {cell.state === 'failed' && !cell.problem && !cell.held && (
          <Button size="sm" onClick={onRerun}>
            <RotateCcw className="size-3.5" aria-hidden="true" />
            <Trans>Rerun</Trans>
          </Button>
        )}
      </div>
      {scoring}
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
