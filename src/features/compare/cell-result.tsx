import { useLingui } from '@lingui/react/macro';
import { cn } from '../../lib/cn';
import type { CellView } from './cell-view';
import { useBlindSafeUrl } from './use-blind-safe-url';

// What a cell shows in its box: the result (an image in a zoom box whose scroll the grid keeps in step, a
// video, or audio), or, until there is one, its status and why.

export function CellResult({
  cell,
  label,
  status,
  zoom,
  onScroll,
  blindNames,
  scrub,
}: {
  cell: CellView;
  /** The cell's accessible name (its model or blind place, and its prompt). */
  label: string;
  status: string;
  zoom: number;
  onScroll: (box: HTMLElement) => void;
  /** Blind: the names nothing shown may contain; null when the board is not blind. */
  blindNames: readonly string[] | null;
  /** Text shown as it may be shown (on a blind board, without the models' names). */
  scrub: (text: string) => string;
}) {
  const { t } = useLingui();
  const output = cell.state === 'succeeded' ? cell.entry?.outputs[0] : undefined;
  const type = cell.col.model.type;
  // An output URL that names its model (some services put it in the path) is shown from a copy.
  const outputUrl = useBlindSafeUrl(output?.url, blindNames);
  const posterUrl = useBlindSafeUrl(output?.thumbnailUrl, blindNames);

  if (output && type === 'image') {
    return (
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
  }
  if (output && type === 'video') {
    return (
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
  }
  if (output) {
    return (
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
  }
  return (
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
      {cell.entry?.error && <span>{scrub(cell.entry.error.message)}</span>}
      {cell.sendNote && <span>{scrub(cell.sendNote)}</span>}
      {cell.quoteError && !cell.problem && <span>{scrub(cell.quoteError)}</span>}
    </div>
  );
}
