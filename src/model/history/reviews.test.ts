import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from './history-store';
import type { HistoryEntry } from './history-types';
import { reviewStatesOf, ReviewStore } from './reviews';

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

const entry = (taskId: string): HistoryEntry => ({
  taskId,
  connectionId: A,
  request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: `prompt of ${taskId}` } },
  meta: {
    title: 'Model One',
    subtitle: 'v1',
    kind: 'model',
    mediaType: 'image',
    category: 'image/default',
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status: 'succeeded',
  outputs: [{ url: `https://cdn.test/${taskId}-0.png` }],
  error: null,
  creditsCharged: 2,
  createdAt: 1_000,
  completedAt: 2_000,
  unseen: false,
});

describe('ReviewStore', () => {
  it('sets a review with its note and time, changes it, and takes it back', async () => {
    let now = 100;
    const store = await ReviewStore.open(A, { db, now: () => now });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.snapshot().size));
    const before = store.snapshot();

    await store.set('t1#0', { state: 'approved', note: 'Good light' });
    expect(store.snapshot()).not.toBe(before);
    expect(store.get('t1#0')).toEqual({ outputKey: 't1#0', state: 'approved', note: 'Good light', at: 100 });

    now = 200;
    await store.set('t1#0', { state: 'changes', note: 'Crop the left edge' });
    expect(store.get('t1#0')).toEqual({
      outputKey: 't1#0',
      state: 'changes',
      note: 'Crop the left edge',
      at: 200,
    });

    await store.clear(['t1#0']);
    expect(store.get('t1#0')).toBeUndefined();
    expect(seen).toEqual([1, 1, 0]);
  });

  it('refuses a state it does not know and a note over the bound', async () => {
    const store = await ReviewStore.open(A, { db });
    await expect(store.set('t1#0', { state: 'maybe' as 'approved' })).rejects.toThrow();
    await expect(store.set('t1#0', { state: 'approved', note: 'x'.repeat(2_001) })).rejects.toThrow();
    expect(store.snapshot().size).toBe(0);
  });

  it('keeps reviews per connection across a reload; one taken back stays gone', async () => {
    const a = await ReviewStore.open(A, { db, now: () => 5 });
    await a.set('t1#0', { state: 'rejected', note: 'Artefacts' });
    await a.set('t2#0', { state: 'approved' });
    await a.clear(['t2#0']);

    await reload();
    const again = await ReviewStore.open(A, { db });
    expect(again.list()).toEqual([{ outputKey: 't1#0', state: 'rejected', note: 'Artefacts', at: 5 }]);
    expect((await ReviewStore.open(B, { db })).list()).toEqual([]);
  });

  it('gives a selection one state, each output keeping its own note', async () => {
    const store = await ReviewStore.open(A, { db, now: () => 7 });
    await store.set('t1#0', { state: 'changes', note: 'Too dark' });
    await store.setMany(['t1#0', 't2#0'], 'approved');
    expect(store.list()).toEqual([
      { outputKey: 't1#0', state: 'approved', note: 'Too dark', at: 7 },
      { outputKey: 't2#0', state: 'approved', note: '', at: 7 },
    ]);
  });

  it('skips a stored record that does not parse (written by another version, or tampered with)', async () => {
    const database = await db();
    await database.put('reviews', { connectionId: A, outputKey: 't1#0', state: 'maybe', at: 1 });
    await database.put('reviews', {
      connectionId: A,
      outputKey: 't2#0',
      state: 'approved',
      note: 'ok',
      at: 2,
    });
    const store = await ReviewStore.open(A, { db });
    expect(store.list()).toEqual([{ outputKey: 't2#0', state: 'approved', note: 'ok', at: 2 }]);
  });

  it('travels in the history file: exported for the outputs the history has, an unreadable record skipped on import', async () => {
    const history = await HistoryStore.open(A);
    await history.put(entry('t1'));
    const store = await ReviewStore.open(A, { db, now: () => 9 });
    await store.set('t1#0', { state: 'approved', note: '<b>fine</b>' });
    await store.set('gone#0', { state: 'rejected' });
    expect(store.historySection().export(history)).toEqual([
      { outputKey: 't1#0', state: 'approved', note: '<b>fine</b>', at: 9 },
    ]);

    const other = await HistoryStore.open(B);
    await other.put({ ...entry('t1'), connectionId: B });
    const target = await ReviewStore.open(B, { db });
    const result = await target
      .historySection()
      .import(
        [
          { outputKey: 't1#0', state: 'approved', note: 'from the file', at: 9 },
          { outputKey: 't1#0', state: 'nope', at: 1 },
          { outputKey: 'not-an-output', state: 'approved', at: 1 },
          { outputKey: 'unknown#0', state: 'rejected', at: 1 },
          '<img src=x onerror=alert(1)>',
        ],
        other,
      );
    expect(result).toEqual({ kept: 1, skipped: 4 });
    expect(target.list()).toEqual([{ outputKey: 't1#0', state: 'approved', note: 'from the file', at: 9 }]);
  });

  it('an import does not replace a newer review made here', async () => {
    const store = await ReviewStore.open(A, { db, now: () => 50 });
    await store.set('t1#0', { state: 'rejected' });
    await store.importMany([{ outputKey: 't1#0', state: 'approved', note: '', at: 10 }], () => true);
    expect(store.get('t1#0')?.state).toBe('rejected');
  });
});

