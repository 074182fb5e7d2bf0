import type { ParamValue } from '../../../contract/task';
import { dayKey } from '../../lib/local-day';
import type { HistoryEntry } from '../history/history-types';

// What the search (query.ts) sees of a history entry, in one place for the direct scan and the index
// (search-index.ts) alike: a lowercase haystack of its texts for free words, and for each field the
// "keys" the entry has (lowercase strings). A term matches an entry when one of the entry's keys for
// the term's facet passes the term's test; the index keeps, per facet, key -> task ids, so both ways
// answer the same by construction.

/** The facets a field term looks at; `param:<id>` (id in lowercase) for any request param. */
export type Facet =
  'text' | 'model' | 'version' | 'category' | 'status' | 'media' | 'by' | 'ratio' | 'day' | `param:${string}`;

/** The prompt param, when the task had one as text. */
export function promptOf(params: Record<string, ParamValue>): string | null {
  const prompt = params.prompt;
  return typeof prompt === 'string' && prompt.trim() ? prompt : null;
}

function negativeOf(params: Record<string, ParamValue>): string {
  const negative = params.negative_prompt ?? params.negativePrompt;
  return typeof negative === 'string' ? negative : '';
}

// Entries are replaced, never mutated, so what is derived from one can be cached per object.
const haystacks = new WeakMap<HistoryEntry, string>();

/** The prompt, the negative prompt and the title, lowercase, a line each: what free words are found in. */
export function haystackOf(entry: HistoryEntry): string {
  let text = haystacks.get(entry);
  if (text === undefined) {
    const params = entry.request.params;
    text = `${promptOf(params) ?? ''}\n${negativeOf(params)}\n${entry.meta.title}`.toLowerCase();
    haystacks.set(entry, text);
  }
  return text;
}

const days = new WeakMap<HistoryEntry, string>();

/**
 * The local day the task was made, "2026-03-01" (local-day.ts), once per entry object: its tiles share
 * it (200,000 Dates per change otherwise).
 */
export function dayOf(entry: HistoryEntry): string {
  let day = days.get(entry);
  if (day === undefined) {
    day = dayKey(entry.createdAt);
    days.set(entry, day);
  }
  return day;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/;

/** The number a key (or a typed value) spells, or null: "30", "7.5", "-1", "1e3"; not "", "nan", "0x1f". */
export function numberOf(text: string): number | null {
  return NUMBER.test(text) ? Number(text) : null;
}

const RATIO = /^(\d+(?:\.\d+)?)\s*[:/x×]\s*(\d+(?:\.\d+)?)$/;

/** "16:9", "16/9", "16x9" or a plain number as width / height; null for anything else. */
export function ratioNumber(text: string): number | null {
  const m = RATIO.exec(text.trim().toLowerCase());
  if (m) {
    const width = Number(m[1]);
    const height = Number(m[2]);
    return width > 0 && height > 0 ? width / height : null;
  }
  const n = numberOf(text.trim());
  return n !== null && n > 0 ? n : null;
}

// ---- keys without garbage ------------------------------------------------------------------------
// The index files every key of every entry (50,000 tasks: some 1.5 million keys) in background slices,
// and what it allocates for that is garbage the collector must catch up with inside those slices. So
// the keys are given to a sink object (no arrays per facet, no closure per entry), a key already in
// lowercase is the entry's own string (toLowerCase copies even then), and the few strings derived from
// short values (a model's title in lowercase, "name:ana", an aspect ratio's number) are made once each.

/** Whether the string holds an ASCII capital or any non-ASCII character (which toLowerCase may change). */
function mayChangeCase(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return true;
  }
  return false;
}

/** Derived strings of short values, each made once (a bounded table: past it, made each time). */
class Derived {
  private readonly made = new Map<string, string | null>();
  constructor(private readonly make: (value: string) => string | null) {}
  of(value: string): string | null {
    let out = this.made.get(value);
    if (out === undefined) {
      out = this.make(value);
      if (value.length <= 64 && this.made.size < 10_000) this.made.set(value, out);
    }
    return out;
  }
}

