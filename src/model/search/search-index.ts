import { nextTask } from '../../lib/next-task';
import type { HistoryEntry } from '../history/history-types';
import { keyLabel, numberOf, visitFacetKeys, type Facet, type FacetKeySink } from './entry-facets';
import { matchEntry, type CompiledQuery, type Narrowing, type TaskTerm } from './query';

// An index of the history for the search (query.ts), so a keystroke looks up postings instead of
// testing every task: per facet (free-text tokens, model, version, category, status, media, member,
// aspect ratio, day, each param id) its keys, and per key the tasks that have it. A term's tasks come
// from the facet's distinct keys (a few hundred models, tens of thousands of prompt words, rather than
// 50,000 tasks); the most selective term gives the candidates, the other terms keep or drop them
// through their own postings (or, for a phrase, their test), so the index answers exactly what the
// direct scan answers (search-index.test.ts checks it on random histories). Tasks are small integers
// here ("docs"), and so are keys ("key ids", their fields in typed arrays), a set operation a stamp per
// doc in one typed array: no string is hashed per task while typing. Each facet's keys with their
// counts are the search box's suggestions (facetValues).
//
// Building it makes little garbage, because a full collection falling into a background slice is what
// made a slice long (docs/benchmarks.md "search"): an entry's keys come to one sink object
// (entry-facets.ts visitFacetKeys), a prompt's words as ranges of its text, found by their characters
// in a table of the words known (a string made once per distinct word), and a key only one task has (a
// seed, a prompt) keeps that doc inline, without an array.
//
// Kept in memory, not in IndexedDB. The history it indexes is in memory already (the history store
// reads every entry at start), and the index is derived from it: built again in the background in 8 ms
// slices after each start (docs/benchmarks.md "search": 0.55 s at 50,000 tasks on a shared 2-core
// machine, in Node; matching falls back to the direct scan meanwhile), at the price of its postings in
// the heap (35 MB at 50,000 tasks). Persisting it would cost more than it saves: every poll answer
// replaces an entry and would rewrite the postings it changes in a transaction (a status's posting lists
// most of the tasks: one record of 45,000 numbers rewritten for one task's change), the format would
// need a schema version and migrations beside the history's, it would have to stay consistent with the
// tasks store across tabs (tab-sync.ts) and crashes, and reading the postings back (structured clones of
// large arrays and maps) is not obviously faster than building them from entries already in memory.

/** One facet's keys. */
interface FacetTable {
  readonly facet: Facet;
  /** The ids of its keys, in no order: what a narrowing goes through. */
  readonly list: number[];
  /** Key -> id, for every facet but 'text' (whose words are found by their characters: see `findWord`). */
  readonly ids: Map<string, number>;
  /** Bumped on every change of its keys or of their counts. */
  version: number;
  /** facetValues' answer, for `version`. */
  values?: { version: number; list: readonly FacetValue[] };
}

/** A facet's key with how many tasks have it (the search box suggests values from these). */
export interface FacetValue {
  /** In lowercase, as the search compares it. */
  readonly key: string;
  /** How a task writes it ("Aurora XL"), or null for a key not worth suggesting (a member's id...). */
  readonly label: string | null;
  readonly count: number;
}

/** Where the tasks of a list other than the last one given are, for the index as it was (`version`). */
interface ListPlaces {
  readonly version: number;
  /** Per place, the doc that holds that very entry object, or -1 (a task changed or new since). */
  readonly docOfPlace: Int32Array;
  /** Per doc, its task's place in the list, or -1. */
  readonly placeOfDoc: Int32Array;
  /** The places of the tasks the index does not hold. */
  readonly others: ReadonlyMap<string, number>;
  /** The places whose entry the index does not hold as it is (docOfPlace -1). */
  readonly unheld: readonly number[];
  /** Whether the list holds a task twice. */
  readonly repeats: boolean;
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

/**
 * What the sink does with each key of the entry being visited: add files the doc under it (making a new
 * key), remove takes the doc out, collect notes its id in `scratch` (a replaced task's keys before),
 * refile files the doc under the keys a replaced task did not have.
 */
type Visit = 'add' | 'remove' | 'collect' | 'refile';

function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : nextTask();
}

