import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../client';
import type { ConnectionId } from '../connection-id';
import { isTerminal } from '../../../contract/task';

export const taskQueries = {
  all: () => ['tasks'] as const,
  connection: (connection: ConnectionId) => [...taskQueries.all(), connection] as const,
  /**
   * One task. A terminal task never changes (api-notes §3), so it never goes stale; polling is the caller's
   * refetchInterval (a function returning false at a terminal status) under the shared budget.
   */
  detail: (api: ApiClient, connection: ConnectionId, id: string) =>
    queryOptions({
      queryKey: [...taskQueries.connection(connection), id] as const,
      queryFn: ({ signal }) => api.getTask(id, { signal }),
      retry: false,
      staleTime: (query) => (query.state.data && isTerminal(query.state.data.status) ? Infinity : 0),
    }),
};
