import { useLingui } from '@lingui/react/macro';
import { QueryClientContext } from '@tanstack/react-query';
import { useCallback, useContext, useMemo, useRef } from 'react';
import { cachedCatalogNames, type CatalogNames } from '../../api/queries/catalog-queries';
import type { HistoryEntry } from '../../model/history/history-types';
import { parseQuery, removeTerm, SEARCH_FIELDS, type QueryProblem } from '../../model/search/query';
import { QueryBox, type QueryChip } from './query-box';
import { SavedSearches } from './saved-searches';
import { useOutputTags, useSearchStores } from './search-stores';
import { suggestionsFor, valueSources, withCatalog, type FieldHint, type ValueSources } from './suggestions';

// The search box of the History and the Gallery (docs/using.md "Search"): the search language with its
// chips and suggestions (the history's models, categories, members, params and the tags in use, then the
// catalog's models, versions and categories the history lacks), and
// "Save search" / "Saved searches" under it when the stores are there.

const FIELD_HINTS: readonly FieldHint[] = SEARCH_FIELDS.map((f) => ({ id: f.id, hint: f.example }));

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
  // The values: from the index once it is built (its facets' keys and counts), else read from the list;
  // made again when what they come from changed, when the box first asks.
  const index = stores?.index;
  const queryClient = useContext(QueryClientContext);
  const sources = useRef<{
    index: typeof index;
    from: unknown;
    tags: typeof tags;
    values: ValueSources;
  } | null>(null);
  const withNames = useRef<{ values: ValueSources; names: CatalogNames; both: ValueSources } | null>(null);
  const suggest = useCallback(
    (text: string) => {
      const from = index?.ready ? index.version : entries;
      let made = sources.current;
      if (!made || made.index !== index || made.from !== from || made.tags !== tags)
        sources.current = made = { index, from, tags, values: valueSources(entries, tags, index) };
      // The catalog as read so far (a category browsed since is offered at once), merged again only when
      // the history's values or the catalog answers changed, not per keystroke.
      let values = made.values;
      if (queryClient) {
        const names = cachedCatalogNames(queryClient);
        const kept = withNames.current;
        if (!kept || kept.values !== made.values || kept.names !== names)
          withNames.current = { values: made.values, names, both: withCatalog(made.values, names) };
        values = withNames.current!.both;
      }
      return suggestionsFor(text, FIELD_HINTS, values);
    },
    [entries, tags, index, queryClient],
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