/** FNV-1a over the UTF-16 code units of text[start, end). */
function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

function sameText(key: string, text: string, start: number, end: number): boolean {
  if (key.length !== end - start) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** Facet values most first, then by key. */
export function byCount(a: FacetValue, b: FacetValue): number {
  return b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function grown<T extends Int32Array | Uint32Array | Uint8Array | Float64Array>(array: T, size: number): T {
  const next = new (array.constructor as new (length: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

export class SearchIndex {
  private readonly facets = new Map<Facet, FacetTable>();
  private readonly held = new Map<string, Slot>();
  private readonly slots: Array<Slot | undefined> = [];
  private readonly freeDocs: number[] = [];
  /** Per doc, the stamp of the last set operation that marked it. */
  private marks = new Uint32Array(1024);
  /** Per doc, its task's place in the last list given (sync, buildInBackground). */
  private places = new Int32Array(1024);
  /** Per place of the last list given, the doc of its task (places' inverse, to walk a later list). */
  private docAt = new Int32Array(1024);
  /** Per doc, 1 while it stands for a task. */
  private live = new Uint8Array(1024);
  private stamp = 0;

  // Keys: each distinct key of a facet is a small integer ("key id"), its fields in the arrays below.
  // A key most tasks lack (a seed, a prompt) is had by one doc, kept inline (keyOne), without an array.
  private keyText: string[] = [];
  private keyTable: Array<FacetTable | undefined> = [];
  /** The docs that have the key, in no order, once it has two or more (else undefined). */
  private keyMore: Array<number[] | undefined> = [];
  /** The label facetValues found for it (undefined: not looked for yet). */
  private keyLabels: Array<string | null | undefined> = [];
  private keyCount = new Int32Array(1024);
  /** Its one doc while keyCount is 1. */
  private keyOne = new Int32Array(1024);
  /** Its place in its table's list. */
  private keyPos = new Int32Array(1024);
  /** A word's hash (hashOf), for the 'text' facet. */
  private keyHash = new Int32Array(1024);
  /** The visit that last saw it (an entry's key given twice is filed once). */
  private keySeen = new Uint32Array(1024);
  /** The replacement that noted it among the task's keys before. */
  private keyBefore = new Uint32Array(1024);
  /** The key as a number (numberOf), read once a numeric term asks: 0 not read yet, 1 none, 2 keyNum. */
  private keyNumState = new Uint8Array(1024);
  private keyNum = new Float64Array(1024);
  private readonly freeKeys: number[] = [];
  /** The 'text' facet's words by their characters (open addressing: key id + 1, 0 for none). */
  private words = new Int32Array(1 << 12);
  private wordCount = 0;

  // The sink visitFacetKeys gives each key to: one object, its state in these fields.
  private visitMode: Visit = 'add';
  private visitDoc = 0;
  private visitStamp = 0;
  private refileStamp = 0;
  private readonly scratch: number[] = [];
  private readonly sink: FacetKeySink = {
    token: (haystack, start, end) => this.onWord(haystack, start, end),
    key: (facet, key) => this.onKey(facet, key),
  };

  private target: readonly HistoryEntry[] = [];
  /** listPlaces' answers, per list. */
  private readonly lists = new WeakMap<readonly HistoryEntry[], ListPlaces>();
  /** Whether the last list held a task twice (then its places cannot stand for its tasks). */
  private repeats = false;
  private state: 'empty' | 'building' | 'ready' = 'empty';
  private passes = 0;
  private changes = 0;
  /** Bumped when a task gets a doc or loses one (not when a task's entry is replaced). */
  private docsVersion = 0;
  /** placesOfTasks' docs, per list of task ids. */
  private readonly taskDocs = new WeakMap<readonly string[], { version: number; docs: Int32Array }>();
  private build: Promise<BuildReport> | null = null;

  /** Whether the index holds the last list it was given; until then matching scans that list. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Tasks indexed. */
  get size(): number {
    return this.held.size;
  }

  /** Changes whenever what the index holds does (a task filed, refiled or dropped). */
  get version(): number {
    return this.changes;
  }

  /**
   * A facet's distinct keys with how many tasks have each, most first (then by key), and how a task
   * writes each (keyLabel): the values the search box suggests. The counts are the postings' own, kept
   * with every change; the list is made again only after its facet changed. Null until the index is
   * ready (the caller reads the list instead).
   */
  facetValues(facet: Facet): readonly FacetValue[] | null {
    if (this.state !== 'ready') return null;
    const table = this.facets.get(facet);
    if (!table) return [];
    if (table.values?.version === table.version) return table.values.list;
    const list = table.list.map((key) => ({
      key: this.keyText[key]!,
      label: this.labelOf(key),
      count: this.keyCount[key]!,
    }));
    list.sort(byCount);
    table.values = { version: table.version, list };
    return list;
  }

  /** How many distinct keys a facet has (null until the index is ready): too many to suggest? */
  facetSize(facet: Facet): number | null {
    if (this.state !== 'ready') return null;
    return this.facets.get(facet)?.list.length ?? 0;
  }

  /** The key's label from the first of its tasks (up to 64) that writes it; kept while the key lives. */
  private labelOf(key: number): string | null {
    let label = this.keyLabels[key];
    if (label !== undefined) return label;
    label = null;
    const facet = this.keyTable[key]!.facet;
    const text = this.keyText[key]!;
    const count = this.keyCount[key]!;
    for (let d = 0; d < Math.min(count, 64) && label === null; d++) {
      const doc = count === 1 ? this.keyOne[key]! : this.keyMore[key]![d]!;
      label = keyLabel(this.slots[doc]!.entry, facet, text);
    }
    this.keyLabels[key] = label;
    return label;
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
        this.placeDoc(i, doc);
        this.docsVersion++;
        this.visit(entry, doc, 'add');
        distinct++;
        continue;
      }
      this.placeDoc(i, slot.doc);
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

  private placeDoc(place: number, doc: number): void {
    if (place >= this.docAt.length) this.docAt = grown(this.docAt, place + 1);
    this.docAt[place] = doc;
  }

  /** Gives each key of the entry to `mode`, once each. */
  private visit(entry: HistoryEntry, doc: number, mode: Visit): void {
    if (++this.visitStamp === 0xffffffff) {
      this.keySeen.fill(0);
      this.visitStamp = 1;
    }
    this.visitMode = mode;
    this.visitDoc = doc;
    visitFacetKeys(entry, this.sink);
  }

  /** A task replaced: only the keys that differ (a poll changes the status, not the prompt's words). */
  private refile(doc: number, before: HistoryEntry, after: HistoryEntry): void {
    const old = this.scratch;
    old.length = 0;
    this.visit(before, doc, 'collect');
    if (++this.refileStamp === 0xffffffff) {
      this.keyBefore.fill(0);
      this.refileStamp = 1;
    }
    const stamp = this.refileStamp;
    for (const key of old) this.keyBefore[key] = stamp;
    // Filed under the keys it did not have; those it keeps lose their note, those it lost keep it.
    this.visit(after, doc, 'refile');
    for (const key of old) if (this.keyBefore[key] === stamp) this.removeDoc(key, doc);
    old.length = 0;
  }

  private onWord(haystack: string, start: number, end: number): void {
    const hash = hashOf(haystack, start, end);
    let key = this.findWord(haystack, start, end, hash);
    if (key < 0) {
      if (this.visitMode !== 'add' && this.visitMode !== 'refile') return;
      key = this.newKey(this.tableOf('text'), haystack.slice(start, end), hash);
    }
    this.onKeyId(key);
  }

  private onKey(facet: Facet, text: string): void {
    let key = this.facets.get(facet)?.ids.get(text);
    if (key === undefined) {
      if (this.visitMode !== 'add' && this.visitMode !== 'refile') return;
      key = this.newKey(this.tableOf(facet), text, 0);
    }
    this.onKeyId(key);
  }

  private onKeyId(key: number): void {
    if (this.keySeen[key] === this.visitStamp) return;
    this.keySeen[key] = this.visitStamp;
    switch (this.visitMode) {
      case 'add':
        this.addDoc(key, this.visitDoc);
        return;
      case 'remove':
        this.removeDoc(key, this.visitDoc);
        return;
      case 'collect':
        this.scratch.push(key);
        return;
      case 'refile':
        if (this.keyBefore[key] === this.refileStamp) this.keyBefore[key] = 0;
        else this.addDoc(key, this.visitDoc);
        return;
    }
  }

  private tableOf(facet: Facet): FacetTable {
    let table = this.facets.get(facet);
    if (!table) {
      table = { facet, list: [], ids: new Map(), version: 0 };
      this.facets.set(facet, table);
    }
    return table;
  }

  private newKey(table: FacetTable, text: string, hash: number): number {
    const key = this.freeKeys.pop() ?? this.keyText.length;
    if (key >= this.keyCount.length) this.growKeys(key + 1);
    if (key === this.keyText.length) {
      this.keyText.push(text);
      this.keyTable.push(table);
      this.keyMore.push(undefined);
      this.keyLabels.push(undefined);
    } else {
      this.keyText[key] = text;
      this.keyTable[key] = table;
    }
    this.keyCount[key] = 0;
    this.keySeen[key] = 0;
    this.keyBefore[key] = 0;
    this.keyNumState[key] = 0;
    this.keyPos[key] = table.list.length;
    table.list.push(key);
    if (table.facet === 'text') {
      this.keyHash[key] = hash;
      this.addWord(key);
    } else table.ids.set(text, key);
    return key;
  }

  private addDoc(key: number, doc: number): void {
    const count = this.keyCount[key]!;
    if (count === 0) this.keyOne[key] = doc;
    else if (count === 1) this.keyMore[key] = [this.keyOne[key]!, doc];
    else this.keyMore[key]!.push(doc);
    this.keyCount[key] = count + 1;
    this.keyTable[key]!.version++;
    this.changes++;
  }

  private removeDoc(key: number, doc: number): void {
    const count = this.keyCount[key]!;
    if (count === 0) return;
    if (count === 1) {
      if (this.keyOne[key] === doc) this.freeKey(key);
      return;
    }
    const docs = this.keyMore[key]!;
    const at = docs.lastIndexOf(doc);
    if (at < 0) return;
    docs[at] = docs[count - 1]!;
    docs.pop();
    this.setDocs(key, docs, count - 1);
  }

  /** The key's docs are the first `count` of `docs` (none: the key goes). */
  private setDocs(key: number, docs: number[], count: number): void {
    if (count === 0) return this.freeKey(key);
    docs.length = count;
    if (count === 1) {
      this.keyOne[key] = docs[0]!;
      this.keyMore[key] = undefined;
    }
    this.keyCount[key] = count;
    this.keyTable[key]!.version++;
    this.changes++;
  }

  /** A key no task has any more: out of its table, its id free for another. */
  private freeKey(key: number): void {
    const table = this.keyTable[key]!;
    const list = table.list;
    const last = list.pop()!;
    if (last !== key) {
      const at = this.keyPos[key]!;
      list[at] = last;
      this.keyPos[last] = at;
    }
    if (table.facet === 'text') this.removeWord(key);
    else table.ids.delete(this.keyText[key]!);
    if (list.length === 0) this.facets.delete(table.facet);
    table.version++;
    this.changes++;
    this.keyText[key] = '';
    this.keyTable[key] = undefined;
    this.keyMore[key] = undefined;
    this.keyLabels[key] = undefined;
    this.keyCount[key] = 0;
    this.freeKeys.push(key);
  }

  // ---- the words: open addressing with linear probing, keyed by the characters -------------------

  private findWord(text: string, start: number, end: number, hash: number): number {
    const words = this.words;
    const mask = words.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const slot = words[at]!;
      if (slot === 0) return -1;
      const key = slot - 1;
      if (this.keyHash[key] === hash && sameText(this.keyText[key]!, text, start, end)) return key;
    }
  }

  private addWord(key: number): void {
    if ((this.wordCount + 1) * 2 > this.words.length) {
      const old = this.words;
      this.words = new Int32Array(old.length * 2);
      for (const slot of old) if (slot !== 0) this.placeWord(slot - 1);
    }
    this.placeWord(key);
    this.wordCount++;
  }

  private placeWord(key: number): void {
    const words = this.words;
    const mask = words.length - 1;
    let at = this.keyHash[key]! & mask;
    while (words[at] !== 0) at = (at + 1) & mask;
    words[at] = key + 1;
  }

  /** Takes a word out, moving back the ones after it that probed past its slot (no tombstones). */
  private removeWord(key: number): void {
    const words = this.words;
    const mask = words.length - 1;
    let hole = this.keyHash[key]! & mask;
    while (words[hole] !== key + 1) hole = (hole + 1) & mask;
    words[hole] = 0;
    this.wordCount--;
    for (let at = (hole + 1) & mask; words[at] !== 0; at = (at + 1) & mask) {
      const home = this.keyHash[words[at]! - 1]! & mask;
      // It stays when its home is cyclically in (hole, at]: the hole is not on its probe path.
      const stays = hole <= at ? hole < home && home <= at : hole < home || home <= at;
      if (stays) continue;
      words[hole] = words[at]!;
      words[at] = 0;
      hole = at;
    }
  }

  /** Removes the tasks pass `pass` did not see (none when it saw as many as are held). */
  private dropUnseen(pass: number, distinct: number, listed: number): void {
    this.repeats = distinct !== listed;
    if (distinct === this.held.size) return;
    const gone: Slot[] = [];
    for (const slot of this.held.values()) if (slot.seen !== pass) gone.push(slot);
    if (gone.length > SWEEP_AFTER) {
      const stamp = this.nextStamp();
      const marks = this.marks;
      for (const slot of gone) marks[slot.doc] = stamp;
      for (const table of [...this.facets.values()]) {
        // Backwards: a key freed takes the list's last one into its place, already seen.
        for (let p = table.list.length - 1; p >= 0; p--) {
          const key = table.list[p]!;
          const count = this.keyCount[key]!;
          if (count === 1) {
            if (marks[this.keyOne[key]!] === stamp) this.freeKey(key);
            continue;
          }
          const docs = this.keyMore[key]!;
          let kept = 0;
          for (let d = 0; d < count; d++) if (marks[docs[d]!] !== stamp) docs[kept++] = docs[d]!;
          if (kept !== count) this.setDocs(key, docs, kept);
        }
      }
    } else {
      for (const slot of gone) this.visit(slot.entry, slot.doc, 'remove');
    }
    this.docsVersion++;
    for (const slot of gone) {
      this.held.delete(slot.entry.taskId);
      this.slots[slot.doc] = undefined;
      this.live[slot.doc] = 0;
      this.freeDocs.push(slot.doc);
    }
    this.changes++;
  }

  private grow(size: number): void {
    this.marks = grown(this.marks, size);
    this.places = grown(this.places, size);
    this.live = grown(this.live, size);
  }

  private growKeys(size: number): void {
    this.keyCount = grown(this.keyCount, size);
    this.keyOne = grown(this.keyOne, size);
    this.keyPos = grown(this.keyPos, size);
    this.keyHash = grown(this.keyHash, size);
    this.keySeen = grown(this.keySeen, size);
    this.keyBefore = grown(this.keyBefore, size);
    this.keyNumState = grown(this.keyNumState, size);
    this.keyNum = grown(this.keyNum, size);
  }

  private nextStamp(): number {
    if (this.stamp >= 0xffffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** The keys a narrowing finds, and the docs they have (counted with repeats). */
  private lookup(narrowing: Narrowing): { keys: number[]; count: number } {
    const keys: number[] = [];
    let count = 0;
    const table = this.facets.get(narrowing.facet);
    if (!table) return { keys, count };
    const { numeric, test } = narrowing;
    for (const key of table.list) {
      let num: number | null = null;
      if (numeric) {
        if (this.keyNumState[key] === 0) {
          const n = numberOf(this.keyText[key]!);
          this.keyNumState[key] = n === null ? 1 : 2;
          if (n !== null) this.keyNum[key] = n;
        }
        num = this.keyNumState[key] === 2 ? this.keyNum[key]! : null;
      }
      if (!test(this.keyText[key]!, num)) continue;
      keys.push(key);
      count += this.keyCount[key]!;
    }
    return { keys, count };
  }

  /** Marks the docs of `keys` with a new stamp; the stamp. */
  private mark(keys: readonly number[]): number {
    const stamp = this.nextStamp();
    const marks = this.marks;
    for (const key of keys) {
      const count = this.keyCount[key]!;
      if (count === 1) marks[this.keyOne[key]!] = stamp;
      else for (const doc of this.keyMore[key]!) marks[doc] = stamp;
    }
    return stamp;
  }

  /** The docs that pass the query's task-level terms (the index is ready). */
  private matchingDocs(terms: readonly TaskTerm[]): number[] {
    // Each narrowing looked up once: a scan of its facet's distinct keys, not of the tasks.
    const found = terms.map((term) => term.narrow.map((narrowing) => this.lookup(narrowing)));
    // The driver: the narrowing of a term that must hold which finds the fewest tasks.
    let best: number[] | null = null;
    let fewest = Infinity;
    let driver = -1;
    terms.forEach((term, t) => {
      if (term.negated) return;
      for (const { keys, count } of found[t]!) {
        if (count >= fewest) continue;
        best = keys;
        fewest = count;
        driver = term.exact ? t : -1;
      }
    });
    const docs: number[] = [];
    const marks = this.marks;
    if (best === null || fewest >= this.held.size) {
      // Negated terms only, or a word most tasks have ("s"): every task is a candidate, and the
      // driver's keys only mark (cheaper than gathering their docs without repeats).
      driver = -1;
      const live = this.live;
      for (let doc = 0; doc < this.slots.length; doc++) if (live[doc] === 1) docs.push(doc);
    } else {
      const stamp = this.nextStamp();
      const gather = (doc: number) => {
        if (marks[doc] === stamp) return;
        marks[doc] = stamp;
        docs.push(doc);
      };
      for (const key of best as number[]) {
        if (this.keyCount[key] === 1) gather(this.keyOne[key]!);
        else for (const doc of this.keyMore[key]!) gather(doc);
      }
    }
    for (let t = 0; t < terms.length && docs.length > 0; t++) {
      if (t === driver) continue;
      const term = terms[t]!;
      const negated = term.negated;
      let kept = 0;
      if (term.exact) {
        // Its own keys mark what it matches: a pass over numbers, no task tested.
        const stamp = this.mark(found[t]![0]!.keys);
        for (const doc of docs) if ((marks[doc] === stamp) !== negated) docs[kept++] = doc;
      } else {
        // A phrase: its words' docs narrowed the candidates; the whole phrase is tested on them.
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
   * For the list last given (once ready), a lookup by place; for another list (the view's, before the
   * index is synced with it), by the doc at each place, found once per list; an entry the index does
   * not hold as it is is tested directly. Before the index is ready, every entry tested.
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
    const { docOfPlace } = this.listPlaces(entries);
    return (entry, i) => {
      const doc = docOfPlace[i]!;
      return doc >= 0 ? passed[doc] === 1 : matchEntry(query, entry);
    };
  }

  /**
   * The places in `entries` of the tasks that pass the query's task-level terms, in no order: what a
   * count needs, without a pass over the whole list. For another list than the last given, its entries
   * the index does not hold as they are are tested directly. Null when the index cannot answer by
   * itself: not ready, no task-level term, a task in the list twice.
   */
  matchingPlaces(query: CompiledQuery, entries: readonly HistoryEntry[]): number[] | null {
    if (this.state !== 'ready' || query.taskTerms.length === 0) return null;
    if (entries === this.target) {
      if (this.repeats) return null;
      const docs = this.matchingDocs(query.taskTerms);
      for (let k = 0; k < docs.length; k++) docs[k] = this.places[docs[k]!]!;
      return docs;
    }
    const list = this.listPlaces(entries);
    if (list.repeats) return null;
    const docs = this.matchingDocs(query.taskTerms);
    let kept = 0;
    for (const doc of docs) {
      const place = list.placeOfDoc[doc]!;
      if (place >= 0 && list.docOfPlace[place] === doc) docs[kept++] = place;
    }
    docs.length = kept;
    for (const place of list.unheld) if (matchEntry(query, entries[place]!)) docs.push(place);
    return docs;
  }

  /**
   * The places in `entries` of the tasks named (-1: not in it), for a list of ids asked about again and
   * again (the marked outputs' tasks): which doc stands for each is kept per list of ids until a task
   * comes or goes. Null before the index is ready and when `entries` holds a task twice.
   */
  placesOfTasks(taskIds: readonly string[], entries: readonly HistoryEntry[]): Int32Array | null {
    if (this.state !== 'ready') return null;
    let known = this.taskDocs.get(taskIds);
    if (known?.version !== this.docsVersion) {
      known = {
        version: this.docsVersion,
        docs: Int32Array.from(taskIds, (id) => this.held.get(id)?.doc ?? -1),
      };
      this.taskDocs.set(taskIds, known);
    }
    const { docs } = known;
    const out = new Int32Array(taskIds.length);
    if (entries === this.target) {
      if (this.repeats) return null;
      for (let m = 0; m < docs.length; m++) out[m] = docs[m]! >= 0 ? this.places[docs[m]!]! : -1;
      return out;
    }
    const list = this.listPlaces(entries);
    if (list.repeats) return null;
    const others = list.others.size > 0 ? list.others : null;
    for (let m = 0; m < docs.length; m++)
      out[m] = docs[m]! >= 0 ? list.placeOfDoc[docs[m]!]! : (others?.get(taskIds[m]!) ?? -1);
    return out;
  }

  /** A list's docs by place and places by doc, found once per list and state of the index. */
  private listPlaces(entries: readonly HistoryEntry[]): ListPlaces {
    const known = this.lists.get(entries);
    if (known?.version === this.changes) return known;
    const docOfPlace = new Int32Array(entries.length);
    const placeOfDoc = new Int32Array(this.slots.length).fill(-1);
    const others = new Map<string, number>();
    const unheld: number[] = [];
    let repeats = false;
    // Walked beside the list last given: a later list is mostly the same objects in the same order (a
    // task replaced, one added in front), so an entry is found by identity there, not looked up by id.
    const target = this.repeats ? [] : this.target;
    let j = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      let doc: number;
      if (j < target.length && target[j] === entry) {
        doc = this.docAt[j++]!;
        docOfPlace[i] = doc;
      } else {
        const slot = this.held.get(entry.taskId);
        if (!slot) {
          docOfPlace[i] = -1;
          unheld.push(i);
          if (others.has(entry.taskId)) repeats = true;
          else others.set(entry.taskId, i);
          continue;
        }
        doc = slot.doc;
        docOfPlace[i] = slot.entry === entry ? doc : -1;
        if (docOfPlace[i] === -1) unheld.push(i);
        // Back in step with the last list after its task there.
        if (target.length > 0) j = this.places[doc]! + 1;
      }
      if (placeOfDoc[doc] !== -1) repeats = true;
      else placeOfDoc[doc] = i;
    }
    const list: ListPlaces = { version: this.changes, docOfPlace, placeOfDoc, others, unheld, repeats };
    this.lists.set(entries, list);
    return list;
  }
}
