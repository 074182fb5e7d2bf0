import { queryOptions, type QueryClient, type QueryFunctionContext } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import type { ApiClient, ListResult } from '../client';
import type { ConnectionId } from '../connection-id';
import { ApiError } from '../errors';
import { AiToolSchema, ModelSchema, TemplateSchema } from '../../../contract/catalog';
import type { MediaType, ModelType } from '../../../contract/category';

// The catalog changes rarely; five minutes of freshness spares the rate limits (api-notes §8).
const CATALOG_STALE_MS = 5 * 60_000;

/**
 * The last catalog answers of this connection, kept on the device so the catalog and a form open again
 * offline (docs/offline.md). The app hands one to the catalog queries through their query defaults
 * (`useCatalogKeep`); without one, the catalog is read from the network only.
 */
export interface CatalogKeep {
  save(key: string, data: unknown): void;
  load(key: string): Promise<{ data: unknown; savedAt: number } | undefined>;
  /** An answer came from the network: the catalog shown is current again. */
  answered(): void;
  /** A kept answer from `savedAt` was shown because the network had none. */
  served(savedAt: number): void;
  /** When the oldest kept answer shown since the last network answer was saved; null when none. */
  offlineFrom(): number | null;
  subscribe(listener: () => void): () => void;
}

const KEEP_META = 'catalogKeep';

/** Query defaults for every catalog query of a client: read from `keep` when the network has no answer. */
export function keepCatalog(queryClient: QueryClient, keep: CatalogKeep): void {
  // 'always': offline, the query function still runs, so it can answer from the device instead of pausing.
  queryClient.setQueryDefaults(catalogQueries.all(), { meta: { [KEEP_META]: keep }, networkMode: 'always' });
}

export function catalogKeepOf(queryClient: QueryClient): CatalogKeep | null {
  const keep = queryClient.getQueryDefaults(catalogQueries.all()).meta?.[KEEP_META];
  return isKeep(keep) ? keep : null;
}

const isKeep = (value: unknown): value is CatalogKeep =>
  typeof value === 'object' && value !== null && 'load' in value && 'save' in value;

/** No answer at all (no network, or none in time); a refusal or a 5xx is the service's own answer. */
const noAnswer = (error: unknown) =>
  error instanceof ApiError && (error.code === 'network_error' || error.code === 'timeout');

const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * The query function, with the device's copy: every answer is kept; when the browser is offline, or the
 * request gets no answer, the kept one is used. Reads are never trusted: `parse` checks what was kept.
 */
function withKeep<T>(
  fetcher: (signal: AbortSignal) => Promise<T>,
  parse: (kept: unknown) => T | undefined,
): (context: QueryFunctionContext) => Promise<T> {
  return async ({ queryKey, signal, meta, client }) => {
    const keep = meta?.[KEEP_META];
    if (!isKeep(keep)) return fetcher(signal);
    // The connection is the query key's second part, and the keep is per connection already.
    const key = JSON.stringify(queryKey.slice(2));
    const fromDevice = async () => {
      const kept = await keep.load(key).catch(() => undefined);
      const data = kept ? parse(kept.data) : undefined;
      if (!kept || data === undefined) return undefined;
      keep.served(kept.savedAt);
      return data;
    };
    const fetched = async () => {
      const data = await fetcher(signal);
      keep.save(key, data);
      keep.answered();
      return data;
    };
    if (offline()) {
      const data = await fromDevice();
      if (data !== undefined) {
        // Shown at once; the network is still asked (with the client's retries), so the Connection line
        // says the service cannot be reached, and a network that is back replaces the kept answer.
        fetched().then(
          (fresh) => client.setQueryData(queryKey, fresh),
          () => undefined,
        );
        return data;
      }
    }
    try {
      return await fetched();
    } catch (error) {
      if (!noAnswer(error)) throw error;
      const data = await fromDevice();
      if (data === undefined) throw error;
      return data;
    }
  };
}

