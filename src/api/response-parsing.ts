import { z } from 'zod/mini';
import { invalidResponse } from './errors';

// How the client reads a 2xx body: parsed with its contract schema, an answer that does not parse is an
// ApiError (api-notes §7 "invalid response"); a list keeps every entry that parses and reports the others.

export interface SkippedEntry {
  index: number;
  /** The entry's id or slug when it had a readable one. */
  id?: string;
  issues: z.core.$ZodIssue[];
}

/** One bad catalog entry is reported and skipped, never breaking the list. */
export interface ListResult<T> {
  items: T[];
  skipped: SkippedEntry[];
}

export const parseWith =
  <T>(schema: z.ZodMiniType<T>) =>
  (json: unknown, status: number): T => {
    const result = schema.safeParse(json);
    if (!result.success) throw invalidResponse(status, result.error.issues);
    return result.data;
  };

const EntryIdSchema = z.union([
  z.pipe(
    z.looseObject({ id: z.string() }),
    z.transform((e: { id: string }) => e.id),
  ),
  z.pipe(
    z.looseObject({ slug: z.string() }),
    z.transform((e: { slug: string }) => e.slug),
  ),
]);

export function parseEntries<T>(entries: readonly unknown[], schema: z.ZodMiniType<T>): ListResult<T> {
  const result: ListResult<T> = { items: [], skipped: [] };
  entries.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) {
      result.items.push(parsed.data);
      return;
    }
    const id = EntryIdSchema.safeParse(entry);
    result.skipped.push({ index, ...(id.success ? { id: id.data } : {}), issues: parsed.error.issues });
  });
  return result;
}
