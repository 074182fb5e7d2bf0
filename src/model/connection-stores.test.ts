// @vitest-environment node
// Node's Blob survives fake-indexeddb's structured clone (happy-dom's does not): a kept output's record
// is read back as a browser reads it.
import 'fake-indexeddb/auto';
import { deleteDB, type IDBPDatabase } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAll, openConnectionStores, type ConnectionStores } from './connection-stores';
import { DB_NAME, db, openStudioDb, resetDbForTests, type KeyedStoreName, type StudioDB } from './db';
import { KeepersStore } from './history/keepers';
import type { WriteErrorReporter } from './local-records';

const OTHER_DB = 'connection-stores-test';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  await deleteDB(OTHER_DB);
});
afterEach(() => vi.restoreAllMocks());

describe('openConnectionStores: one place opens a connection’s stores', () => {
  it('gives every holder of one connection the same stores, all nine of them', async () => {
    const tasks = openConnectionStores('conn-a');
    const gallery = openConnectionStores('conn-a');
    const [a, b] = await Promise.all([tasks.stores, gallery.stores]);
    expect(Object.keys(a).sort()).toEqual([
      'hidden',
      'history',
      'judgements',
      'keepers',
      'presets',
      'prompts',
      'reviews',
      'searches',
      'tags',
    ]);
    for (const name of Object.keys(a) as (keyof typeof a)[]) expect(b[name]).toBe(a[name]);
    expect(a.history.connectionId).toBe('conn-a');
    expect(a.keepers.connectionId).toBe('conn-a');
    tasks.release();
    gallery.release();
  });

  it('opens another connection’s stores apart', async () => {
    const first = openConnectionStores('conn-a');
    const second = openConnectionStores('conn-b');
    const [a, b] = await Promise.all([first.stores, second.stores]);
    expect(b.history).not.toBe(a.history);
    expect(b.judgements.connectionId).toBe('conn-b');
    first.release();
    second.release();
  });

  it('closes them when the last holder releases them, and opens them afresh after', async () => {
    const close = vi.spyOn(KeepersStore.prototype, 'close');
    const tasks = openConnectionStores('conn-a');
    const gallery = openConnectionStores('conn-a');
    const stores = await tasks.stores;

    tasks.release();
    // A second release by the same holder counts once: the gallery still holds them.
    tasks.release();
    await Promise.resolve();
    expect(close).not.toHaveBeenCalled();
    const again = openConnectionStores('conn-a');
    expect((await again.stores).history).toBe(stores.history);
    again.release();

    gallery.release();
    await vi.waitFor(() => expect(close).toHaveBeenCalledTimes(1));
    expect(close.mock.contexts[0]).toBe(stores.keepers);

    const next = openConnectionStores('conn-a');
    const reopened = await next.stores;
    expect(reopened.history).not.toBe(stores.history);
    expect(reopened.keepers).not.toBe(stores.keepers);
    next.release();
  });
});

/** The local stores opened here, each with one record of conn-a in the database given. */
const LOCAL: readonly KeyedStoreName[] = [
  'presets',
  'prompts',
  'judgements',
  'reviews',
  'tags',
  'searches',
  'hidden',
  'keepers',
];

async function seed(database: IDBPDatabase<StudioDB>, connectionId: string): Promise<void> {
  const tx = database.transaction(LOCAL, 'readwrite');
  await Promise.all([
    tx.objectStore('presets').put({
      connectionId,
      id: 'p1',
      name: 'Wide',
      itemName: 'Model One',
      request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: 'a lighthouse' } },
      createdAt: 1,
      updatedAt: 1,
    }),
    tx
      .objectStore('prompts')
      .put({ connectionId, text: 'a lighthouse', firstUsedAt: 1, lastUsedAt: 1, uses: 1 }),
    tx.objectStore('judgements').put({ connectionId, outputKey: 't1#0', starred: true, rating: null }),
    tx.objectStore('reviews').put({ connectionId, outputKey: 't1#0', state: 'approved', note: '', at: 1 }),
    tx.objectStore('tags').put({ connectionId, outputKey: 't1#0', tags: ['wide'], at: 1 }),
    tx.objectStore('searches').put({ connectionId, id: 's1', name: 'Wide', query: 'wide', at: 1 }),
    tx.objectStore('hidden').put({ connectionId, taskId: 't1', hiddenAt: 1 }),
    tx.objectStore('keepers').put({
      connectionId,
      outputKey: 't1#0',
      taskId: 't1',
      url: 'https://cdn.example.test/t1-0.png',
      contentType: 'image/png',
      size: 3,
      savedAt: 1,
      blob: new Blob(['abc']),
    }),
    tx.done,
  ]);
}

/** One write of each local store: each takes its seeded record away. */
function removeEach(s: ConnectionStores): Promise<unknown>[] {
  return [
    s.presets.remove('p1'),
    s.prompts.remove('a lighthouse'),
    s.judgements.setStarred(['t1#0'], false),
    s.reviews.clear(['t1#0']),
    s.tags.setTags('t1#0', []),
    s.searches.remove('s1'),
    s.hidden.unhide(['t1']),
    s.keepers.forget('t1#0'),
  ];
}

describe('openAll: the local stores get the database and the reporter from here', () => {
  it('every local store reads from and writes to the database it is given, not the studio’s own', async () => {
    const other = await openStudioDb(OTHER_DB);
    await seed(other, 'conn-a');

    const s = await openAll('conn-a', { db: () => Promise.resolve(other) });
    expect(s.presets.get('p1')?.name).toBe('Wide');
    expect(s.prompts.list().map((r) => r.text)).toEqual(['a lighthouse']);
    expect(s.judgements.get('t1#0')?.starred).toBe(true);
    expect(s.reviews.get('t1#0')?.state).toBe('approved');
    expect(s.tags.get('t1#0')).toEqual(['wide']);
    expect(s.searches.get('s1')?.query).toBe('wide');
    expect(s.hidden.snapshot().has('t1')).toBe(true);
    expect(s.keepers.has('t1#0')).toBe(true);

    await Promise.all(removeEach(s));
    for (const name of LOCAL)
      expect(await other.countFromIndex(name, 'byConnection', 'conn-a'), name).toBe(0);
    s.keepers.close();
    other.close();
  });

  it('every local store tells the reporter of a write that fails, with its name', async () => {
    const other = await openStudioDb(OTHER_DB);
    await seed(other, 'conn-a');
    const onError = vi.fn<WriteErrorReporter>();
    const s = await openAll('conn-a', { db: () => Promise.resolve(other), onError });
    const full = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    vi.spyOn(IDBObjectStore.prototype, 'delete').mockImplementation(() => {
      throw full;
    });

    // Presets and prompts resolve as before (the change stays in this tab); the others reject as before.
    await Promise.allSettled(removeEach(s));

    expect(onError.mock.calls.map(([, what]) => what).sort()).toEqual([...LOCAL].sort());
    for (const [error] of onError.mock.calls) expect(error).toBe(full);
    s.keepers.close();
    other.close();
  });
});
