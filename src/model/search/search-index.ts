import { nextTask } from '../../lib/next-task';
import type { HistoryEntry } from '../history/history-types';
import { forEachFacetKey, numberOf, type Facet } from './entry-facets';
import { matchEntry, type CompiledQuery, type Narrowing, type TaskTerm } from './query';

// An index of the history for the search (query.ts), so a keystroke looks up postings instead of
// testing every task: per facet (free-text tokens, model, version, category, status, media, member,
// aspect ratio, day, each param id) a map key -> the tasks that have it. A term's tasks come from the
// facet's distinct keys (a few hundred models, tens of thousands of prompt words, rather than 50,000
// tasks); the most selective term gives the candidates, the other terms keep or drop them through
// their own postings (or, for a phrase, their test), so the index answers exactly what the direct scan
// answers (search-index.test.ts checks it on random histories). Tasks are small integers here ("docs"),
// their postings arrays of them, and a set operation a stamp per doc in one typed array: no string is
// hashed per task while typing.
//
// Kept in memory, not in IndexedDB. The history it indexes is in memory already (the history store
// reads every entry at start), and the index is derived from it: built again in the background in 8 ms
// slices after each start (docs/benchmarks.md "search": 1.4 s at 50,000 tasks on a shared 2-core
// machine, in Node; matching falls back to the direct scan meanwhile), at the price of its postings in
// the heap (39 MB at 50,000 tasks). Persisting it would cost more than it saves: every poll answer
// replaces an entry and would rewrite the postings it changes in a transaction (a status's posting lists
// most of the tasks: one record of 45,000 numbers rewritten for one task's change), the format would
// need a schema version and migrations beside the history's, it would have to stay consistent with the
// tasks store across tabs (tab-sync.ts) and crashes, and reading the postings back (structured clones of
// large arrays and maps) is not obviously faster than building them from entries already in memory.

interface Posting {
  /** The docs that have the key, in no order. */
  readonly docs: number[];
  /** The key as a number, read once when a numeric term first asks (undefined until then). */
  num?: number | null;
}

interface Slot {
  entry: HistoryEntry;
  readonly doc: number;
  /** The last pass over a list that saw this task (what is not seen is no longer in the list). */
  seen: number;
}

export interface BuildReport {
  entries: number;
  slices: number;
  longestSliceMs: number;
  totalMs: number;
}

export interface BuildOptions {
  signal?: AbortSignal;
  /** A slice's budget before the page gets a turn; 8 ms by default. */
  sliceMs?: number;
  /** The clock; performance.now by default (a test's fake). */
  now?: () => number;
  /** How the page gets its turn; scheduler.yield() where the browser has it, else a zero-delay timer. */
  giveWay?: () => Promise<void>;
}

/** Entries filed between two looks at the clock in a background slice. */
const BATCH = 32;
/** Past this many tasks gone at once, every posting is swept once instead of each task's searched. */
const SWEEP_AFTER = 64;

function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : nextTask();
}

/** Each facet key of an entry as one string, to compare an entry's keys with its replacement's. */
function keysOf(entry: HistoryEntry): Set<string> {
  const keys = new Set<string>();
  forEachFacetKey(entry, (facet, key) => keys.add(`${facet}\n${key}`));
  return keys;
}

export class SearchIndex {
  private readonly facets = new Map<Facet, Map<string, Posting>>();
  private readonly held = new Map<string, Slot>();
  private readonly slots: Array<Slot | undefined> = [];
  private readonly freeDocs: number[] = [];
  /** Per doc, the stamp of the last set operation that marked it. */
  private marks = new Uint32Array(1024);
  /** Per doc, its task's place in the last list given (sync, buildInBackground). */
  private places = new Int32Array(1024);
  /** Per doc, 1 while it stands for a task. */
  private live = new Uint8Array(1024);
  private stamp = 0;
  private target: readonly HistoryEntry[] = [];
  /** Whether the last list held a task twice (then its places cannot stand for its tasks). */
  private repeats = false;
  private state: 'empty' | 'building' | 'ready' = 'empty';
  private passes = 0;
  private build: Promise<BuildReport> | null = null;

