import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { isTerminal, TASK_STATUSES, type TaskStatus } from '../../../contract/task';
import type { HiddenIds } from '../history/hidden-tasks';
import type { HistoryEntry } from '../history/history-types';
import type { Judgement, Judgements } from '../history/judgements';
import { REVIEW_STATES, type ReviewState } from '../history/reviews';
import type { TeamPicks } from '../team/team-judgements';
import { dayKey, dayStartOfKey, nextDayStart } from '../../lib/local-day';
import { dayOf } from '../search/entry-facets';
import type { GalleryItem } from './gallery-item';
import { filterEntries, type HistoryFilter, type MediaType } from '../search/history-filter';
import {
  compileQuery,
  matchEntry,
  outputMatches,
  outputPasses,
  type CompiledQuery,
  type OutputTags,
  type OutputTerm,
} from '../search/query';
import { indexOfKey, outputKey, taskIdOfKey } from '../history/output-key';
import type { SearchIndex } from '../search/search-index';
import { oncePerKey } from '../../lib/once-per-key';

// The gallery's filters and sort (product-notes §3 "Gallery and viewer"): the History column's filters (status,
// media type, model, prompt search: the same filterEntries) plus category, starred, rating and a date
// range, and a sort. They live in the URL, so a filtered gallery is bookmarked and reloaded; these are
// the pure parts (no DOM, no React), encode and decode included.

export const SORTS = ['newest', 'oldest', 'rating', 'credits', 'duration'] as const;
export type GallerySort = (typeof SORTS)[number];
export const SORT_LABELS: Record<GallerySort, MessageDescriptor> = {
  newest: msg`Newest first`,
  oldest: msg`Oldest first`,
  rating: msg`Best rated`,
  credits: msg`Most credits`,
  duration: msg`Longest run`,
};

export interface GalleryFilter extends HistoryFilter {
  /** "image/default", or 'all'. */
  category: string;
  starred: boolean;
  /** Outputs rated at least this (1-5), or 0 for any. */
  minRating: number;
  /** Local days, YYYY-MM-DD, inclusive; '' for open. */
  from: string;
  to: string;
  sort: GallerySort;
  /** Hidden tasks shown too (marked as hidden). */
  showHidden: boolean;
  /** Only outputs some member of the team starred ("Team picks"); ignored while the team space is off. */
  teamPicks: boolean;
  /** Outputs whose latest review is this state, or 'none' reviewed ("Review"); 'all' for any. */
  review: ReviewState | 'none' | 'all';
}

export const NO_GALLERY_FILTER: GalleryFilter = {
  status: 'all',
  mediaType: 'all',
  model: 'all',
  query: '',
  member: 'all',
  category: 'all',
  starred: false,
  minRating: 0,
  from: '',
  to: '',
  sort: 'newest',
  showHidden: false,
  teamPicks: false,
  review: 'all',
};

