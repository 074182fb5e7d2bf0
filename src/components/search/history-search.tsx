import { useLingui } from '@lingui/react/macro';
import { useCallback, useMemo, useRef } from 'react';
import type { HistoryEntry } from '../../model/history/history-types';
import { countTags } from '../../model/history/tags';
import { parseQuery, removeTerm, SEARCH_FIELDS, type QueryProblem } from '../../model/search/query';
import { QueryBox, type QueryChip } from './query-box';
import { SavedSearches } from './saved-searches';
import { useOutputTags, useSearchStores } from './search-stores';
import { suggestionsFor, type FieldHint, type ValueSources } from './suggestions';

// The search box of the History and the Gallery (docs/using.md "Search"): the search language with its
// chips and suggestions (the history's models, categories, members, params and the tags in use), and
// "Save search" / "Saved searches" under it when the stores are there.

const FIELD_HINTS: readonly FieldHint[] = SEARCH_FIELDS.map((f) => ({ id: f.id, hint: f.example }));

/** What the search's values can be, from the history (computed when a suggestion is first asked for). */
function valueSources(
  entries: readonly HistoryEntry[],
  tags: ReadonlyMap<string, readonly string[]>,
): ValueSources {
  const models = new Map<string, number>();
  const versions = new Set<string>();
  const categories = new Set<string>();
  const members = new Set<string>(['me']);
  const params = new Map<string, Set<string>>();
  for (const e of entries) {
    models.set(e.meta.title, (models.get(e.meta.title) ?? 0) + 1);
    if (e.meta.versionId) versions.add(e.meta.versionId);
    if (e.meta.category) categories.add(e.meta.category);
    if (e.by) members.add(e.by.name);
    for (const [id, value] of Object.entries(e.request.params)) {
      // Params with few values are worth suggesting (a style, a ratio); prompts and seeds are not.
      if (id === 'prompt' || typeof value === 'object') continue;
      let set = params.get(id);
      if (!set) params.set(id, (set = new Set()));
      if (set.size < 12) set.add(String(value));
    }
  }
  const list = (values: Iterable<string>) => [...values].sort().map((value) => ({ value }));
  const sources: Record<string, Array<{ value: string; detail?: string }>> = {
    model: [...models]
      .sort((a, b) => b[1] - a[1])
      .map(([value, count]) => ({ value, detail: String(count) })),
    version: list(versions),
    category: list(categories),
    by: list(members),
    tag: countTags(tags).map(({ tag, count }) => ({ value: tag, detail: String(count) })),
  };
  for (const f of SEARCH_FIELDS) if (f.choices) sources[f.id] = f.choices.map((value) => ({ value }));
  for (const [id, values] of params) if (!(id in sources)) sources[id] = list(values);
  return sources;
}

export function HistorySearch({
  value,
  onChange,
  entries,
  countOf,
  className,
}: {
  value: string;
  onChange: (query: string) => void;
  entries: readonly HistoryEntry[];
  /** How many outputs (the Gallery) or tasks (the History) a saved search matches now. */
  countOf: (query: string) => number;
  className?: string;
}) {
  const { t } = useLingui();
  const stores = useSearchStores();
  const tags = useOutputTags();
  const problemText = useCallback(
    (problem: QueryProblem): string => {
      switch (problem) {
        case 'empty-value':
          return t`No value: this term is left out.`;
        case 'not-a-number':
          return t`Needs a number: this term is left out.`;
        case 'bad-date':
          return t`Not a date (YYYY-MM-DD or YYYY-MM): this term is left out.`;
        case 'bad-operator':
          return t`This field does not compare that way: this term is left out.`;
        case 'unknown-value':
          return t`Not one of this field's values: this term is left out.`;
      }
    },
    [t],
  );
  const terms = useMemo(() => parseQuery(value), [value]);
  const chips = useMemo<QueryChip[]>(
    () => terms.map((term) => ({ label: term.raw, problem: term.problem && problemText(term.problem) })),
    [terms, problemText],
  );
  // The values are read from the history once per change of it, when the box first asks.
  const sources = useRef<{
    entries: readonly HistoryEntry[];
    tags: typeof tags;
    values: ValueSources;
  } | null>(null);
  const suggest = useCallback(
    (text: string) => {
      if (sources.current?.entries !== entries || sources.current.tags !== tags)
        sources.current = { entries, tags, values: valueSources(entries, tags) };
      return suggestionsFor(text, FIELD_HINTS, sources.current.values);
    },
    [entries, tags],
  );
  return (
    <div className={className}>
      <QueryBox
        label={t`Search prompts`}
        placeholder={t`Search prompts, or model:, seed:, tag:…`}
        value={value}
        onChange={onChange}
        chips={chips}
        onRemoveChip={(i) => onChange(removeTerm(value, i))}
        suggest={suggest}
      />
      {stores && <SavedSearches query={value} onApply={onChange} countOf={countOf} />}
    </div>
  );
}
