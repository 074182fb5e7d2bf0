import { Pin, PinOff, Trash2 } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState, useSyncExternalStore } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { SearchField } from '../../components/search-field';
import { formatCount } from '../../lib/format';
import type { PromptLibrary } from '../../model/library/prompt-library';

// "Prompt library" (product-notes §3): every prompt sent with this key, searchable, favourites pinned first.
// Loaded on demand, the first time a prompt field opens it.

const SHOWN_AT_MOST = 200;

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

export function PromptLibraryDialog({
  library,
  open,
  onOpenChange,
  onPick,
}: {
  library: PromptLibrary;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPick: (text: string) => void;
}) {
  const all = useSyncExternalStore(library.subscribe, library.list);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  // `all` changes whenever the library does, so the search follows pins and removals.
  const found = useMemo(() => (all ? library.search(deferred) : []), [all, library, deferred]);
  const countId = useId();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Prompt library"
      description="Every prompt sent with this key, kept on this device. Pinned ones come first."
      wide
    >
      <div className="flex flex-col gap-3">
        <SearchField
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label="Search the prompt library"
          aria-describedby={countId}
          placeholder="Search the prompt library"
        />
        <p id={countId} className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
          {all.length === 0
            ? 'No prompts yet: each prompt you send is kept here.'
            : `${formatCount(found.length)} of ${formatCount(all.length)} prompts`}
        </p>
        {found.length > 0 && (
          <ul aria-label="Prompts" className="flex flex-col gap-2">
            {found.slice(0, SHOWN_AT_MOST).map((record) => (
              <li
                key={record.text}
                className="flex flex-col gap-2 rounded-lg p-2 ring-1 ring-slate-200 sm:flex-row sm:items-start dark:ring-slate-800"
              >
                <p
                  dir="auto"
                  className="line-clamp-4 min-w-0 flex-1 text-sm wrap-anywhere whitespace-pre-wrap text-slate-800 dark:text-slate-200"
                >
                  {record.text}
                </p>
                <div className="flex shrink-0 items-center gap-1">
                  <span className="mr-1 text-xs text-slate-600 tabular-nums dark:text-slate-400">
                    {record.uses === 1 ? 'used once' : `used ${formatCount(record.uses)}×`}
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-pressed={record.pinned}
                    aria-label={`Pin: ${short(record.text)}`}
                    title={record.pinned ? 'Unpin' : 'Pin'}
                    onClick={() => void library.pin(record.text, !record.pinned)}
                  >
                    {record.pinned ? (
                      <PinOff className="size-4" aria-hidden="true" />
                    ) : (
                      <Pin className="size-4" aria-hidden="true" />
                    )}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Remove: ${short(record.text)}`}
                    title="Remove from the library"
                    onClick={() => void library.remove(record.text)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </Button>
                  <Button
                    size="sm"
                    variant="primary"
                    aria-label={`Use: ${short(record.text)}`}
                    onClick={() => {
                      onPick(record.text);
                      onOpenChange(false);
                    }}
                  >
                    Use
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {found.length > SHOWN_AT_MOST && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            The first {SHOWN_AT_MOST} are shown: search to find the others.
          </p>
        )}
      </div>
    </Dialog>
  );
}