const lowered = new Derived((value) => value.toLowerCase());

/** The value in lowercase: itself when it already is (no copy). */
function lowerKey(value: string): string {
  return mayChangeCase(value) ? lowered.of(value)! : value;
}

const memberNames = new Derived((name) => `name:${name.toLowerCase()}`);
const memberIds = new Derived((id) => `id:${id}`);

/** A string aspect ratio's key: its number when it is one ("16:9" -> "1.7777777777777777"), else its text. */
const aspectKeys = new Derived((aspect) => {
  const n = ratioNumber(aspect);
  if (n !== null) return String(n);
  const text = aspect.trim();
  return text ? text.toLowerCase() : null;
});

function scalarKey(v: string | number | boolean): string {
  if (typeof v === 'string') return lowerKey(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  // Finite numbers are written in lowercase already ("1e+21"); Infinity and NaN are not.
  return Number.isFinite(v) ? String(v) : String(v).toLowerCase();
}

function positive(v: ParamValue | undefined): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? numberOf(v.trim()) : null;
  return n !== null && n > 0 && Number.isFinite(n) ? n : null;
}

/** Where an entry's keys go: the index files them, the scan collects one facet's. */
export interface FacetKeySink {
  /**
   * A run of the haystack without whitespace, haystack[start, end): given as a range, so that a word
   * the index knows costs no new string. The same word may come twice.
   */
  token(haystack: string, start: number, end: number): void;
  /** A key of a facet other than 'text'. The same key may come twice. */
  key(facet: Facet, key: string): void;
}

/** Whether a UTF-16 code unit is whitespace as the regular expression \s reads it. */
function isSpace(c: number): boolean {
  return c <= 32
    ? c === 32 || (c >= 9 && c <= 13)
    : c >= 160 &&
        (c === 160 ||
          c === 0x1680 ||
          (c >= 0x2000 && c <= 0x200a) ||
          c === 0x2028 ||
          c === 0x2029 ||
          c === 0x202f ||
          c === 0x205f ||
          c === 0x3000 ||
          c === 0xfeff);
}

/** The haystack's runs without whitespace, by range (a word there twice is given twice). */
function visitTokens(haystack: string, sink: FacetKeySink): void {
  const n = haystack.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(haystack.charCodeAt(i))) i++;
    const start = i;
    while (i < n && !isSpace(haystack.charCodeAt(i))) i++;
    if (i > start) sink.token(haystack, start, i);
  }
}

function visitLower(facet: Facet, value: string | undefined, sink: FacetKeySink): void {
  if (value) sink.key(facet, lowerKey(value));
}

/**
 * The aspect ratio's keys: the param aspect_ratio (aspectRatio) as a number when it is one ("16:9" ->
 * "1.7777777777777777"), else its text ("square"); and width / height when both are numbers.
 */
function visitRatio(params: Record<string, ParamValue>, sink: FacetKeySink): void {
  const aspect = params.aspect_ratio ?? params.aspectRatio;
  if (typeof aspect === 'number') {
    if (aspect > 0) sink.key('ratio', String(aspect));
  } else if (typeof aspect === 'string') {
    const key = aspectKeys.of(aspect);
    if (key !== null) sink.key('ratio', key);
  }
  const width = positive(params.width);
  const height = positive(params.height);
  if (width !== null && height !== null) sink.key('ratio', String(width / height));
}

/** The keys of one facet other than 'text' and the params. */
function visitFixed(entry: HistoryEntry, facet: Facet, sink: FacetKeySink): void {
  switch (facet) {
    case 'model':
      visitLower(facet, entry.meta.title, sink);
      visitLower(facet, entry.meta.modelId, sink);
      return;
    case 'version':
      visitLower(facet, entry.meta.versionId, sink);
      visitLower(facet, entry.request.versionId, sink);
      visitLower(facet, entry.meta.subtitle, sink);
      return;
    case 'category':
      visitLower(facet, entry.meta.category, sink);
      return;
    case 'status':
      sink.key(facet, entry.status);
      return;
    case 'media':
      sink.key(facet, entry.meta.mediaType);
      return;
    case 'by':
      // A task without `by` is this member's (history-types.ts).
      if (entry.by) {
        sink.key(facet, memberNames.of(entry.by.name)!);
        sink.key(facet, memberIds.of(entry.by.id)!);
      } else sink.key(facet, 'me');
      return;
    case 'ratio':
      visitRatio(entry.request.params, sink);
      return;
    case 'day':
      sink.key(facet, dayOf(entry));
      return;
  }
}

