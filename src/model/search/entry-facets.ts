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

/**
 * The haystack's distinct runs without whitespace. A word (no whitespace) is in the haystack exactly
 * when it is inside one of them, so the index answers "every word appears" as the scan's `includes` does.
 */
function tokensOf(haystack: string): string[] {
  return [...new Set(haystack.split(/\s+/))].filter(Boolean);
}

const days = new WeakMap<HistoryEntry, string>();

/** The local day the task was made, "2026-03-01" (local-day.ts), once per entry object. */
function dayOf(entry: HistoryEntry): string {
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

const scalarKey = (v: string | number | boolean) => String(v).toLowerCase();

function positive(v: ParamValue | undefined): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? numberOf(v.trim()) : null;
  return n !== null && n > 0 && Number.isFinite(n) ? n : null;
}

/**
 * The aspect ratio's keys: the param aspect_ratio (aspectRatio) as a number when it is one ("16:9" ->
 * "1.7777777777777777"), else its text ("square"); and width / height when both are numbers.
 */
function ratioKeys(params: Record<string, ParamValue>): string[] {
  const keys: string[] = [];
  const aspect = params.aspect_ratio ?? params.aspectRatio;
  if (typeof aspect === 'string' || typeof aspect === 'number') {
    const n = typeof aspect === 'number' ? (aspect > 0 ? aspect : null) : ratioNumber(aspect);
    if (n !== null) keys.push(String(n));
    else if (typeof aspect === 'string' && aspect.trim()) keys.push(aspect.trim().toLowerCase());
  }
  const width = positive(params.width);
  const height = positive(params.height);
  if (width !== null && height !== null) {
    const n = String(width / height);
    if (!keys.includes(n)) keys.push(n);
  }
  return keys;
}

function paramKeys(value: ParamValue): string[] {
  return Array.isArray(value) ? value.map(scalarKey) : [scalarKey(value)];
}

const lower = (xs: Array<string | undefined>) =>
  xs.filter((x): x is string => !!x).map((x) => x.toLowerCase());

/** The entry's keys for a facet other than 'text' (whose words are tokensOf(haystackOf(entry))). */
export function facetKeys(entry: HistoryEntry, facet: Facet): string[] {
  switch (facet) {
    case 'text':
      return tokensOf(haystackOf(entry));
    case 'model':
      return lower([entry.meta.title, entry.meta.modelId]);
    case 'version':
      return lower([entry.meta.versionId, entry.request.versionId, entry.meta.subtitle]);
    case 'category':
      return lower([entry.meta.category]);
    case 'status':
      return [entry.status];
    case 'media':
      return [entry.meta.mediaType];
    case 'by':
      // A task without `by` is this member's (history-types.ts).
      return entry.by ? [`name:${entry.by.name.toLowerCase()}`, `id:${entry.by.id}`] : ['me'];
    case 'ratio':
      return ratioKeys(entry.request.params);
    case 'day':
      return [dayOf(entry)];
    default: {
      const id = facet.slice('param:'.length);
      const keys: string[] = [];
      for (const [name, value] of Object.entries(entry.request.params))
        if (name.toLowerCase() === id) keys.push(...paramKeys(value));
      return keys;
    }
  }
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

/** Every facet key of the entry, free-text tokens included, each once: what the index files it under. */
export function forEachFacetKey(entry: HistoryEntry, visit: (facet: Facet, key: string) => void): void {
  for (const token of tokensOf(haystackOf(entry))) visit('text', token);
  for (const facet of FIXED) {
    const keys = facetKeys(entry, facet);
    for (let i = 0; i < keys.length; i++) if (keys.indexOf(keys[i]!) === i) visit(facet, keys[i]!);
  }
  const params = entry.request.params;
  const names = Object.keys(params);
  const facets = names.map(paramFacet);
  for (let n = 0; n < names.length; n++) {
    const facet = facets[n]!;
    // Two ids that differ only in case ("Seed", "seed") are one facet: their keys are visited once.
    if (facets.indexOf(facet) !== n) continue;
    const keys: string[] = [];
    for (let m = n; m < names.length; m++)
      if (facets[m] === facet) keys.push(...paramKeys(params[names[m]!]!));
    for (let i = 0; i < keys.length; i++) if (keys.indexOf(keys[i]!) === i) visit(facet, keys[i]!);
  }
}
