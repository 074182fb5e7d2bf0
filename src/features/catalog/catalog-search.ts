import type { AiTool, Model, Template } from '../../../contract/catalog';

// The catalog search (product-notes §3): case-insensitive, over name, brand, tags and summary or description.
// Every word typed must appear somewhere in the entry, so "lumen video" narrows rather than widens.

export const searchTerms = (query: string): string[] =>
  query.toLocaleLowerCase().split(/\s+/).filter(Boolean);

export function matchesSearch(fields: ReadonlyArray<string | undefined>, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const haystack = fields
    .filter((f): f is string => typeof f === 'string')
    .join('\n')
    .toLocaleLowerCase();
  return terms.every((term) => haystack.includes(term));
}

export const modelSearchFields = (m: Model) => [m.name, m.brand.name, m.description, ...m.tags];
export const toolSearchFields = (t: AiTool) => [t.name, t.summary, ...t.tags];
export const templateSearchFields = (t: Template) => [t.name, t.summary, ...t.tags];