  /** Whether the index holds the last list it was given; until then matching scans that list. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Tasks indexed. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Makes the index hold `entries` (the store's list: a new array, and new objects for changed tasks,
   * on every change): a task whose object changed has the keys that changed filed again, new ones are
   * added, those gone removed; the others cost a lookup each. While a background build runs, the build
   * takes the list over. On an index never built, this builds it at once: one long task for a long
   * history, where buildInBackground keeps the page responsive.
   */
  sync(entries: readonly HistoryEntry[]): void {
    if (entries === this.target && this.state === 'ready') return;
    this.target = entries;
    if (this.state === 'building') return;
    const pass = ++this.passes;
    const distinct = this.file(entries, 0, entries.length, pass);
    this.dropUnseen(pass, distinct, entries.length);
    this.state = 'ready';
  }

  /**
   * Builds (or brings up to date) the index of `entries` in slices of about `sliceMs`, giving the page a
   * turn between them, so no task of it is long. Matching scans meanwhile; lists synced during the
   * build are taken over by it. A second call while one runs hands it the list and returns the same
   * promise. Aborted (its signal), it rejects with the signal's reason and leaves the index not ready.
   */
  buildInBackground(entries: readonly HistoryEntry[], options: BuildOptions = {}): Promise<BuildReport> {
    this.target = entries;
    if (this.build) return this.build;
    this.state = 'building';
    this.build = this.slices(options).finally(() => {
      this.build = null;
    });
    return this.build;
  }

