import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/api-context';
import { fetchQuote } from '../../api/queries/quote-queries';
import type { TaskRequest } from '../../../contract/task';
import { QuoteScheduler, type QuoteState } from './quote-scheduler';

/** The live quote of a payload (null while the form is invalid). */
export function useLiveQuote(request: TaskRequest | null): QuoteState {
  const { client, connectionId } = useApi();
  const queryClient = useQueryClient();
  const [state, setState] = useState<QuoteState>({ quote: null, stale: false, loading: false, error: null });
  const scheduler = useRef<QuoteScheduler | null>(null);

  useEffect(() => {
    const s = new QuoteScheduler({
      // Through the price queries (api/queries/quote-queries.ts): a body Compare or the queue asked of
      // late is answered from there.
      fetchQuote: (body) => fetchQuote(queryClient, client, connectionId, body),
      onChange: setState,
    });
    scheduler.current = s;
    return () => {
      s.dispose();
      scheduler.current = null;
    };
  }, [client, connectionId, queryClient]);

  useEffect(() => {
    scheduler.current?.update(request);
  }, [request, client, connectionId, queryClient]);

  return state;
}
