import { FileDown, FileUp } from 'lucide-react';
import { useRef } from 'react';
import { z } from 'zod/mini';
import { Button } from '../../components/button';
import type { HistoryStore, ImportResult } from '../../model/history/history-store';
import { localDate, saveBlob } from '../../lib/save-file';

// Export the history to a JSON file and import one back (PRODUCT 3). The file holds the tasks and the
// sections added to the store (stars and ratings, votes, presets...), never the key, nor the connection
// it was made with.

export type TransferNotice = { tone: 'info' | 'error'; text: string };

const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

export const exportFileName = (date: Date = new Date()) => `media-studio-history-${localDate(date)}.json`;

export function importMessage({
  added,
  updated,
  skipped,
  sections = {},
}: Pick<ImportResult, 'added' | 'updated' | 'skipped'> & Partial<ImportResult>) {
  const n = added + updated;
  const { kept: judgementsKept = 0, skipped: judgementsSkipped = 0 } = sections.judgements ?? {};
  const tasks = `Imported ${n} ${n === 1 ? 'task' : 'tasks'} (${skipped} skipped)`;
  if (judgementsKept === 0 && judgementsSkipped === 0) return tasks;
  const kept = `${judgementsKept} ${judgementsKept === 1 ? 'star or rating' : 'stars and ratings'}`;
  return judgementsSkipped
    ? `${tasks}, and ${kept}; ${judgementsSkipped} skipped (for outputs not in this history)`
    : `${tasks}, and ${kept}`;
}

function importError(error: unknown): string {
  if (error instanceof SyntaxError) return 'Could not import: the file is not valid JSON.';
  // The history file is parsed with zod/mini: its errors are core $ZodErrors, not classic ZodErrors.
  if (error instanceof z.core.$ZodError) {
    return 'Could not import: the file is not a Media Studio history export.';
  }
  return `Could not import: ${error instanceof Error ? error.message : String(error)}`;
}

export function HistoryTransfer({
  store,
  canExport,
  onNotice,
}: {
  store: HistoryStore;
  canExport: boolean;
  onNotice: (notice: TransferNotice | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);

  const onExport = () => {
    // exportFile: the tasks and the per-key sections (stars and ratings, blind votes...).
    void store
      .exportFile()
      .then((json) => saveBlob(new Blob([json], { type: 'application/json' }), exportFileName()));
    onNotice(null);
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (file.size > MAX_IMPORT_BYTES) throw new Error('the file is larger than 50 MB.');
      const result = await store.importJson(await file.text());
      onNotice({ tone: 'info', text: importMessage(result) });
    } catch (error) {
      onNotice({ tone: 'error', text: importError(error) });
    } finally {
      // The same file can be chosen again.
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="flex shrink-0 gap-1">
      <Button
        size="sm"
        variant="ghost"
        onClick={onExport}
        disabled={!canExport}
        title="Export history to a JSON file"
      >
        <FileDown className="size-4" aria-hidden="true" />
        <span className="sr-only @[19rem]:not-sr-only">Export</span>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => input.current?.click()}
        title="Import a history JSON file"
      >
        <FileUp className="size-4" aria-hidden="true" />
        <span className="sr-only @[19rem]:not-sr-only">Import</span>
      </Button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        aria-label="Import history file"
        tabIndex={-1}
        className="sr-only"
        onChange={(e) => void onFile(e.currentTarget.files?.[0])}
      />
    </div>
  );
}
