import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../client';
import { connectionId } from '../connection-id';
import { cachedCatalogNames, catalogQueries } from './catalog-queries';
import { meQueries } from './me-queries';
import { fetchQuote, quoteQueries } from './quote-queries';

const KEY = 'gm_live_0123456789abcdefghijklmnopqrstuv';
const BASE = 'https://api.example.test/v1';
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

const setup = (fetch: typeof globalThis.fetch) => {
  const api = new ApiClient({ baseUrl: BASE, apiKey: KEY, fetch });
  return { api, conn: connectionId(BASE, KEY), qc: new QueryClient() };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('query option factories', () => {
  it('builds keys general to specific, with the connection id and never the key', () => {
    const { api, conn } = setup(vi.fn<typeof fetch>());
    const keys = [
      meQueries.detail(api, conn).queryKey,
      catalogQueries.models(api, conn, 'image', 'default').queryKey,
      catalogQueries.aiTools(api, conn).queryKey,
      catalogQueries.aiTools(api, conn, 'video').queryKey,
      catalogQueries.aiTool(api, conn, 'bg-remove').queryKey,
      catalogQueries.templates(api, conn, 'image').queryKey,
      catalogQueries.template(api, conn, 'neon').queryKey,
    ];
    expect(keys).toEqual([
      ['me', conn],
      ['catalog', conn, 'models', 'image', 'default'],
      ['catalog', conn, 'ai-tools', 'list', 'all'],
      ['catalog', conn, 'ai-tools', 'list', 'video'],
      ['catalog', conn, 'ai-tools', 'detail', 'bg-remove'],
      ['catalog', conn, 'templates', 'list', 'image'],
      ['catalog', conn, 'templates', 'detail', 'neon'],
    ]);
    expect(JSON.stringify(keys)).not.toContain(KEY);
  });

  it('keeps the caches of two keys apart', () => {
    const { api } = setup(vi.fn<typeof fetch>());
    const a = meQueries.detail(api, connectionId(BASE, KEY)).queryKey;
    const b = meQueries.detail(api, connectionId(BASE, `${KEY.slice(0, -1)}x`)).queryKey;
    expect(a).not.toEqual(b);
  });

  it('fetches through the client, passing the abort signal, with no retries of its own', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json({ models: [] }));
    const { api, conn, qc } = setup(fetch);
    const options = catalogQueries.models(api, conn, 'audio', 'music');
    expect(options.retry).toBe(false);
    await expect(qc.fetchQuery(options)).resolves.toEqual({ items: [], skipped: [] });
    expect(fetch.mock.calls[0]?.[1]?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('the catalog names the search box suggests', () => {
  it('are the names and versions of the catalog lists read so far, from the cache alone', () => {
    const client = new QueryClient();
    const conn = connectionId('https://api.example.test/v1', 'key');
    const prefix = catalogQueries.connection(conn);
    client.setQueryData([...prefix, 'models', 'image', 'default'], {
      items: [{ name: 'Aurora XL', versions: [{ id: 'aurora-1' }, { id: 'aurora-2' }] }],
      skipped: [],
    });
    client.setQueryData([...prefix, 'ai-tools', 'list', 'all'], {
      items: [{ name: 'Upscale Pro' }],
      skipped: [],
    });
    // A detail answer is one item, not a list: not read.
    client.setQueryData([...prefix, 'templates', 'detail', 'x'], { name: 'Not a list' });
    expect(cachedCatalogNames(client)).toEqual({
      names: ['Aurora XL', 'Upscale Pro'],
      versions: ['aurora-1', 'aurora-2'],
    });
    expect(cachedCatalogNames(new QueryClient())).toEqual({ names: [], versions: [] });
  });

  it('gives the same names object until a catalog answer changes, so the search box merges them once', () => {
    const client = new QueryClient();
    const prefix = catalogQueries.connection(connectionId('https://api.example.test/v1', 'key'));
    client.setQueryData([...prefix, 'ai-tools', 'list', 'all'], {
      items: [{ name: 'Upscale Pro' }],
      skipped: [],
    });
    const first = cachedCatalogNames(client);
    expect(cachedCatalogNames(client)).toBe(first);
    client.setQueryData([...prefix, 'templates', 'list', 'all'], {
      items: [{ name: 'Poster' }],
      skipped: [],
    });
    const second = cachedCatalogNames(client);
    expect(second).not.toBe(first);
    expect(second.names).toEqual(['Upscale Pro', 'Poster']);
  });
});

describe('the price queries', () => {
  const request = { interfaceId: 'lumen-canvas', versionId: 'v2', params: { prompt: 'a fox', seed: 1 } };
  const sameInAnotherOrder = {
    params: { seed: 1, prompt: 'a fox' },
    versionId: 'v2',
    interfaceId: 'lumen-canvas',
  };

  it('key a body by its stable text after the connection: the same body in another key order is one entry', () => {
    const api = { quote: vi.fn() };
    expect(quoteQueries.request(api, 'conn-a', request).queryKey).toEqual(
      quoteQueries.request(api, 'conn-a', sameInAnotherOrder).queryKey,
    );
    expect(quoteQueries.request(api, 'conn-b', request).queryKey).not.toEqual(
      quoteQueries.request(api, 'conn-a', request).queryKey,
    );
  });

  it('ask once for callers at the same time, answer from the cache while fresh, and ask anew with maxAgeMs 0', async () => {
    let n = 0;
    const api = { quote: vi.fn(() => Promise.resolve({ credits: ++n, currency: 'credits' } as never)) };
    const client = new QueryClient();
    const [a, b] = await Promise.all([
      fetchQuote(client, api, 'c', request),
      fetchQuote(client, api, 'c', sameInAnotherOrder),
    ]);
    expect(api.quote).toHaveBeenCalledTimes(1);
    expect(a).toEqual(b);
    // Compare's cells read the same entry the form filled.
    expect(client.getQueryData(quoteQueries.request(api, 'c', request).queryKey)).toEqual(a);
    await fetchQuote(client, api, 'c', request);
    expect(api.quote).toHaveBeenCalledTimes(1);
    // The queue's check before it pays: never a cached price.
    expect(await fetchQuote(client, api, 'c', request, { maxAgeMs: 0 })).toMatchObject({ credits: 2 });
    expect(api.quote).toHaveBeenCalledTimes(2);
  });
});
