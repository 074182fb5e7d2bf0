import type { TaskStatus } from '../../../contract/task';
import type { HistoryEntry } from '../history/history-types';
import type { Judgements } from '../history/judgements';
import {
  anyOutputMatches,
  compileQuery,
  isEmptyQuery,
  matchEntry,
  byTask,
  outputCandidates,
  type OutputTags,
} from './query';
import type { SearchIndex } from './search-index';

export { promptOf } from './entry-facets';

// The gallery's filters (product-notes §3: by status, media type and model; search prompts), as pure functions
// over the store's list so they stay fast at 5,000 entries and are tested without a DOM. The search box's
// text is the query language of model/search/query.ts, answered through its index when one is given.

export type MediaType = HistoryEntry['meta']['mediaType'];

export interface HistoryFilter {
  status: TaskStatus | 'all';
  mediaType: MediaType | 'all';
  /** A meta.title, or 'all'. */
  model: string;
  query: string;
  /**
   * "By" (team space): 'all' (everyone), 'me' (this member's tasks, from any of their devices), or a
   * member's id. Optional: a filter from before the team space reads as everyone.
   */
  member?: string;
}

export const NO_FILTER: HistoryFilter = {
  status: 'all',
  mediaType: 'all',
  model: 'all',
  query: '',
  member: 'all',
};

const byMember = (member: string | undefined) => member !== undefined && member !== 'all';

/** Whether a facet other than the query filters. */
const isFiltering = (f: HistoryFilter) =>
  f.status !== 'all' || f.mediaType !== 'all' || f.model !== 'all' || byMember(f.member);

/** Whether the entry was made by the member the "By" filter names (a task without `by` is this member's). */
function madeBy(entry: HistoryEntry, member: string | undefined): boolean {
  if (!byMember(member)) return true;
  return member === 'me' ? !entry.by : entry.by?.id === member;
}

/** What the search may use besides the entries: an index kept in sync, and what rating and tag terms read. */
export interface SearchOptions {
  /**
   * An index (search-index.ts) its owner keeps in sync with the entries (sync): a keystroke looks up its
   * postings. Entries it does not hold as they are (not ready, not synced yet) are tested directly.
   */
  index?: SearchIndex;
  /** For rating terms: none given, no output is rated. */
  judgements?: Judgements;
  /** For tag terms: each output's tags by output key. */
  tags?: OutputTags;
}

const NO_JUDGEMENTS: Judgements = new Map();

/**
 * Keeps the order (newest first). The query is the search language of query.ts: every free word must
 * appear in the prompt, the negative prompt or the title; fields (model:, seed:, steps>=30...) compare;
 * rating and tag terms keep a task when one of its outputs passes them.
 */
export function filterEntries(
  entries: HistoryEntry[],
  filter: HistoryFilter,
  options: SearchOptions = {},
): HistoryEntry[] {
  const query = compileQuery(filter.query);
  if (!isFiltering(filter) && isEmptyQuery(query)) return entries;
  const matches = options.index
    ? options.index.matcher(query, entries)
    : (e: HistoryEntry) => matchEntry(query, e);
  const judgements = options.judgements ?? NO_JUDGEMENTS;
  const byOutput = query.outputTerms.length > 0;
  // The tasks with an output that may pass the rating and tag terms, by place when the index knows them.
  const candidates = byOutput ? byTask(outputCandidates(query, judgements, options.tags)) : null;
  const places = candidates && options.index ? options.index.placesOf(candidates.keys(), entries) : null;
  return entries.filter(
    (e, i) =>
      matches(e, i) &&
      (filter.status === 'all' || e.status === filter.status) &&
      (filter.mediaType === 'all' || e.meta.mediaType === filter.mediaType) &&
      (filter.model === 'all' || e.meta.title === filter.model) &&
      madeBy(e, filter.member) &&
      (!byOutput ||
        ((!places || places[i] === 1) && anyOutputMatches(query, e, judgements, options.tags, candidates))),
  );
}

/** The model filter's choices: each distinct meta.title with its count, by name. */
export function modelOptions(entries: HistoryEntry[]): Array<{ title: string; count: number }> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.meta.title, (counts.get(e.meta.title) ?? 0) + 1);
  return [...counts]
    .map(([title, count]) => ({ title, count }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

/** The "By" filter's other members: each member whose tasks the list holds, with its count, by name. */
export function memberOptions(entries: HistoryEntry[]): Array<{ id: string; name: string; count: number }> {
  const members = new Map<string, { id: string; name: string; count: number }>();
  for (const e of entries) {
    if (!e.by) continue;
    const m = members.get(e.by.id);
    if (m) m.count++;
    else members.set(e.by.id, { id: e.by.id, name: e.by.name, count: 1 });
  }
  return [...members.values()].sort((a, b) => a.name.localeCompare(b.name));
}
