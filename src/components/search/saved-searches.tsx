import { Trans, useLingui } from '@lingui/react/macro';
import { Bookmark, BookmarkPlus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import { Button } from '../button';
import { inputClass } from '../field';
import { MAX_SEARCH_NAME } from '../../model/history/saved-searches';
import { useSearchStores, type SavedSearchItem } from './search-stores';
import { useOptionalStore } from '../../lib/use-optional-store';

// "Save search" and "Saved searches" (docs/using.md "Search"): a search kept under a name is a smart
// collection: opening it runs it again, so it holds what matches now (its count beside it stays current as
// tasks finish). In a team everyone's saved searches show, with who saved them; only its author deletes one.

const NONE: readonly SavedSearchItem[] = [];

export function SavedSearches({
  query,
  onApply,
  countOf,
}: {
  /** The search box's text: what "Save search" keeps. */
  query: string;
  onApply: (query: string) => void;
  /** How many outputs (or tasks) a saved search matches now. */
  countOf: (query: string) => number;
}) {
  const stores = useSearchStores();
  const { t } = useLingui();
  const id = useId();
  const list = useOptionalStore(stores?.searches, NONE);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [open, setOpen] = useState(false);
  const trimmed = query.trim();
  // Nothing to save and nothing saved: no row at all.
  if (!stores || (!trimmed && list.length === 0)) return null;
  const save = (e: FormEvent) => {
    e.preventDefault();
    const title = (name.trim() || trimmed).slice(0, MAX_SEARCH_NAME);
    stores.searches.save(title, trimmed);
    setNaming(false);
    setName('');
    setOpen(true);
  };
  return (
    <div className="mt-1.5 flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        {naming ? (
          <form
            className="flex flex-wrap items-center gap-1.5"
            onSubmit={save}
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              e.stopPropagation();
              setNaming(false);
            }}
          >
            <label htmlFor={`${id}-name`} className="text-sm">
              <Trans>Name of the search</Trans>
            </label>
            <input
              id={`${id}-name`}
              autoFocus
              className={cn(inputClass, 'h-8 w-48 py-1 text-sm')}
              value={name}
              maxLength={MAX_SEARCH_NAME}
              placeholder={trimmed}
              onChange={(e) => setName(e.target.value)}
            />
            <Button size="sm" type="submit" variant="primary">
              <Trans>Save</Trans>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setNaming(false)}>
              <Trans>Cancel</Trans>
            </Button>
          </form>
        ) : (
          <Button size="sm" disabled={!trimmed} onClick={() => setNaming(true)}>
            <BookmarkPlus className="size-4" aria-hidden="true" />
            <Trans>Save search</Trans>
          </Button>
        )}
        {list.length > 0 && (
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={open}
            aria-controls={`${id}-list`}
            onClick={() => setOpen((o) => !o)}
          >
            <Bookmark className="size-4" aria-hidden="true" />
            <Trans>Saved searches</Trans>
            <span className="tabular-nums text-slate-600 dark:text-slate-400">
              {formatCount(list.length)}
            </span>
          </Button>
        )}
      </div>
      {open && list.length > 0 && (
        <ul id={`${id}-list`} aria-label={t`Saved searches`} className="flex flex-wrap gap-1.5">
          {list.map((s) => {
            const count = formatCount(countOf(s.query));
            const name = s.name;
            const by = s.by && displayText(s.by);
            return (
              <li
                key={s.id}
                data-testid="saved-search"
                className={cn(
                  'inline-flex items-center rounded-lg ring-1 ring-slate-200 dark:ring-slate-700',
                  s.query === trimmed &&
                    'bg-indigo-50 ring-indigo-300 dark:bg-indigo-950 dark:ring-indigo-700',
                )}
              >
                <button
                  type="button"
                  className="flex items-baseline gap-1.5 rounded-lg px-2.5 py-1 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
                  aria-pressed={s.query === trimmed}
                  title={s.query}
                  onClick={() => onApply(s.query)}
                >
                  <span>{displayText(s.name)}</span>
                  <span
                    className="text-xs tabular-nums text-slate-600 dark:text-slate-400"
                    data-testid="saved-count"
                  >
                    {count}
                  </span>
                  {by && (
                    <span className="text-xs text-slate-600 dark:text-slate-400">
                      <Trans>by {by}</Trans>
                    </span>
                  )}
                </button>
                {s.mine && (
                  <button
                    type="button"
                    className="rounded-e-lg p-1.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
                    aria-label={t`Delete saved search ${name}`}
                    onClick={() => stores.searches.remove(s.id)}
                  >
                    <Trash2 className="size-3.5" aria-hidden="true" />
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
