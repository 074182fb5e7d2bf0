import { categoryKey, CATEGORIES } from '../../../contract/category';
import type { CatalogNames } from '../../api/queries/catalog-queries';
import { formatCount } from '../../lib/format';
import type { HistoryEntry } from '../../model/history/history-types';
import { countTags } from '../../model/history/tags';
import { facetKeys, keyLabel, type Facet } from '../../model/search/entry-facets';
import { SEARCH_FIELDS } from '../../model/search/query';
import { byCount, type FacetValue, type SearchIndex } from '../../model/search/search-index';
import { lastWordStart, type QuerySuggestion } from './query-box';

// What the search box suggests for the word being typed (docs/using.md "Search"): a field's name while the
// word has no ':' yet ("mo" -> "model:"), then that field's values from what the history and the catalog
// hold ("model:au" -> "model:\"Aurora XL\""). Values with a space are quoted, as the search language reads
// them. The values come from the search index once it is built (each facet's distinct keys with their
// counts, kept with its postings: nothing scanned per keystroke), and from the list until then.

/** A field the search knows, with what it means in a few words (the suggestion's second line). */
export interface FieldHint {
  id: string;
  hint: string;
}

/** A value to suggest, with a second line (how many tasks have it). */
interface SuggestedValue {
  value: string;
  detail?: string;
}

/** The values to suggest for a field id (in lowercase): the history's models, the tags in use... */
export type ValueSources = (field: string) => readonly SuggestedValue[];

const quoted = (value: string) => (/[\s"]/.test(value) ? `"${value.replace(/"/g, '')}"` : value);

export function suggestionsFor(
  text: string,
  fields: readonly FieldHint[],
  values: ValueSources,
  limit = 8,
): QuerySuggestion[] {
  const word = text.slice(lastWordStart(text));
  const negated = word.startsWith('-') ? '-' : '';
  const bare = word.slice(negated.length);
  const colon = bare.indexOf(':');
  if (colon < 0) {
    // A field's name: only once a letter is typed (a free word is the commonest search).
    if (!bare) return [];
    const prefix = bare.toLowerCase();
    return fields
      .filter((f) => f.id.startsWith(prefix) && f.id !== prefix)
      .slice(0, limit)
      .map((f) => ({ insert: `${negated}${f.id}:`, label: `${f.id}:`, detail: f.hint }));
  }
  const field = bare.slice(0, colon).toLowerCase();
  const typed = bare
    .slice(colon + 1)
    .replace(/^"/, '')
    .toLowerCase();
  const out: QuerySuggestion[] = [];
  for (const { value, detail } of values(field)) {
    if (out.length >= limit) break;
    const lower = value.toLowerCase();
    if (lower === typed || !(lower.startsWith(typed) || (typed.length > 1 && lower.includes(typed))))
      continue;
    const insert = `${negated}${field}:${quoted(value)}`;
    out.push({ insert, label: insert, detail });
  }
  return out;
}

/** Past this many distinct values a param's are not suggested (a seed, a prompt: each task its own). */
const MAX_PARAM_VALUES = 100;

const CHOICES = new Map(SEARCH_FIELDS.flatMap((f) => (f.choices ? [[f.id, f.choices] as const] : [])));

/** The facet whose keys are a field's values; null for a field with choices, tags or no values to offer. */
function facetOf(field: string): Facet | null {
  switch (field) {
    case 'model':
    case 'version':
    case 'category':
    case 'by':
      return field;
    case 'rating':
    case 'tag':
    case 'ratio':
    case 'after':
    case 'before':
    case 'on':
      return null;
    default:
      // seed: and any other param by its id.
      return CHOICES.has(field) ? null : `param:${field}`;
  }
}

/**
 * The same values as the index's facetValues, from the list (before the index is ready): null for a
 * param with too many to suggest.
 */
function scanFacet(entries: readonly HistoryEntry[], facet: Facet): FacetValue[] | null {
  const found = new Map<string, { key: string; label: string | null; count: number }>();
  const param = facet.startsWith('param:');
  for (const entry of entries) {
    for (const key of facetKeys(entry, facet)) {
      let value = found.get(key);
      if (!value) {
        if (param && found.size >= MAX_PARAM_VALUES) return null;
        value = { key, label: null, count: 0 };
        found.set(key, value);
      }
      value.count++;
      value.label ??= keyLabel(entry, facet, key);
    }
  }
  return [...found.values()].sort(byCount);
}

/**
 * The values to suggest: a field's choices (status:, media:, is:), the tags in use with their counts,
 * and for the other fields the history's values with how many tasks have each, most first. From the
 * index when it is ready, else from `entries`; each field's made when first asked.
 */
export function valueSources(
  entries: readonly HistoryEntry[],
  tags: ReadonlyMap<string, readonly string[]>,
  index?: SearchIndex,
): ValueSources {
  const made = new Map<string, readonly SuggestedValue[]>();
  const ready = index?.ready === true;
  const facetValues = (facet: Facet): readonly FacetValue[] | null => {
    if (!ready) return scanFacet(entries, facet);
    const many = facet.startsWith('param:') && (index.facetSize(facet) ?? 0) > MAX_PARAM_VALUES;
    return many ? null : index.facetValues(facet);
  };
  const valuesOf = (field: string): readonly SuggestedValue[] => {
    const choices = CHOICES.get(field);
    if (choices) return choices.map((value) => ({ value }));
    if (field === 'tag')
      return countTags(tags).map(({ tag, count }) => ({ value: tag, detail: formatCount(count) }));
    const facet = facetOf(field);
    const values = facet ? facetValues(facet) : null;
    if (!values) return [];
    const out: SuggestedValue[] = [];
    for (const { label, count } of values)
      if (label !== null) out.push({ value: label, detail: formatCount(count) });
    return out;
  };
  return (field) => {
    let values = made.get(field);
    if (!values) {
      values = valuesOf(field);
      made.set(field, values);
    }
    return values;
  };
}

/**
 * The history's values, then what the catalog names that the history does not have yet (a model never
 * run, a category never used): `model:` offers the catalog's models, tools and templates read so far,
 * `version:` their versions, `category:` every category of the API.
 */
export function withCatalog(values: ValueSources, catalog: CatalogNames): ValueSources {
  const extra = (field: string): readonly string[] => {
    if (field === 'model') return catalog.names;
    if (field === 'version') return catalog.versions;
    if (field === 'category') return CATEGORIES.map(categoryKey);
    return [];
  };
  return (field) => {
    const own = values(field);
    const more = extra(field);
    if (more.length === 0) return own;
    const seen = new Set(own.map((v) => v.value.toLowerCase()));
    const added = more.filter((v) => !seen.has(v.toLowerCase())).map((value) => ({ value }));
    return added.length === 0 ? own : [...own, ...added];
  };
}
