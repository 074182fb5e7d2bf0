import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../client';
import type { ConnectionId } from '../connection-id';

// Query option factories (after TkDodo): general to specific keys, the connection id (never the
// key) right after the resource so switching keys separates caches. retry is off: the client already
// applies api-notes §7's retry policy, and React Query's own retries would multiply it.

export const meQueries = {
  all: () => ['me'] as const,
  detail: (api: ApiClient, connection: ConnectionId) =>
    queryOptions({
      queryKey: [...meQueries.all(), connection] as const,
      queryFn: ({ signal }) => api.me({ signal }),
      retry: false,
      staleTime: 30_000,
    }),
};
