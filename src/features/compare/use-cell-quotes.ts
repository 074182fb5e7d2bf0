import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useApi } from '../../api/api-context';
import { quoteQueries } from '../../api/queries/quote-queries';
import type { Quote } from '../../../contract/quote';
import type { PlannedCell } from './board-model';

// A quote per runnable cell of a board, asked once the typing settles, through the price queries: identical
// bodies share one request, the form's live quote of the same body included.

const QUOTE_DEBOUNCE_MS = 600;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

export interface CellQuote {
  quote?: Quote;
  error: string | null;
}

/** Each runnable cell's quote (or the error asking it), by the cell's request body. */
export function useCellQuotes(planned: readonly PlannedCell[]): ReadonlyMap<string, CellQuote> {
  const { client, connectionId } = useApi();
  const quotable = useDebounced(
    useMemo(() => planned.filter((c) => !c.problem), [planned]),
    QUOTE_DEBOUNCE_MS,
  );
  const quotes = useQueries({
    queries: quotable.map((cell) => quoteQueries.request(client, connectionId, cell.request)),
  });
  const quoteByBody = new Map<string, CellQuote>();
  quotable.forEach((cell, i) => {
    const q = quotes[i];
    quoteByBody.set(cell.body, { quote: q?.data, error: q?.error ? q.error.message : null });
  });
  return quoteByBody;
}
