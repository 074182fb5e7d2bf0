import type { TaskStatus } from '../../../contract/task';
import type { ParamValue } from '../../../contract/task';
import type { HistoryEntry } from './history-types';

// The gallery's filters (product-notes §3: by status, media type and model; search prompts), as pure functions
// over the store's list so they stay fast at 5,000 entries and are tested without a DOM.

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

const isFiltering = (f: HistoryFilter) =>
  f.status !== 'all' ||
  f.mediaType !== 'all' ||
  f.model !== 'all' ||
  f.query.trim() !== '' ||
  byMember(f.member);

/** Whether the entry was made by the member the "By" filter names (a task without `by` is this member's). */
function madeBy(entry: HistoryEntry, member: string | undefined): boolean {
  if (!byMember(member)) return true;
  return member === 'me' ? !entry.by : entry.by?.id === member;
}

/** The prompt param, when the task had one as text. */
export function promptOf(params: Record<string, ParamValue>): string | null {
  const prompt = params.prompt;
  return typeof prompt === 'string' && prompt.trim() ? prompt : null;
}

// Entries are replaced, never mutated, so a lowercase haystack can be cached per object.
const haystacks = new WeakMap<HistoryEntry, string>();
function haystackOf(entry: HistoryEntry): string {
  let text = haystacks.get(entry);
  if (text === undefined) {
    text = `${promptOf(entry.request.params) ?? ''}\n${entry.meta.title}`.toLowerCase();
    haystacks.set(entry, text);
  }
  return text;
}

/** Keeps the order (newest first). Every word of the query must appear in the prompt or the title. */
export function filterEntries(entries: HistoryEntry[], filter: HistoryFilter): HistoryEntry[] {
  if (!isFiltering(filter)) return entries;
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter(
    (e) =>
      (filter.status === 'all' || e.status === filter.status) &&
      (filter.mediaType === 'all' || e.meta.mediaType === filter.mediaType) &&
      (filter.model === 'all' || e.meta.title === filter.model) &&
      madeBy(e, filter.member) &&
      (words.length === 0 || words.every((w) => haystackOf(e).includes(w))),
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
