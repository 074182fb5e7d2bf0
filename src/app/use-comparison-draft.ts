import { useCallback, useState } from 'react';
import type { Column } from '../model/compare/boards';

/** At most this many models wait for the next board. */
const MAX_COLUMNS = 8;

export interface ComparisonDraft {
  category: string;
  columns: Column[];
}

/**
 * Models added with "Add to comparison" (from the form or the gallery), waiting for the next new board:
 * of one category (a model of another starts over), each once, at most eight.
 */
export function useComparisonDraft() {
  const [draft, setDraft] = useState<ComparisonDraft | null>(null);
  const add = useCallback((category: string, column: Column) => {
    setDraft((d) => {
      const same = d?.category === category ? d.columns : [];
      const exists = same.some((c) => c.modelId === column.modelId && c.versionId === column.versionId);
      return { category, columns: exists ? same : [...same, column].slice(0, MAX_COLUMNS) };
    });
  }, []);
  /** Hands the draft over (to a new board) and starts a new one. */
  const take = useCallback((): ComparisonDraft | null => {
    const taken = draft;
    setDraft(null);
    return taken;
  }, [draft]);
  return { draft, add, take };
}
