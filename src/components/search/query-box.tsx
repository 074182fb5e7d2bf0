import { useLingui } from '@lingui/react/macro';
import { Search, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { inputClass } from '../field';

// The History's and the Gallery's search box (docs/using.md "Search"): a text box that takes the search
// language (free words, `model:`, `seed:`, `rating>=4`...), the terms it understood as chips under it, each
// removable, and suggestions for the word being typed (a listbox: ArrowDown / ArrowUp to move, Enter or Tab
// to take one, Escape to close). What a term means, how it is parsed and what is suggested is the caller's
// (model/search): this component only shows them.

/** A term as a chip: what it shows, and a problem when the term could not be understood. */
export interface QueryChip {
  label: string;
  /** Why the term is ignored ("rating>=x": not a number): the chip is drawn as an error and says so. */
  problem?: string;
}

/** A suggestion for the word at the caret: `insert` replaces that word. */
export interface QuerySuggestion {
  insert: string;
  label: string;
  /** A second line: what the field is, how many tasks have the value. */
  detail?: string;
}

export function QueryBox({
  value,
  onChange,
  chips,
  onRemoveChip,
  suggest,
  label,
  placeholder,
  className,
  after,
}: {
  value: string;
  onChange: (next: string) => void;
  chips: readonly QueryChip[];
  onRemoveChip: (index: number) => void;
  /** The suggestions for the text with the caret at its end (the word being typed is its last). */
  suggest: (text: string) => readonly QuerySuggestion[];
  label: string;
  placeholder?: string;
  className?: string;
  /** Beside the box (the Gallery's "Save search"). */
  after?: ReactNode;
}) {
  const { t } = useLingui();
  const removeLabel = (label: string) => t`Remove ${label}`;
  const id = useId();
  const listId = `${id}-suggestions`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const suggestions = open ? suggest(value).slice(0, 8) : [];
  const shown = suggestions.length > 0;
  const choose = (s: QuerySuggestion) => {
    onChange(replaceLastWord(value, s.insert));
    setActive(0);
    // A field name ("model:") waits for its value: the list stays open with the values.
    setOpen(s.insert.endsWith(':'));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!open) {
        setOpen(true);
        setActive(0);
        e.preventDefault();
        return;
      }
      if (!shown) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + suggestions.length) % suggestions.length);
    } else if ((e.key === 'Enter' || e.key === 'Tab') && shown && suggestions[active]) {
      // Tab takes a suggestion only when the list is open; otherwise it moves on as ever.
      e.preventDefault();
      choose(suggestions[active]);
    } else if (e.key === 'Escape' && shown) {
      // The first Escape closes the list; the next one is the page's (the Gallery clears its selection).
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <div className="flex min-w-0 items-center gap-2">
        <div className="relative min-w-0 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 start-2.5 size-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <input
            type="search"
            role="combobox"
            aria-label={label}
            aria-autocomplete="list"
            aria-expanded={shown}
            aria-controls={listId}
            aria-activedescendant={shown ? `${listId}-${active}` : undefined}
            autoComplete="off"
            spellCheck={false}
            className={cn(inputClass, 'ps-8')}
            value={value}
            placeholder={placeholder}
            onChange={(e) => {
              onChange(e.target.value);
              setActive(0);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul
            id={listId}
            role="listbox"
            aria-label={t`Suggestions`}
            className={cn(
              'absolute inset-x-0 top-full z-30 mt-1 max-h-72 overflow-auto rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700',
              !shown && 'hidden',
            )}
          >
            {suggestions.map((s, i) => (
              <li
                key={s.insert}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={cn(
                  'cursor-pointer rounded px-2 py-1 text-sm',
                  i === active && 'bg-indigo-100 dark:bg-indigo-950',
                )}
                // Before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(s);
                }}
              >
                <span className="font-mono">{s.label}</span>
                {s.detail && (
                  <span className="ms-2 text-xs text-slate-600 dark:text-slate-400">{s.detail}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
        {after}
      </div>
      {chips.length > 0 && (
        <ul aria-label={t`Search terms`} className="flex flex-wrap gap-1.5">
          {chips.map((chip, i) => (
            <li
              // Chips are positions in the text: the same term twice is two chips.
              key={i}
              data-testid="search-chip"
              data-problem={chip.problem ? 'true' : undefined}
              title={chip.problem}
              className={cn(
                'inline-flex max-w-full items-center gap-1 rounded-full py-0.5 ps-2.5 pe-1 text-xs',
                chip.problem
                  ? 'bg-rose-50 text-rose-900 ring-1 ring-rose-300 dark:bg-rose-950 dark:text-rose-100 dark:ring-rose-800'
                  : 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
              )}
            >
              <span className="truncate">{chip.label}</span>
              {chip.problem && <span className="sr-only">{chip.problem}</span>}
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-700"
                aria-label={removeLabel(chip.label)}
                onClick={() => onRemoveChip(i)}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The text with its last word (the one being typed) replaced. */
function replaceLastWord(text: string, word: string): string {
  const start = lastWordStart(text);
  return text.slice(0, start) + word + (word.endsWith(':') ? '' : ' ');
}

/** Where the last word starts: after the last space outside quotes. */
export function lastWordStart(text: string): number {
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && /\s/.test(c!)) start = i + 1;
  }
  return start;
}
