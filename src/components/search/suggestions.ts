import { lastWordStart, type QuerySuggestion } from './query-box';

// What the search box suggests for the word being typed (docs/using.md "Search"): a field's name while the
// word has no ':' yet ("mo" -> "model:"), then that field's values from what the history and the catalog
// hold ("model:au" -> "model:\"Aurora XL\""). Values with a space are quoted, as the search language reads
// them.

/** A field the search knows, with what it means in a few words (the suggestion's second line). */
export interface FieldHint {
  id: string;
  hint: string;
}

/** The values to suggest per field id (the catalog's and the history's models, the tags in use...). */
export type ValueSources = Readonly<Record<string, ReadonlyArray<{ value: string; detail?: string }>>>;

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
  for (const { value, detail } of values[field] ?? []) {
    if (out.length >= limit) break;
    const lower = value.toLowerCase();
    if (lower === typed || !(lower.startsWith(typed) || (typed.length > 1 && lower.includes(typed))))
      continue;
    const insert = `${negated}${field}:${quoted(value)}`;
    out.push({ insert, label: insert, detail });
  }
  return out;
}