function visitParam(facet: Facet, value: ParamValue, sink: FacetKeySink): void {
  if (Array.isArray(value)) for (const v of value) sink.key(facet, scalarKey(v));
  else sink.key(facet, scalarKey(value));
}

const FIXED: readonly Facet[] = ['model', 'version', 'category', 'status', 'media', 'by', 'ratio', 'day'];

// A param's facet name, made once per param id: the index looks facets up by these strings, and a string
// made once has its hash computed once.
const paramFacets = new Map<string, Facet>();
function paramFacet(name: string): Facet {
  let facet = paramFacets.get(name);
  if (facet === undefined) {
    facet = `param:${name.toLowerCase()}`;
    if (paramFacets.size < 10_000) paramFacets.set(name, facet);
  }
  return facet;
}

/**
 * Every facet key of the entry, free-text tokens included, into `sink`: what the index files it under.
 * Two param ids that differ only in case ("Seed", "seed") are one facet.
 */
export function visitFacetKeys(entry: HistoryEntry, sink: FacetKeySink): void {
  visitTokens(haystackOf(entry), sink);
  for (const facet of FIXED) visitFixed(entry, facet, sink);
  const params = entry.request.params;
  for (const name in params) visitParam(paramFacet(name), params[name]!, sink);
}

/** One facet's keys, each once, in an array: what the direct scan tests. */
class Collect implements FacetKeySink {
  readonly keys: string[] = [];
  constructor(private readonly facet: Facet) {}
  token(haystack: string, start: number, end: number): void {
    if (this.facet === 'text') this.add(haystack.slice(start, end));
  }
  key(facet: Facet, key: string): void {
    if (facet === this.facet) this.add(key);
  }
  private add(key: string): void {
    if (!this.keys.includes(key)) this.keys.push(key);
  }
}

/** The entry's keys for a facet (for 'text', the distinct runs of its haystack without whitespace). */
export function facetKeys(entry: HistoryEntry, facet: Facet): string[] {
  const collect = new Collect(facet);
  if (facet === 'text') visitTokens(haystackOf(entry), collect);
  else if (facet.startsWith('param:')) {
    const params = entry.request.params;
    for (const name in params) if (paramFacet(name) === facet) visitParam(facet, params[name]!, collect);
  } else visitFixed(entry, facet, collect);
  return collect.keys;
}

/**
 * How a key is written in the entry, for a suggestion ("Aurora XL" for the model key "aurora xl"): the
 * values the search box suggests are a model's name, a version's id, a category, a member's name, a
 * param's value. Null for the other keys (a model's id beside its name, a version's subtitle, a member's
 * id, a prompt's word, an aspect ratio's number, a day) and for a key this entry does not have.
 */
export function keyLabel(entry: HistoryEntry, facet: Facet, key: string): string | null {
  const same = (value: string | undefined) => (value && lowerKey(value) === key ? value : null);
  switch (facet) {
    case 'text':
    case 'ratio':
    case 'day':
      return null;
    case 'model':
      return same(entry.meta.title);
    case 'version':
      return same(entry.meta.versionId) ?? same(entry.request.versionId);
    case 'category':
      return same(entry.meta.category);
    case 'status':
    case 'media':
      return key;
    case 'by':
      if (key === 'me') return entry.by ? null : key;
      return entry.by && memberNames.of(entry.by.name) === key ? entry.by.name : null;
    default: {
      const params = entry.request.params;
      for (const name in params) {
        if (paramFacet(name) !== facet) continue;
        const value = params[name]!;
        for (const v of Array.isArray(value) ? value : [value]) if (scalarKey(v) === key) return String(v);
      }
      return null;
    }
  }
}
