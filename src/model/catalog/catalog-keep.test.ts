import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { deleteDB, openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../api/client';
import { connectionId } from '../../api/connection-id';
import { catalogKeepOf, catalogQueries, keepCatalog } from '../../api/queries/catalog-queries';
import { models } from '../../../sandbox/src/public-catalog';
import { DB_NAME, db, resetDbForTests } from '../db';
import { CatalogKeepStore, forgetCatalog } from './catalog-keep';

const BASE = 'https://api.example.test/v1';
const KEY = 'gm_live_0123456789abcdefghijklmnopqrstuv';
const OTHER_KEY = 'gm_live_zyxwvutsrqponmlkjihgfedcba9876543';
const SAVED_AT = Date.UTC(2026, 10, 26, 21, 30);
const lumen = models.find((m) => m.id === 'lumen-canvas');
const answer = () => Promise.resolve(new Response(JSON.stringify({ models: [lumen] }), { status: 200 }));
const noNetwork = () => Promise.reject(new TypeError('Failed to fetch'));

/** One connection's studio: an API client over `fetch`, and a query client keeping its catalog. */
const studioOf = (fetch: typeof globalThis.fetch, key = KEY) => {
  const api = new ApiClient({ baseUrl: BASE, apiKey: key, fetch, sleep: () => Promise.resolve() });
  const conn = connectionId(BASE, key);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const keep = new CatalogKeepStore(conn, { now: () => SAVED_AT });
  keepCatalog(qc, keep);
  const options = catalogQueries.models(api, conn, 'image', 'default');
  /** `fresh`: asked again even though the last answer is within the catalog's freshness. */
  const models = (fresh = false) => qc.fetchQuery(fresh ? { ...options, staleTime: 0 } : options);
  return { conn, keep, models, qc };
};

/** Waits for the fire-and-forget write of an answer. */
const stored = async () => {
  await vi.waitFor(async () => expect(await (await db()).count('catalog')).toBeGreaterThan(0));
};

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the catalog kept on the device', () => {
  it('answers from the device when the network has no answer, and says from when', async () => {
    expect(lumen).toBeDefined();
    const online = studioOf(vi.fn(answer));
    expect((await online.models()).items.map((m) => m.id)).toEqual(['lumen-canvas']);
    await stored();
    expect(online.keep.offlineFrom()).toBeNull();

    const offline = studioOf(vi.fn(noNetwork));
    const kept = await offline.models();
    expect(kept.items.map((m) => m.id)).toEqual(['lumen-canvas']);
    expect(offline.keep.offlineFrom()).toBe(SAVED_AT);
  });

  it('reads the device first when the browser is offline, without waiting on the network', async () => {
    await studioOf(vi.fn(answer)).models();
    await stored();
    vi.stubGlobal('navigator', { onLine: false });
    // A request that never ends: the kept catalog is shown all the same.
    const fetch = vi.fn(() => new Promise<Response>(() => undefined));
    const offline = studioOf(fetch);
    expect((await offline.models()).items).toHaveLength(1);
    expect(offline.keep.offlineFrom()).toBe(SAVED_AT);
  });

  it('offline, still asks the network, and its answer replaces the kept one once it comes', async () => {
    await studioOf(vi.fn(answer)).models();
    await stored();
    vi.stubGlobal('navigator', { onLine: false });
    const second = models.find((m) => m.id !== 'lumen-canvas' && m.type === 'image');
    let reply: (response: Response) => void = () => undefined;
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (reply = resolve)));
    const studio = studioOf(fetch);
    expect((await studio.models()).items).toHaveLength(1);
    expect(fetch).toHaveBeenCalledTimes(1);

    reply(new Response(JSON.stringify({ models: [lumen, second] }), { status: 200 }));
    await vi.waitFor(() => expect(studio.keep.offlineFrom()).toBeNull());
    const key = catalogQueries.models(
      new ApiClient({ baseUrl: BASE, apiKey: KEY }),
      studio.conn,
      'image',
      'default',
    ).queryKey;
    expect(studio.qc.getQueryData(key)?.items).toHaveLength(2);
  });

  it('is kept per connection: another key of the same service sees none of it', async () => {
    await studioOf(vi.fn(answer)).models();
    await stored();
    await expect(studioOf(vi.fn(noNetwork), OTHER_KEY).models()).rejects.toMatchObject({
      code: 'network_error',
    });
  });

  it('holds no key: every stored record is keyed by the connection id and carries no key', async () => {
    const { conn, models } = studioOf(vi.fn(answer));
    await models();
    await stored();
    const raw = await openDB(DB_NAME);
    const records: unknown[] = await raw.getAll('catalog');
    raw.close();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ connectionId: conn, savedAt: SAVED_AT });
    expect(JSON.stringify(records)).not.toContain(KEY);
    expect(JSON.stringify(records)).not.toContain('Bearer');
  });

  it('is forgotten with its connection, and only that one', async () => {
    const mine = studioOf(vi.fn(answer));
    await mine.models();
    await studioOf(vi.fn(answer), OTHER_KEY).models();
    await vi.waitFor(async () => expect(await (await db()).count('catalog')).toBe(2));

    await forgetCatalog(mine.conn);
    await expect(studioOf(vi.fn(noNetwork)).models()).rejects.toMatchObject({ code: 'network_error' });
    expect((await studioOf(vi.fn(noNetwork), OTHER_KEY).models()).items).toHaveLength(1);
  });

  it("never hides the service's own answer: a refusal is shown, not the kept catalog", async () => {
    await studioOf(vi.fn(answer)).models();
    await stored();
    const refused = () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: { code: 'invalid_api_key', message: 'no' } }), { status: 401 }),
      );
    await expect(studioOf(vi.fn(refused)).models()).rejects.toMatchObject({ status: 401 });
  });

  it('checks what it reads: a kept entry that no longer reads as a model is dropped', async () => {
    const { conn } = studioOf(vi.fn(answer));
    const database = await db();
    await database.put('catalog', {
      connectionId: conn,
      key: JSON.stringify(['models', 'image', 'default']),
      data: { items: [lumen, { id: 42 }], skipped: [] },
      savedAt: SAVED_AT,
    });
    expect((await studioOf(vi.fn(noNetwork)).models()).items.map((m) => m.id)).toEqual(['lumen-canvas']);
  });

  it('is found through the query client, and an answer from the network clears the offline hint', async () => {
    await studioOf(vi.fn(answer)).models();
    await stored();
    let online = false;
    const fetch = vi.fn(() => (online ? answer() : noNetwork()));
    const studio = studioOf(fetch);
    await studio.models();
    expect(studio.keep.offlineFrom()).toBe(SAVED_AT);
    expect(catalogKeepOf(studio.qc)).toBe(studio.keep);
    online = true;
    await studio.models(true);
    expect(studio.keep.offlineFrom()).toBeNull();
    expect(catalogKeepOf(new QueryClient())).toBeNull();
  });
});
