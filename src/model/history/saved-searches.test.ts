import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from './history-store';
import { SavedSearchStore, savedSearchesOf } from './saved-searches';

const A = 'conn-a';
const B = 'conn-b';

async function reload() {
  (await db()).close();
  resetDbForTests();
}

beforeEach(async () => {
  await reload();
  await deleteDB(DB_NAME);
});

/** A store whose ids are s1, s2, ... and whose clock the test moves. */
async function openStore(connectionId = A, clock = { now: 100 }) {
  let n = 0;
  return SavedSearchStore.open(connectionId, { db, now: () => clock.now, newId: () => `s${++n}` });
}

describe('SavedSearchStore', () => {
  it('saves a search under a name, renames it and deletes it; one notification each time', async () => {
    const clock = { now: 100 };
    const store = await openStore(A, clock);
    let heard = 0;
    store.subscribe(() => heard++);

    const saved = await store.save('  Cats   at night ', 'cat night');
    expect(saved).toEqual({
      ok: true,
      search: { id: 's1', name: 'Cats at night', query: 'cat night', at: 100 },
    });
    clock.now = 200;
    expect(await store.rename('s1', 'Night cats')).toEqual({
      ok: true,
      search: { id: 's1', name: 'Night cats', query: 'cat night', at: 200 },
    });
    expect(store.snapshot()).toEqual([{ id: 's1', name: 'Night cats', query: 'cat night', at: 200 }]);
    expect(await store.remove('s1')).toBe(true);
    expect(await store.remove('s1')).toBe(false);
    expect(store.snapshot()).toEqual([]);
    expect(heard).toBe(3);
  });

  it('saving again under a name it has gives that search the new text (no second one)', async () => {
    const clock = { now: 1 };
    const store = await openStore(A, clock);
    await store.save('Cats', 'cat');
    clock.now = 2;
    await store.save('Dogs', 'dog');
    clock.now = 3;
    await store.save('Cats ', 'cat -dog');
    expect(store.snapshot()).toEqual([
      { id: 's1', name: 'Cats', query: 'cat -dog', at: 3 },
      { id: 's2', name: 'Dogs', query: 'dog', at: 2 },
    ]);
  });

  it('answers why a search cannot be saved or renamed so, and writes nothing', async () => {
    const store = await openStore();
    expect(await store.save('   ', 'cat')).toEqual({ ok: false, error: 'name-empty' });
    expect(await store.save('x'.repeat(81), 'cat')).toEqual({ ok: false, error: 'name-too-long' });
    expect(await store.save('Cats', 'q'.repeat(501))).toEqual({ ok: false, error: 'query-too-long' });
    expect(store.snapshot()).toEqual([]);
    expect(await store.rename('nope', 'Cats')).toEqual({ ok: false, error: 'not-found' });
    await store.save('x'.repeat(80), 'q'.repeat(500));
    expect(await store.rename('s1', '')).toEqual({ ok: false, error: 'name-empty' });
    expect(store.snapshot()[0]!.name).toBe('x'.repeat(80));
  });

  it('keeps searches per connection across a reload, newest first; a stored one that does not parse is skipped', async () => {
    const clock = { now: 1 };
    const a = await openStore(A, clock);
    await a.save('Older', 'a');
    clock.now = 2;
    await a.save('Newer', 'b');
    await (await db()).put('searches', { connectionId: A, id: 'bad', name: '', query: 'x', at: 3 });

    await reload();
    const again = await SavedSearchStore.open(A, { db });
    expect(again.snapshot().map((s) => s.name)).toEqual(['Newer', 'Older']);
    expect((await SavedSearchStore.open(B, { db })).snapshot()).toEqual([]);
  });

  it('put keeps a search as it is, with its id and time (another device’s); one that does not parse is left out', async () => {
    const store = await openStore();
    await store.put({ id: 'x1', name: 'From the phone', query: 'fox', at: 7 });
    await store.put({ id: 'x2', name: '', query: 'fox', at: 7 });
    expect(store.snapshot()).toEqual([{ id: 'x1', name: 'From the phone', query: 'fox', at: 7 }]);
  });

  it('travels in the history file; on import a search newer here stays and one that does not parse is skipped', async () => {
    const history = await HistoryStore.open(A);
    const store = await openStore(A, { now: 5 });
    await store.save('Cats', 'cat');
    const exported = store.historySection().export(history);
    expect(exported).toEqual([{ id: 's1', name: 'Cats', query: 'cat', at: 5 }]);

    const target = await openStore(B, { now: 50 });
    await target.put({ id: 's1', name: 'Cats here', query: 'cat', at: 50 });
    const result = await target
      .historySection()
      .import(
        [...(exported as unknown[]), { id: 's9', name: 'Dogs', query: 'dog', at: 1 }, { id: 's8' }, '<img>'],
        history,
      );
    expect(result).toEqual({ kept: 2, skipped: 2 });
    expect(target.snapshot()).toEqual([
      { id: 's1', name: 'Cats here', query: 'cat', at: 50 },
      { id: 's9', name: 'Dogs', query: 'dog', at: 1 },
    ]);
    expect((await openStore(A)).historySection().export(history)).toEqual([
      { id: 's1', name: 'Cats', query: 'cat', at: 5 },
    ]);
  });
});

describe('savedSearchesOf', () => {
  const mine = [{ id: 's1', name: 'Mine', query: 'cat', at: 10 }];

  it('is this member’s own outside a team', () => {
    expect(savedSearchesOf(mine)).toEqual([{ ...mine[0], by: null, mine: true }]);
  });

  it('in a team, lists everyone’s with who saved them, this member’s once (the device’s copy), newest first', () => {
    const team = [
      { id: 's2', name: 'Bob’s', query: 'dog', by: 'key_bob', at: 20 },
      { id: 's1', name: 'Mine (older copy)', query: 'cat', by: 'key_ann', at: 5 },
      { id: 's3', name: 'Mine from the phone', query: 'fox', by: 'key_ann', at: 1 },
    ];
    expect(savedSearchesOf(mine, { searches: team, memberId: 'key_ann' })).toEqual([
      { id: 's2', name: 'Bob’s', query: 'dog', by: 'key_bob', at: 20, mine: false },
      { id: 's1', name: 'Mine', query: 'cat', by: 'key_ann', at: 10, mine: true },
      { id: 's3', name: 'Mine from the phone', query: 'fox', by: 'key_ann', at: 1, mine: true },
    ]);
  });
});