/** A kept list: its entries checked again (one that no longer reads is dropped, as the client does). */
const listOf =
  <T>(schema: z.ZodMiniType<T>) =>
  (kept: unknown): ListResult<T> | undefined => {
    if (typeof kept !== 'object' || kept === null || !('items' in kept) || !Array.isArray(kept.items))
      return undefined;
    const items = kept.items.flatMap((entry: unknown) => {
      const parsed = schema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
    return { items, skipped: [] };
  };

const oneOf =
  <T>(schema: z.ZodMiniType<T>) =>
  (kept: unknown): T | undefined => {
    const parsed = schema.safeParse(kept);
    return parsed.success ? parsed.data : undefined;
  };

export const catalogQueries = {
  all: () => ['catalog'] as const,
  connection: (connection: ConnectionId) => [...catalogQueries.all(), connection] as const,
  models: (api: ApiClient, connection: ConnectionId, type: ModelType, subType: string) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'models', type, subType] as const,
      queryFn: withKeep((signal) => api.listModels(type, subType, { signal }), listOf(ModelSchema)),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  aiTools: (api: ApiClient, connection: ConnectionId, type?: MediaType) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'ai-tools', 'list', type ?? 'all'] as const,
      queryFn: withKeep((signal) => api.listAiTools(type, { signal }), listOf(AiToolSchema)),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  aiTool: (api: ApiClient, connection: ConnectionId, slug: string) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'ai-tools', 'detail', slug] as const,
      queryFn: withKeep((signal) => api.getAiTool(slug, { signal }), oneOf(AiToolSchema)),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  templates: (api: ApiClient, connection: ConnectionId, type?: MediaType) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'templates', 'list', type ?? 'all'] as const,
      queryFn: withKeep((signal) => api.listTemplates(type, { signal }), listOf(TemplateSchema)),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
  template: (api: ApiClient, connection: ConnectionId, slug: string) =>
    queryOptions({
      queryKey: [...catalogQueries.connection(connection), 'templates', 'detail', slug] as const,
      queryFn: withKeep((signal) => api.getTemplate(slug, { signal }), oneOf(TemplateSchema)),
      retry: false,
      staleTime: CATALOG_STALE_MS,
    }),
};

/** What the catalog answers held so far name: the search box suggests them beside the history's. */
export interface CatalogNames {
  /** Models', AI tools' and templates' names. */
  names: string[];
  /** Models' version ids. */
  versions: string[];
}

/** The last names read per client, with the answers they were read from (the search box asks per keystroke). */
const namesRead = new WeakMap<QueryClient, { from: readonly unknown[]; names: CatalogNames }>();

/**
 * The names in the catalog lists this client has read (the categories browsed, the tools and templates
 * tabs): read from the query cache, nothing fetched for it. The same object while those answers are the
 * same ones, so what is built from it can be kept too.
 */
export function cachedCatalogNames(queryClient: QueryClient): CatalogNames {
  const lists = queryClient
    .getQueriesData<ListResult<unknown>>({ queryKey: catalogQueries.all() })
    .filter(([key, data]) => data && Array.isArray(data.items) && (key[2] === 'models' || key[3] === 'list'));
  const from = lists.map(([, data]) => data);
  const kept = namesRead.get(queryClient);
  if (kept && kept.from.length === from.length && kept.from.every((data, i) => data === from[i]))
    return kept.names;
  const names = new Set<string>();
  const versions = new Set<string>();
  for (const [key, data] of lists) {
    const kind = key[2];
    for (const item of data!.items as Array<{ name?: unknown; versions?: Array<{ id?: unknown }> }>) {
      if (typeof item.name === 'string' && item.name) names.add(item.name);
      if (kind === 'models')
        for (const v of item.versions ?? []) if (typeof v.id === 'string') versions.add(v.id);
    }
  }
  const read = { names: [...names], versions: [...versions] };
  namesRead.set(queryClient, { from, names: read });
  return read;
}
