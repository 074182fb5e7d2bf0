import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/api-context';
import type { TaskRequest } from '../../../contract/task';
import { QuoteScheduler, type QuoteState } from './quote-scheduler';

/** The live quote of a payload (null while the form is invalid). */
export function useLiveQuote(request: TaskRequest | null): QuoteState {
  const { client } = useApi();
  const [state, setState] = useState<QuoteState>({ quote: null, stale: false, loading: false, error: null });
  const scheduler = useRef<QuoteScheduler | null>(null);

  useEffect(() => {
    const s = new QuoteScheduler({
      fetchQuote: (body, signal) => client.quote(body, { signal }),
      onChange: setState,
    });
    scheduler.current = s;
    return () => {
      s.dispose();
      scheduler.current = null;
    };
  }, [client]);

  useEffect(() => {
    scheduler.current?.update(request);
  }, [request, client]);

  return state;
}