const MEDIA: readonly MediaType[] = ['image', 'video', 'audio'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** URL parameter names; none of them is used by the rest of the studio's URL (model, tool, compare...). */
const P = {
  query: 'q',
  status: 'status',
  mediaType: 'media',
  model: 'by',
  category: 'cat',
  starred: 'starred',
  minRating: 'rating',
  from: 'from',
  to: 'to',
  sort: 'sort',
  showHidden: 'hidden',
  member: 'member',
  teamPicks: 'picks',
  review: 'review',
} as const;

/** The filter of a URL's search; anything unknown or malformed falls back to "no filter" for that part. */
export function decodeFilter(search: string): GalleryFilter {
  const params = new URLSearchParams(search);
  const get = (k: keyof typeof P) => params.get(P[k]) ?? '';
  const status = get('status');
  const media = get('mediaType');
  const sort = get('sort');
  const rating = Number(get('minRating'));
  const review = get('review');
  return {
    query: get('query'),
    status: (TASK_STATUSES as readonly string[]).includes(status) ? (status as TaskStatus) : 'all',
    mediaType: (MEDIA as readonly string[]).includes(media) ? (media as MediaType) : 'all',
    model: get('model') || 'all',
    category: /^[a-z]+\/[a-z-]+$/.test(get('category')) ? get('category') : 'all',
    starred: get('starred') === '1',
    minRating: Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : 0,
    from: DAY.test(get('from')) ? get('from') : '',
    to: DAY.test(get('to')) ? get('to') : '',
    sort: (SORTS as readonly string[]).includes(sort) ? (sort as GallerySort) : 'newest',
    showHidden: get('showHidden') === '1',
    member: get('member').slice(0, 200) || 'all',
    teamPicks: get('teamPicks') === '1',
    review:
      review === 'none' || (REVIEW_STATES as readonly string[]).includes(review)
        ? (review as ReviewState)
        : 'all',
  };
}

/**
 * Writes the filter into a search string, keeping the URL's other parameters (the selected model, the
 * view): only what differs from "no filter" is written, so an unfiltered gallery has a short URL.
 */
export function encodeFilter(filter: GalleryFilter, search = ''): string {
  const params = new URLSearchParams(search);
  for (const name of Object.values(P)) params.delete(name);
  const set = (k: keyof typeof P, value: string) => {
    if (value) params.set(P[k], value);
  };
  set('query', filter.query);
  set('status', filter.status === 'all' ? '' : filter.status);
  set('mediaType', filter.mediaType === 'all' ? '' : filter.mediaType);
  set('model', filter.model === 'all' ? '' : filter.model);
  set('category', filter.category === 'all' ? '' : filter.category);
  set('starred', filter.starred ? '1' : '');
  set('minRating', filter.minRating ? String(filter.minRating) : '');
  set('from', filter.from);
  set('to', filter.to);
  set('sort', filter.sort === 'newest' ? '' : filter.sort);
  set('showHidden', filter.showHidden ? '1' : '');
  set('member', !filter.member || filter.member === 'all' ? '' : filter.member);
  set('teamPicks', filter.teamPicks ? '1' : '');
  set('review', filter.review === 'all' ? '' : filter.review);
  const text = params.toString();
  return text ? `?${text}` : '';
}

// ---- months: a date range that is one whole month (the Gallery's "Month" choice) ----------------

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const pad2 = (n: number) => String(n).padStart(2, '0');

/** The first and last local day of a month ("2026-02" -> 2026-02-01 .. 2026-02-28). */
export function monthDays(month: string): { from: string; to: string } {
  const m = MONTH.exec(month);
  if (!m) return { from: '', to: '' };
  const last = new Date(Number(m[1]), Number(m[2]), 0).getDate();
  return { from: `${month}-01`, to: `${month}-${pad2(last)}` };
}

/** The month the filter's dates are, when they are exactly one whole month; '' otherwise. */
export function monthOfFilter(f: Pick<GalleryFilter, 'from' | 'to'>): string {
  const month = f.from.slice(0, 7);
  const days = monthDays(month);
  return days.from && days.from === f.from && days.to === f.to ? month : '';
}

/** The month before ("2026-01" -> "2025-12"). */
export function monthBefore(month: string): string {
  const m = MONTH.exec(month);
  if (!m) return '';
  const d = new Date(Number(m[1]), Number(m[2]) - 2, 1);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}`;
}

/**
 * The months to offer, newest first: from this month back to the oldest entry's, and at least `atLeast`
 * of them (a team's earlier tasks are on the server: their months are not in the entries yet).
 */
export function monthChoices(entries: readonly HistoryEntry[], now: number, atLeast = 24): string[] {
  const oldest = entries.reduce((min, e) => Math.min(min, e.createdAt), now);
  const last = dayKey(oldest).slice(0, 7);
  const months: string[] = [];
  for (let month = dayKey(now).slice(0, 7); months.length < 600; month = monthBefore(month)) {
    months.push(month);
    if (months.length >= atLeast && month <= last) break;
  }
  return months;
}

export const isGalleryFiltering = (f: GalleryFilter): boolean =>
  encodeFilter({ ...f, sort: 'newest', showHidden: false }) !== '';

/** The categories in the history, for the category filter's choices. */
export function categoryOptions(entries: readonly HistoryEntry[]): string[] {
  return [...new Set(entries.map((e) => e.meta.category).filter((c): c is string => !!c))].sort();
}

/**
 * The tiles to show: entries filtered (task facets and the search through the History column's own
 * filterEntries, then category, date and hidden), turned into tiles, then the per-output facets (the
 * search's rating, tag and is: terms, starred, rating), then sorted. Sorting is stable: ties keep newest first.
 * With the team's picks given, "Team picks" keeps the outputs some member starred; "Review" keeps those
 * whose state in `reviewStates` (each output's latest review, reviews.ts reviewStatesOf) is the one asked
 * for, or that have none. `search`: the search index (kept in sync by its owner) and each output's tags.
 */
export function selectItems(
  entries: HistoryEntry[],
  filter: GalleryFilter,
  judgements: Judgements,
  hidden: HiddenIds,
  toItems: (entries: HistoryEntry[]) => GalleryItem[],
  teamPicks?: TeamPicks,
  reviewStates: ReadonlyMap<string, ReviewState> = new Map(),
  search: { index?: SearchIndex; tags?: OutputTags } = {},
): GalleryItem[] {
  const from = filter.from ? dayStartOfKey(filter.from) : -Infinity;
  // The end day is inclusive: up to the next day's start (23 or 25 hours later on a clock change).
  const to = filter.to ? nextDayStart(dayStartOfKey(filter.to)) : Infinity;
  const found = filterEntries(entries, filter, { ...search, judgements });
  const tasks =
    (filter.showHidden || hidden.size === 0) && filter.category === 'all' && !filter.from && !filter.to
      ? found
      : found.filter(
          (e) =>
            (filter.showHidden || !hidden.has(e.taskId)) &&
            (filter.category === 'all' || e.meta.category === filter.category) &&
            e.createdAt >= from &&
            e.createdAt < to,
        );
  let items = tilesOf(entries, tasks, toItems);
  const query = compileQuery(filter.query);
  if (query.outputTerms.length > 0)
    items = items.filter((item) => outputMatches(query, item.key, judgements, search.tags));
  if (filter.starred || filter.minRating > 0) {
    items = items.filter((item) => {
      const j = judgements.get(item.key);
      return (
        (!filter.starred || j?.starred === true) &&
        (filter.minRating === 0 || (j?.rating ?? 0) >= filter.minRating)
      );
    });
  }
  if (filter.teamPicks && teamPicks) {
    items = items.filter((item) => (teamPicks.get(item.key)?.starredBy.length ?? 0) > 0);
  }
  if (filter.review !== 'all') {
    const wanted = filter.review === 'none' ? undefined : filter.review;
    items = items.filter((item) => reviewStates.get(item.key) === wanted);
  }
  return sortItems(items, filter.sort, judgements);
}

const NO_TAGS: OutputTags = new Map();

/** The outputs that have a judgement or tags ("marked"), each once, with what the output terms read. */
interface Marks {
  readonly taskIds: readonly string[];
  /** The output's index in its task. */
  readonly outputs: Int32Array;
  readonly judgements: ReadonlyArray<Judgement | undefined>;
  readonly tags: ReadonlyArray<readonly string[] | undefined>;
  /** The marks (their numbers) an output term can pass, by what it needs (OutputTerm.needs). */
  readonly having: Readonly<Record<OutputTerm['needs'], Int32Array>>;
}

// Per judgements and tags (each a Map replaced on every change): their marked outputs.
const marksCache = new WeakMap<Judgements, WeakMap<OutputTags, Marks>>();

function marksOf(judgements: Judgements, tags: OutputTags): Marks {
  let byTags = marksCache.get(judgements);
  if (!byTags) marksCache.set(judgements, (byTags = new WeakMap()));
  let marks = byTags.get(tags);
  if (!marks) {
    const taskIds: string[] = [];
    const outputs: number[] = [];
    const js: Array<Judgement | undefined> = [];
    const ts: Array<readonly string[] | undefined> = [];
    const having = { star: [] as number[], rating: [] as number[], tag: [] as number[] };
    const note = (key: string) => {
      const taskId = taskIdOfKey(key);
      const index = indexOfKey(key);
      // Only a tile's own key ("t#1", not "t#01") is a tile's: the others mark no output shown.
      if (outputKey(taskId, index) !== key) return;
      const j = judgements.get(key);
      const t = tags.get(key);
      if (j?.starred) having.star.push(taskIds.length);
      if (j?.rating != null) having.rating.push(taskIds.length);
      if (t && t.length > 0) having.tag.push(taskIds.length);
      taskIds.push(taskId);
      outputs.push(index);
      js.push(j);
      ts.push(t);
    };
    for (const key of judgements.keys()) note(key);
    for (const key of tags.keys()) if (!judgements.has(key)) note(key);
    marks = {
      taskIds,
      outputs: Int32Array.from(outputs),
      judgements: js,
      tags: ts,
      having: {
        star: Int32Array.from(having.star),
        rating: Int32Array.from(having.rating),
        tag: Int32Array.from(having.tag),
      },
    };
    byTags.set(tags, marks);
  }
  return marks;
}

/**
 * The marks whose outcome may differ from an unmarked output's (`blank`): with a term that asks for
 * something, those having what the most selective such term needs; with negated terms only, those having
 * what they need when they all need the same; else all (null).
 */
function marksToCheck(terms: readonly OutputTerm[], marks: Marks, blank: boolean): Int32Array | null {
  if (blank) {
    const needs = new Set(terms.map((t) => t.needs));
    return needs.size === 1 ? marks.having[terms[0]!.needs] : null;
  }
  let fewest: Int32Array | null = null;
  for (const t of terms)
    if (!t.negated && (!fewest || marks.having[t.needs].length < fewest.length))
      fewest = marks.having[t.needs];
  return fewest;
}

/** Per list and hidden tasks: which places are hidden, and how many tiles the others have. */
interface Visible {
  readonly hiddenAt: Uint8Array;
  readonly tiles: number;
}

const visibleCache = new WeakMap<readonly HistoryEntry[], WeakMap<HiddenIds, Visible>>();

function visibleOf(entries: readonly HistoryEntry[], hidden: HiddenIds): Visible {
  let byHidden = visibleCache.get(entries);
  if (!byHidden) visibleCache.set(entries, (byHidden = new WeakMap()));
  let visible = byHidden.get(hidden);
  if (!visible) {
    const hiddenAt = new Uint8Array(entries.length);
    let tiles = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (hidden.size > 0 && hidden.has(e.taskId)) hiddenAt[i] = 1;
      else tiles += Math.max(1, e.outputs.length);
    }
    visible = { hiddenAt, tiles };
    byHidden.set(hidden, visible);
  }
  return visible;
}

// Per list: each task's place, when no task is in it twice (else null). For a list without an index.
const placesCache = new WeakMap<readonly HistoryEntry[], ReadonlyMap<string, number> | null>();

function placesOfTasks(taskIds: readonly string[], entries: readonly HistoryEntry[]): Int32Array | null {
  let places = placesCache.get(entries);
  if (places === undefined) {
    const map = new Map<string, number>();
    for (let i = 0; i < entries.length && map.size === i; i++) map.set(entries[i]!.taskId, i);
    places = map.size === entries.length ? map : null;
    placesCache.set(entries, places);
  }
  const found = places;
  return found ? Int32Array.from(taskIds, (taskId) => found.get(taskId) ?? -1) : null;
}

// Per list and marks: the place of each marked output's task, -1 when it is not in the list or has no
// such output (a mark left from an earlier run of it); null when the list holds a task twice.
const markPlacesCache = new WeakMap<readonly HistoryEntry[], WeakMap<Marks, Int32Array | null>>();

function markPlacesOf(
  entries: readonly HistoryEntry[],
  marks: Marks,
  index?: SearchIndex,
): Int32Array | null {
  let byMarks = markPlacesCache.get(entries);
  if (!byMarks) markPlacesCache.set(entries, (byMarks = new WeakMap()));
  let places = byMarks.get(marks);
  if (places === undefined) {
    places = index?.placesOfTasks(marks.taskIds, entries) ?? placesOfTasks(marks.taskIds, entries);
    if (places)
      for (let m = 0; m < places.length; m++) {
        const p = places[m]!;
        if (p >= 0 && marks.outputs[m]! >= Math.max(1, entries[p]!.outputs.length)) places[m] = -1;
      }
    byMarks.set(marks, places);
  }
  return places;
}

/**
 * @internal (exported for its unit test; the Gallery counts through searchCounter.) How many tiles the
 * Gallery shows for `query` under no other filter, hidden tasks left out: exactly
 * selectItems(entries, { ...NO_GALLERY_FILTER, query }, judgements, hidden, galleryItemsOf, ...).length
 * (a tile per output, one for a task without any), without making the tiles: what a saved search's count
 * is, ten of them at 50,000 tasks on a render. The tasks that pass the task-level terms come from the
 * index's postings (matchingPlaces; its matcher, or the scan, when it cannot tell). An output with
 * neither a judgement nor tags passes the rating, tag and is: terms as any such output does (`blank`),
 * so only the marked outputs that may differ (the starred ones for is:starred...) are looked at one by
 * one, through what is derived once per list, judgements, tags and hidden tasks (their places, the
 * hidden ones).
 */
export function countMatches(
  entries: readonly HistoryEntry[],
  query: string,
  judgements: Judgements,
  hidden: HiddenIds,
  search: { index?: SearchIndex; tags?: OutputTags } = {},
): number {
  const q = compileQuery(query);
  const { index, tags = NO_TAGS } = search;
  const { hiddenAt, tiles } = visibleOf(entries, hidden);
  const blank = outputPasses(q, undefined, undefined);
  const byOutput = q.outputTerms.length > 0;
  let n = 0;
  // Whether the task at a place passes the task-level terms (hidden or not).
  let passes: (place: number) => boolean = () => true;
  if (q.taskTerms.length === 0) {
    if (blank) n = tiles;
  } else {
    const places = index?.matchingPlaces(q, entries);
    if (places) {
      const shown = byOutput ? new Uint8Array(entries.length) : null;
      for (const p of places) {
        if (hiddenAt[p] === 1) continue;
        if (blank) n += Math.max(1, entries[p]!.outputs.length);
        if (shown) shown[p] = 1;
      }
      passes = (p) => shown![p] === 1;
    } else {
      const matches = index ? index.matcher(q, entries) : (e: HistoryEntry) => matchEntry(q, e);
      if (blank)
        for (let i = 0; i < entries.length; i++) {
          const e = entries[i]!;
          if (hiddenAt[i] === 0 && matches(e, i)) n += Math.max(1, e.outputs.length);
        }
      passes = (p) => matches(entries[p]!, p);
    }
  }
  if (!byOutput) return n;
  const marks = marksOf(judgements, tags);
  const places = markPlacesOf(entries, marks, index);
  if (!places) return countByTask(entries, q, judgements, hidden, tags, index);
  const check = marksToCheck(q.outputTerms, marks, blank);
  const count = check ? check.length : places.length;
  for (let c = 0; c < count; c++) {
    const m = check ? check[c]! : c;
    const p = places[m]!;
    if (p < 0 || hiddenAt[p] === 1) continue;
    if (outputPasses(q, marks.judgements[m], marks.tags[m]) !== blank && passes(p)) n += blank ? -1 : 1;
  }
  return n;
}

/** countMatches for a list that holds a task twice: each task's tiles by their keys, one by one. */
function countByTask(
  entries: readonly HistoryEntry[],
  q: CompiledQuery,
  judgements: Judgements,
  hidden: HiddenIds,
  tags: OutputTags,
  index: SearchIndex | undefined,
): number {
  const matches = index ? index.matcher(q, entries) : (e: HistoryEntry) => matchEntry(q, e);
  let n = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if ((hidden.size > 0 && hidden.has(e.taskId)) || !matches(e, i)) continue;
    for (let k = 0; k < Math.max(1, e.outputs.length); k++)
      if (outputMatches(q, outputKey(e.taskId, k), judgements, tags)) n++;
  }
  return n;
}

/**
 * countMatches per query for one state of what it reads (the list, judgements, hidden tasks, tags): the
 * Gallery makes one when one of them changes, and a render asks the same counts again for free.
 */
export function searchCounter(
  entries: readonly HistoryEntry[],
  judgements: Judgements,
  hidden: HiddenIds,
  search: { index?: SearchIndex; tags?: OutputTags } = {},
): (query: string) => number {
  return oncePerKey((query) => countMatches(entries, query, judgements, hidden, search));
}

// The tiles of a whole list, per list (the store's, replaced on every change) and tile maker, with where
// each task's tiles start: a search that keeps most tasks (the first letter typed) copies their runs of
// tiles instead of making a list of 200,000 tiles again.
const allTiles = new WeakMap<
  readonly HistoryEntry[],
  { toItems: (entries: HistoryEntry[]) => GalleryItem[]; items: GalleryItem[]; start: Int32Array } | null
>();

function tilesOf(
  entries: HistoryEntry[],
  tasks: HistoryEntry[],
  toItems: (entries: HistoryEntry[]) => GalleryItem[],
): GalleryItem[] {
  if (tasks.length < entries.length / 4) return toItems(tasks);
  let all = allTiles.get(entries);
  if (all === undefined || (all && all.toItems !== toItems)) {
    const items = toItems(entries);
    // Each task's first tile, found by walking the list beside the tiles (they come in its order).
    const start = new Int32Array(entries.length + 1);
    let k = 0;
    for (let p = 0; p < entries.length; p++) {
      start[p] = k;
      while (k < items.length && items[k]!.entry === entries[p]) k++;
    }
    start[entries.length] = k;
    all = k === items.length ? { toItems, items, start } : null;
    allTiles.set(entries, all);
  }
  if (!all) return toItems(tasks);
  if (tasks === entries) return all.items.slice();
  // The tasks kept are a part of the list, in its order: walk both, copying each kept task's tiles.
  const { items, start } = all;
  const out: GalleryItem[] = [];
  let q = 0;
  for (let p = 0; p < entries.length && q < tasks.length; p++) {
    if (entries[p] !== tasks[q]) continue;
    q++;
    for (let k = start[p]!; k < start[p + 1]!; k++) out.push(items[k]!);
  }
  return q < tasks.length ? toItems(tasks) : out;
}

const durationOf = (e: HistoryEntry) => (e.completedAt === null ? -1 : e.completedAt - e.createdAt);

/** The tiles of tasks still running first, then the rest, each part in the order given (stable). */
export function runningFirst(items: GalleryItem[]): GalleryItem[] {
  const running = items.filter((i) => !isTerminal(i.entry.status));
  if (running.length === 0 || running.length === items.length) return items;
  return [...running, ...items.filter((i) => isTerminal(i.entry.status))];
}

/** Items come newest first; the other sorts reorder them, ties staying newest first. */
function sortItems(items: GalleryItem[], sort: GallerySort, judgements: Judgements): GalleryItem[] {
  switch (sort) {
    case 'newest':
      return items;
    case 'oldest': {
      // Reverse whole tasks, keeping each task's outputs in their own order.
      const copy = [...items];
      copy.sort((a, b) => a.entry.createdAt - b.entry.createdAt || a.index - b.index);
      return copy;
    }
    case 'rating': {
      const score = (i: GalleryItem) => {
        const j = judgements.get(i.key);
        return (j?.rating ?? 0) * 2 + (j?.starred ? 1 : 0);
      };
      return [...items].sort((a, b) => score(b) - score(a));
    }
    case 'credits':
      return [...items].sort((a, b) => (b.entry.creditsCharged ?? -1) - (a.entry.creditsCharged ?? -1));
    case 'duration':
      return [...items].sort((a, b) => durationOf(b.entry) - durationOf(a.entry));
  }
}

export type GalleryRow<T extends RowCell = GalleryItem> =
  | { kind: 'day'; key: string; label: string; count: number }
  | { kind: 'tiles'; key: string; items: T[]; first: number };

/** What a row holds: a tile, or a batch's stack ("Group batches"), each with its task for the day. */
export interface RowCell {
  key: string;
  entry: HistoryEntry;
}

/**
 * The virtual list's rows: a heading per day, then that day's tiles `columns` to a row (newest and
 * oldest sorts; the other sorts are one run of tiles without headings). `first` is the index of the
 * row's first tile in `items`.
 */
export function rowsOf<T extends RowCell>(
  items: T[],
  columns: number,
  byDay: boolean,
  dayLabel: (day: string) => string,
): GalleryRow<T>[] {
  const rows: GalleryRow<T>[] = [];
  const cols = Math.max(1, columns);
  let start = 0;
  while (start < items.length) {
    let end = start + 1;
    const day = dayOf(items[start]!.entry);
    if (byDay) {
      while (end < items.length && dayOf(items[end]!.entry) === day) end++;
      rows.push({ kind: 'day', key: `day-${day}-${start}`, label: dayLabel(day), count: end - start });
    } else end = items.length;
    for (let i = start; i < end; i += cols) {
      rows.push({
        kind: 'tiles',
        key: `tiles-${items[i]!.key}`,
        items: items.slice(i, Math.min(i + cols, end)),
        first: i,
      });
    }
    start = end;
  }
  return rows;
}
