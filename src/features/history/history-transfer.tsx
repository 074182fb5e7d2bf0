import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { FileDown, FileUp } from 'lucide-react';
import { useRef, useState } from 'react';
import { z } from 'zod/mini';
import { Button } from '../../components/button';
import { notify, notifyError } from '../../components/notices';
import type { HistoryStore, ImportResult } from '../../model/history/history-store';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { dayKey } from '../../lib/local-day';
import { saveBlob } from '../../lib/save-file';

// Export the history to a JSON file and import one back (product-notes §3). The file holds the tasks and the
// sections added to the store (stars and ratings, votes, presets...), never the key, nor the connection
// it was made with.

// A 50,000-task history with four outputs each is some 40-55 MB.
const MAX_IMPORT_BYTES = 200 * 1024 * 1024;

const exportFileName = (date: Date = new Date()) => `media-studio-history-${dayKey(date)}.json`;

/** @internal */
export function importMessage({
  added,
  updated,
  skipped,
  sections = {},
}: Pick<ImportResult, 'added' | 'updated' | 'skipped'> & Partial<ImportResult>) {
  const n = added + updated;
  const { kept: judgementsKept = 0, skipped: judgementsSkipped = 0 } = sections.judgements ?? {};
  // The counts as they are (no grouping), as this message has always shown them.
  if (judgementsKept === 0 && judgementsSkipped === 0)
    return t`Imported ${plural(n, { one: `${n} task`, other: `${n} tasks` })} (${skipped} skipped)`;
  return judgementsSkipped
    ? t`Imported ${plural(n, { one: `${n} task`, other: `${n} tasks` })} (${skipped} skipped), and ${plural(judgementsKept, { one: `${judgementsKept} star or rating`, other: `${judgementsKept} stars and ratings` })}; ${judgementsSkipped} skipped (for outputs not in this history)`
    : t`Imported ${plural(n, { one: `${n} task`, other: `${n} tasks` })} (${skipped} skipped), and ${plural(judgementsKept, { one: `${judgementsKept} star or rating`, other: `${judgementsKept} stars and ratings` })}`;
}

function importError(error: unknown): string {
  if (error instanceof SyntaxError) return t`Could not import: the file is not valid JSON.`;
  // The history file is parsed with zod/mini: its errors are core $ZodErrors, not classic ZodErrors.
  if (error instanceof z.core.$ZodError) {
    return t`Could not import: the file is not a Media Studio history export.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return t`Could not import: ${message}`;
}

export function HistoryTransfer({ store, canExport }: { store: HistoryStore; canExport: boolean }) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  // Tasks written of the file's, while an import runs (the file is read and parsed first: 0 of n).
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);

  const onExport = () => {
    // exportFile: the tasks and the per-key sections (stars and ratings, blind votes...).
    void store
      .exportFile()
      .then((json) => saveBlob(new Blob([json], { type: 'application/json' }), exportFileName()));
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (file.size > MAX_IMPORT_BYTES) throw new Error(t`the file is larger than 200 MB.`);
      setProgress({ done: 0, total: 0 });
      const result = await store.importFile(file, (done, total) => setProgress({ done, total }));
      notify(importMessage(result));
    } catch (error) {
      notifyError(importError(error));
    } finally {
      setProgress(null);
      // The same file can be chosen again.
      if (input.current) input.current.value = '';
    }
  };

  // While the bar shows, the buttons keep to their icons: the heading and the count keep their room.
  const label = progress ? 'sr-only' : 'sr-only @[19rem]:not-sr-only';
  return (
    <div className="flex shrink-0 items-center gap-1">
      {progress && <ImportProgress {...progress} />}
      <Button
        size="sm"
        variant="ghost"
        onClick={onExport}
        disabled={!canExport}
        title={t`Export history to a JSON file`}
      >
        <FileDown className="size-4" aria-hidden="true" />
        <span className={label}>
          <Trans>Export</Trans>
        </span>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => input.current?.click()}
        disabled={progress !== null}
        title={t`Import a history JSON file`}
      >
        <FileUp className="size-4" aria-hidden="true" />
        <span className={label}>
          <Trans>Import</Trans>
        </span>
      </Button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        aria-label={t`Import history file`}
        tabIndex={-1}
        className="sr-only"
        onChange={(e) => void onFile(e.currentTarget.files?.[0])}
      />
    </div>
  );
}

/** The import's progress: tasks written of the file's (indeterminate while the file is read). */
function ImportProgress({ done, total }: { done: number; total: number }) {
  const { t } = useLingui();
  const percent = total > 0 ? Math.round((done / total) * 100) : null;
  const doneTasks = formatCount(done);
  const totalTasks = formatCount(total);
  return (
    <div
      role="progressbar"
      aria-label={t`Importing history`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={total > 0 ? t`${doneTasks} of ${totalTasks} tasks` : t`Reading the file`}
      title={total > 0 ? t`Importing: ${doneTasks} of ${totalTasks} tasks` : t`Reading the file`}
      className="mx-1 h-1.5 w-16 overflow-hidden rounded-full bg-slate-200 @[19rem]:w-24 dark:bg-slate-700"
    >
      <div
        className={cn('h-full rounded-full bg-indigo-500', percent === null && 'w-1/3 animate-pulse')}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}