describe('reviewStatesOf', () => {
  it('is each output’s newest review, of anyone’s in a team, else this member’s own', () => {
    const mine = new Map([
      ['t1#0', { outputKey: 't1#0', state: 'approved' as const, note: '', at: 10 }],
      ['t2#0', { outputKey: 't2#0', state: 'changes' as const, note: '', at: 30 }],
    ]);
    expect(reviewStatesOf(mine)).toEqual(
      new Map([
        ['t1#0', 'approved'],
        ['t2#0', 'changes'],
      ]),
    );
    const team = new Map([
      ['t1#0', [{ memberId: 'key_bob', state: 'rejected' as const, note: '', at: 20 }]],
      ['t2#0', [{ memberId: 'key_bob', state: 'approved' as const, note: '', at: 25 }]],
      ['t3#0', [{ memberId: 'key_bob', state: 'approved' as const, note: '', at: 1 }]],
    ]);
    expect(reviewStatesOf(mine, team)).toEqual(
      new Map([
        ['t1#0', 'rejected'],
        ['t2#0', 'changes'],
        ['t3#0', 'approved'],
      ]),
    );
  });
});

describe('the database upgrade to version 7', () => {
  it('adds the reviews store and keeps every store of version 6 with its records', async () => {
    // A version 6 database as the studio made it (db.ts), one judgement in it.
    const pairs: Array<[string, string]> = [
      ['tasks', 'taskId'],
      ['uploads', 'url'],
      ['boards', 'id'],
      ['judgements', 'outputKey'],
      ['hidden', 'taskId'],
      ['keepers', 'outputKey'],
      ['presets', 'id'],
      ['prompts', 'text'],
      ['votes', 'id'],
      ['catalog', 'key'],
    ];
    const v6 = await openDB(DB_NAME, 6, {
      upgrade(database) {
        database
          .createObjectStore('outbox', { keyPath: 'idempotencyKey' })
          .createIndex('byConnection', 'connectionId');
        for (const [name, field] of pairs) {
          database
            .createObjectStore(name, { keyPath: ['connectionId', field] })
            .createIndex('byConnection', 'connectionId');
        }
      },
    });
    await v6.put('judgements', { connectionId: A, outputKey: 't1#0', starred: true });
    v6.close();

    const upgraded = await db();
    // Later versions add stores of their own (tags.test.ts checks version 8's).
    expect(upgraded.version).toBeGreaterThanOrEqual(7);
    expect([...upgraded.objectStoreNames]).toEqual(
      expect.arrayContaining([...pairs.map(([name]) => name), 'outbox', 'reviews']),
    );
    expect(await upgraded.get('judgements', [A, 't1#0'])).toMatchObject({ starred: true });
    const store = await ReviewStore.open(A, { db });
    await store.set('t1#0', { state: 'approved' });
    expect(await upgraded.count('reviews')).toBe(1);
  });
});
