import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openConnectionStores } from './connection-stores';
import { DB_NAME, db, resetDbForTests } from './db';
import { KeepersStore } from './history/keepers';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
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
