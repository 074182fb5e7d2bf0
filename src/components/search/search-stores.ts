import { createContext, useContext, useEffect } from 'react';
import type { HistoryEntry } from '../../model/history/history-types';
import type { Judgements } from '../../model/history/judgements';
import type { SearchIndex } from '../../model/search/search-index';
import { useOptionalStore } from '../../lib/use-optional-store';

// What the search box, "Add tag" and "Saved searches" need of the stores (model/history/tags.ts,
// saved-searches.ts and, in a team, their team halves), as the app composes them: one context instead of
// another prop through every screen. Without a provider none of these controls shows.

type Subscribe = (listener: () => void) => () => void;

/** Tags on outputs: this member's, and everyone's in a team. */
export interface OutputTags {
  subscribe: Subscribe;
  /** Every output's tags (this member's and, in a team, everyone's), by output key. */
  snapshot: () => ReadonlyMap<string, readonly string[]>;
  /** The tags this member put on an output: the ones they can take off. */
  mine: (outputKey: string) => readonly string[];
  add: (outputKeys: readonly string[], tag: string) => void;
  remove: (outputKeys: readonly string[], tag: string) => void;
}

/** One saved search, as "Saved searches" lists it. */
export interface SavedSearchItem {
  id: string;
  name: string;
  query: string;
  /** Who saved it, in a team (untrusted text); absent for this member's own. */
  by?: string;
  /** Saved by this member: they may delete it. */
  mine: boolean;
}

interface SavedSearchList {
  subscribe: Subscribe;
  snapshot: () => readonly SavedSearchItem[];
  save: (name: string, query: string) => void;
  remove: (id: string) => void;
}

export interface SearchStores {
  tags: OutputTags;
  searches: SavedSearchList;
  /** The history's search index (model/search/search-index.ts), one per connection. */
  index: SearchIndex;
  /** Stars and ratings of outputs, for `rating>=4` in the History (the Gallery reads its own). */
  ratings: { subscribe: Subscribe; snapshot: () => Judgements } | null;
}

export const SearchStoresContext = createContext<SearchStores | null>(null);

export const useSearchStores = (): SearchStores | null => useContext(SearchStoresContext);

/**
 * The search index, kept up to date with the list a view shows: built in the background the first time
 * (matching scans until then), then brought up to date with each new list (only what changed is filed).
 */
export function useSearchIndex(entries: readonly HistoryEntry[]): SearchIndex | undefined {
  const index = useSearchStores()?.index;
  useEffect(() => {
    if (!index) return;
    if (index.ready) index.sync(entries);
    // Aborted or failed, the search goes on scanning: nothing to tell the user.
    else index.buildInBackground(entries).catch(() => undefined);
  }, [index, entries]);
  return index;
}

const NO_TAGS: ReadonlyMap<string, readonly string[]> = new Map();

/** Every output's tags (this member's and the team's), by output key; none without the stores. */
export function useOutputTags(): ReadonlyMap<string, readonly string[]> {
  const stores = useSearchStores();
  return useOptionalStore(stores?.tags, NO_TAGS);
}