  private async slices({
    signal,
    sliceMs = 8,
    now = () => performance.now(),
    giveWay = yieldToPage,
  }: BuildOptions): Promise<BuildReport> {
    const began = now();
    let slices = 0;
    let longest = 0;
    let list = this.target;
    let pass = ++this.passes;
    let distinct = 0;
    let i = 0;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const t0 = now();
        let done = false;
        while (!done && now() - t0 < sliceMs) {
          const to = Math.min(list.length, i + BATCH);
          distinct += this.file(list, i, to, pass);
          i = to;
          if (i < list.length) continue;
          if (this.target !== list) {
            // Synced meanwhile: one more pass, over the newer list (unchanged tasks cost a lookup).
            list = this.target;
            pass = ++this.passes;
            distinct = 0;
            i = 0;
          } else {
            this.dropUnseen(pass, distinct, list.length);
            done = true;
          }
        }
        slices++;
        longest = Math.max(longest, now() - t0);
        if (done) break;
        await giveWay();
      }
    } catch (error) {
      this.state = 'empty';
      throw error;
    }
    this.state = 'ready';
    return { entries: this.held.size, slices, longestSliceMs: longest, totalMs: now() - began };
  }

  /** Files list[from..to) under pass `pass`; how many tasks this pass saw for the first time. */
  private file(list: readonly HistoryEntry[], from: number, to: number, pass: number): number {
    let distinct = 0;
    for (let i = from; i < to; i++) {
      const entry = list[i]!;
      const slot = this.held.get(entry.taskId);
      if (!slot) {
        const doc = this.freeDocs.pop() ?? this.slots.length;
        const added: Slot = { entry, doc, seen: pass };
        this.slots[doc] = added;
        this.held.set(entry.taskId, added);
        if (doc >= this.marks.length) this.grow(doc + 1);
        this.live[doc] = 1;
        this.places[doc] = i;
        forEachFacetKey(entry, (facet, key) => this.add(facet, key, doc));
        distinct++;
        continue;
      }
      // The same task twice in one list: the first place stands.
      if (slot.seen === pass) continue;
      distinct++;
      slot.seen = pass;
      this.places[slot.doc] = i;
      if (slot.entry !== entry) {
        this.refile(slot.doc, slot.entry, entry);
        slot.entry = entry;
      }
    }
    return distinct;
  }

  /** A task replaced: only the keys that differ (a poll changes the status, not the prompt's words). */
  private refile(doc: number, before: HistoryEntry, after: HistoryEntry): void {
    const old = keysOf(before);
    const next = keysOf(after);
    for (const both of old) {
      if (next.has(both)) continue;
      const at = both.indexOf('\n');
      this.remove(both.slice(0, at) as Facet, both.slice(at + 1), doc);
    }
    for (const both of next) {
      if (old.has(both)) continue;
      const at = both.indexOf('\n');
      this.add(both.slice(0, at) as Facet, both.slice(at + 1), doc);
    }
  }

  private add(facet: Facet, key: string, doc: number): void {
    let keys = this.facets.get(facet);
    if (!keys) {
      keys = new Map();
      this.facets.set(facet, keys);
    }
    const posting = keys.get(key);
    if (posting) posting.docs.push(doc);
    else keys.set(key, { docs: [doc] });
  }

  private remove(facet: Facet, key: string, doc: number): void {
    const keys = this.facets.get(facet);
    const docs = keys?.get(key)?.docs;
    if (!keys || !docs) return;
    const at = docs.lastIndexOf(doc);
    if (at < 0) return;
    docs[at] = docs[docs.length - 1]!;
    docs.pop();
    if (docs.length === 0) keys.delete(key);
    if (keys.size === 0) this.facets.delete(facet);
  }

  /** Removes the tasks pass `pass` did not see (none when it saw as many as are held). */
  private dropUnseen(pass: number, distinct: number, listed: number): void {
    this.repeats = distinct !== listed;
    if (distinct === this.held.size) return;
    const gone: Slot[] = [];
    for (const slot of this.held.values()) if (slot.seen !== pass) gone.push(slot);
    if (gone.length > SWEEP_AFTER) {
      const stamp = this.nextStamp();
      for (const slot of gone) this.marks[slot.doc] = stamp;
      for (const [facet, keys] of this.facets) {
        for (const [key, posting] of keys) {
          const docs = posting.docs;
          let kept = 0;
          for (const doc of docs) if (this.marks[doc] !== stamp) docs[kept++] = doc;
          docs.length = kept;
          if (kept === 0) keys.delete(key);
        }
        if (keys.size === 0) this.facets.delete(facet);
      }
    } else {
      for (const slot of gone) forEachFacetKey(slot.entry, (facet, key) => this.remove(facet, key, slot.doc));
    }
    for (const slot of gone) {
      this.held.delete(slot.entry.taskId);
      this.slots[slot.doc] = undefined;
      this.live[slot.doc] = 0;
      this.freeDocs.push(slot.doc);
    }
  }

  private grow(size: number): void {
    const length = Math.max(size, this.marks.length * 2);
    const marks = new Uint32Array(length);
    marks.set(this.marks);
    this.marks = marks;
    const places = new Int32Array(length);
    places.set(this.places);
    this.places = places;
    const live = new Uint8Array(length);
    live.set(this.live);
    this.live = live;
  }

  private nextStamp(): number {
    if (this.stamp >= 0xffffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** The postings a narrowing finds, and the docs in them (counted with repeats). */
  private lookup(narrowing: Narrowing): { postings: Posting[]; count: number } {
    const postings: Posting[] = [];
    let count = 0;
    const keys = this.facets.get(narrowing.facet);
    if (!keys) return { postings, count };
    for (const [key, posting] of keys) {
      let num: number | null = null;
      if (narrowing.numeric) {
        if (posting.num === undefined) posting.num = numberOf(key);
        num = posting.num;
      }
      if (!narrowing.test(key, num)) continue;
      postings.push(posting);
      count += posting.docs.length;
    }
    return { postings, count };
  }

  /** Marks the docs of `postings` with a new stamp; the stamp. */
  private mark(postings: readonly Posting[]): number {
    const stamp = this.nextStamp();
    for (const posting of postings) for (const doc of posting.docs) this.marks[doc] = stamp;
    return stamp;
  }

  /** The docs that pass the query's task-level terms (the index is ready). */
  private matchingDocs(terms: readonly TaskTerm[]): number[] {
    // Each narrowing looked up once: a scan of its facet's distinct keys, not of the tasks.
    const found = terms.map((term) => term.narrow.map((narrowing) => this.lookup(narrowing)));
    // The driver: the narrowing of a term that must hold which finds the fewest tasks.
    let best: Posting[] | null = null;
    let fewest = Infinity;
    let driver = -1;
    terms.forEach((term, t) => {
      if (term.negated) return;
      for (const { postings, count } of found[t]!) {
        if (count >= fewest) continue;
        best = postings;
        fewest = count;
        driver = term.exact ? t : -1;
      }
    });
    const docs: number[] = [];
    const marks = this.marks;
    if (best === null || fewest >= this.held.size) {
      // Negated terms only, or a word most tasks have ("s"): every task is a candidate, and the
      // driver's postings only mark (cheaper than gathering them without repeats).
      driver = -1;
      const live = this.live;
      for (let doc = 0; doc < this.slots.length; doc++) if (live[doc] === 1) docs.push(doc);
    } else {
      const stamp = this.nextStamp();
      for (const posting of best as Posting[]) {
        for (const doc of posting.docs) {
          if (marks[doc] === stamp) continue;
          marks[doc] = stamp;
          docs.push(doc);
        }
      }
    }
    for (let t = 0; t < terms.length && docs.length > 0; t++) {
      if (t === driver) continue;
      const term = terms[t]!;
      const negated = term.negated;
      let kept = 0;
      if (term.exact) {
        // Its own postings mark what it matches: a pass over numbers, no task tested.
        const stamp = this.mark(found[t]![0]!.postings);
        for (const doc of docs) if ((marks[doc] === stamp) !== negated) docs[kept++] = doc;
      } else {
        // A phrase: its words' postings narrowed the candidates; the whole phrase is tested on them.
        for (const doc of docs) if (term.test(this.slots[doc]!.entry) !== negated) docs[kept++] = doc;
      }
      docs.length = kept;
    }
    return docs;
  }

  /**
   * The ids of the tasks that pass the query's task-level terms (rating and tag are per output:
   * query.ts outputMatches), or null when it has none. Before the index is ready, a scan of the list.
   */
  matchTasks(query: CompiledQuery): ReadonlySet<string> | null {
    if (query.taskTerms.length === 0) return null;
    const ids = new Set<string>();
    if (this.state !== 'ready') {
      for (const entry of this.target) if (matchEntry(query, entry)) ids.add(entry.taskId);
      return ids;
    }
    for (const doc of this.matchingDocs(query.taskTerms)) ids.add(this.slots[doc]!.entry.taskId);
    return ids;
  }

  /**
   * The places in `entries` of the tasks named (the outputs' candidates of a rating or tag term), for
   * the list last given once the index is ready; null otherwise (the caller asks by task id).
   */
  placesOf(taskIds: Iterable<string>, entries: readonly HistoryEntry[]): Uint8Array | null {
    if (this.state !== 'ready' || entries !== this.target || this.repeats) return null;
    const places = new Uint8Array(entries.length);
    for (const taskId of taskIds) {
      const slot = this.held.get(taskId);
      if (slot) places[this.places[slot.doc]!] = 1;
    }
    return places;
  }

  /**
   * What filterEntries asks: whether `entries[i]` passes the query's task-level terms, for each i.
   * For the list last given (once ready), a lookup by place; for another list, by task, each entry the
   * index does not hold as it is tested directly; before the index is ready, every entry tested.
   */
  matcher(
    query: CompiledQuery,
    entries: readonly HistoryEntry[],
  ): (entry: HistoryEntry, i: number) => boolean {
    if (query.taskTerms.length === 0) return () => true;
    if (this.state !== 'ready') return (entry) => matchEntry(query, entry);
    const docs = this.matchingDocs(query.taskTerms);
    if (entries === this.target && !this.repeats) {
      const shown = new Uint8Array(entries.length);
      const places = this.places;
      for (const doc of docs) shown[places[doc]!] = 1;
      return (_entry, i) => shown[i] === 1;
    }
    const passed = new Uint8Array(this.slots.length);
    for (const doc of docs) passed[doc] = 1;
    return (entry) => {
      const slot = this.held.get(entry.taskId);
      return slot && slot.entry === entry ? passed[slot.doc] === 1 : matchEntry(query, entry);
    };
  }
}
