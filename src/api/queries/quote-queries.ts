import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Quote } from '../../../contract/quote';
import type { TaskRequest } from '../../../contract/task';
import type { ApiClient } from '../client';
import type { ConnectionId } from '../connection-id';

// The one way a price is asked (POST /quote, api-notes §4): the form's live quote, Compare's cells and
// the queue's check before it sends all go through these options, so one body is one cache entry, asked
// once however many places want it. The key is the body's stable text (its keys sorted), after the
// connection, as the other factories (me-queries.ts) do.

/** How long a price is taken as current where being a little behind is fine (the form, Compare). */
const QUOTE_STALE_MS = 60_000;

/** Stable text of a request, so equal payloads compare equal whatever their key order. */
export function requestKey(request: TaskRequest): string {
  const sortKeys = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, x]) => [k, sortKeys(x)]),
        )
      : v;
  return JSON.stringify(sortKeys(request));
}

export const quoteQueries = {
  all: () => ['quote'] as const,
  request: (api: Pick<ApiClient, 'quote'>, connection: ConnectionId | string, request: TaskRequest) =>
    queryOptions({
      queryKey: [...quoteQueries.all(), connection, requestKey(request)] as const,
      queryFn: ({ signal }) => api.quote(request, { signal }),
      retry: false,
      staleTime: QUOTE_STALE_MS,
    }),
};

/**
 * The price of a request: the cached one when it is at most `maxAgeMs` old (default the factory's), else
 * asked, one request however many ask at once. Nothing cancels it: a quote never charges, and an answer
 * nobody waits for any more still fills the cache for the next to ask.
 */
export function fetchQuote(
  queryClient: QueryClient,
  api: Pick<ApiClient, 'quote'>,
  connection: ConnectionId | string,
  request: TaskRequest,
  { maxAgeMs = QUOTE_STALE_MS }: { maxAgeMs?: number } = {},
): Promise<Quote> {
  return queryClient.fetchQuery({ ...quoteQueries.request(api, connection, request), staleTime: maxAgeMs });
}
