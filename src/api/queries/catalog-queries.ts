import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../client';
import type { ConnectionId } from '../connection-id';
import type { MediaType, ModelType } from '../../../contract/category';

// The catalog changes rarely; five minutes of freshness spares the rate limits (api-notes §8).
const CATALOG_STALE_MS = 5 * 60_000;

export const catalogQueries = {
  all: () => ['catalog'] as const,
  connection: (connection: ConnectionId) => [...catalogQueries.all(), connection] as const,
  models: (api: ApiClient, connection: ConnectionId, type: ModelType, subType: string) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'models', type, subType] as const,
      queryFn: ({ signal }) => api.listModels(type, subType, { signal }),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  aiTools: (api: ApiClient, connection: ConnectionId, type?: MediaType) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'ai-tools', 'list', type ?? 'all'] as const,
      queryFn: ({ signal }) => api.listAiTools(type, { signal }),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  aiTool: (api: ApiClient, connection: ConnectionId, slug: string) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'ai-tools', 'detail', slug] as const,
      queryFn: ({ signal }) => api.getAiTool(slug, { signal }),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  templates: (api: ApiClient, connection: ConnectionId, type?: MediaType) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'templates', 'list', type ?? 'all'] as const,
      queryFn: ({ signal }) => api.listTemplates(type, { signal }),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  template: (api: ApiClient, connection: ConnectionId, slug: string) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'templates', 'detail', slug] as const,
      queryFn: ({ signal }) => api.getTemplate(slug, { signal }),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
};
