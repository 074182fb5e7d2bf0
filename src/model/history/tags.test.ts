import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from './history-store';
import type { HistoryEntry } from './history-types';
import { cleanTags, countTags, MAX_TAGS, normalizeTag, TagStore, tagsByOutput } from './tags';

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

const entry = (taskId: string, connectionId = A): HistoryEntry => ({
  taskId,
  connectionId,
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

describe('normalizeTag', () => {
  it('trims, lowers the case and makes each run of white space one dash', () => {
    expect(normalizeTag('  Client   A ')).toEqual({ ok: true, tag: 'client-a' });
    expect(normalizeTag('Needs_Upscale')).toEqual({ ok: true, tag: 'needs_upscale' });
    expect(normalizeTag('x'.repeat(40))).toEqual({ ok: true, tag: 'x'.repeat(40) });
  });

  it('takes letters and digits of any script', () => {
    expect(normalizeTag('Straße 2')).toEqual({ ok: true, tag: 'straße-2' });
    expect(normalizeTag('日本')).toEqual({ ok: true, tag: '日本' });
    expect(normalizeTag('हिन्दी')).toEqual({ ok: true, tag: 'हिन्दी' });
  });

  it('answers why a tag is refused: nothing left, too long, a character tags do not take', () => {
    expect(normalizeTag('   ')).toEqual({ ok: false, error: 'empty' });
    expect(normalizeTag('x'.repeat(41))).toEqual({ ok: false, error: 'too-long' });
    expect(normalizeTag('<b>')).toEqual({ ok: false, error: 'characters' });
    expect(normalizeTag('a,b')).toEqual({ ok: false, error: 'characters' });
    expect(normalizeTag('#cats')).toEqual({ ok: false, error: 'characters' });
  });

  it('cleanTags keeps the tags already in their kept form, each once, at most 20', () => {
    expect(cleanTags(['a', 'A', 'a', 'b c', 'ok', 5, null, 'x'.repeat(41)])).toEqual(['a', 'ok']);
    expect(cleanTags('a')).toEqual([]);
    expect(cleanTags(Array.from({ length: 30 }, (_, i) => `t${i}`))).toHaveLength(MAX_TAGS);
  });
});

describe('TagStore', () => {
  it('adds a tag to several outputs at once and removes it from them; one notification each time', async () => {
    let now = 100;
    const store = await TagStore.open(A, { db, now: () => now });
    let heard = 0;
    store.subscribe(() => heard++);
    const before = store.snapshot();

    expect(await store.add(['t1#0', 't2#0'], 'Portrait')).toEqual({ ok: true, changed: 2, full: 0 });
    expect(store.snapshot()).not.toBe(before);
    expect(store.get('t1#0')).toEqual(['portrait']);
    now = 200;
    expect(await store.add(['t1#0'], 'client a')).toEqual({ ok: true, changed: 1, full: 0 });
    expect(store.records().get('t1#0')).toEqual({
      outputKey: 't1#0',
      tags: ['portrait', 'client-a'],
      at: 200,
    });
    // Already there: nothing changes.
    expect(await store.add(['t1#0', 't1#0'], 'PORTRAIT')).toEqual({ ok: true, changed: 0, full: 0 });

    expect(await store.remove(['t1#0', 't2#0', 't3#0'], 'portrait')).toEqual({
      ok: true,
      changed: 2,
      full: 0,
    });
    expect([...store.snapshot()]).toEqual([['t1#0', ['client-a']]]);
    expect(heard).toBe(3);
  });

  it('refuses a tag that is not one, with its reason, and writes nothing', async () => {
    const store = await TagStore.open(A, { db });
    expect(await store.add(['t1#0'], '  ')).toEqual({ ok: false, error: 'empty' });
    expect(await store.add(['t1#0'], 'x'.repeat(41))).toEqual({ ok: false, error: 'too-long' });
    expect(await store.add(['not-an-output'], 'ok')).toEqual({ ok: true, changed: 0, full: 0 });
    expect(store.snapshot().size).toBe(0);
  });

  it('an output with 20 tags takes no more: it is counted as full, the others of the selection are tagged', async () => {
    const store = await TagStore.open(A, { db });
    for (let i = 0; i < MAX_TAGS; i++) await store.add(['t1#0'], `tag-${i}`);
    expect(await store.add(['t1#0', 't2#0'], 'one-more')).toEqual({ ok: true, changed: 1, full: 1 });
    expect(store.get('t1#0')).toHaveLength(MAX_TAGS);
    expect(store.get('t2#0')).toEqual(['one-more']);
  });

  it('keeps tags per connection across a reload; an output whose last tag is removed is gone', async () => {
    const a = await TagStore.open(A, { db, now: () => 5 });
    await a.add(['t1#0'], 'keep');
    await a.add(['t2#0'], 'drop');
    await a.remove(['t2#0'], 'drop');

    await reload();
    const again = await TagStore.open(A, { db });
    expect(again.list()).toEqual([{ outputKey: 't1#0', tags: ['keep'], at: 5 }]);
    expect((await TagStore.open(B, { db })).list()).toEqual([]);
  });

  it('counts every tag over the outputs, the most used first (the suggestions)', async () => {
    const store = await TagStore.open(A, { db });
    await store.add(['t1#0', 't2#0', 't3#0'], 'cat');
    await store.add(['t1#0', 't2#0'], 'night');
    await store.add(['t3#0'], 'day');
    expect(store.allTags()).toEqual([
      { tag: 'cat', count: 3 },
      { tag: 'night', count: 2 },
      { tag: 'day', count: 1 },
    ]);
    expect(store.allTags()).toBe(store.allTags());
  });

  it('setTags writes a whole list with its time, cleaned; an empty one takes the tags away', async () => {
    const store = await TagStore.open(A, { db, now: () => 9 });
    await store.setTags('t1#0', ['a', 'a', 'Bad Tag', 'b'], 42);
    expect(store.records().get('t1#0')).toEqual({ outputKey: 't1#0', tags: ['a', 'b'], at: 42 });
    await store.setTags('t1#0', []);
    expect(store.snapshot().has('t1#0')).toBe(false);
  });

  it('reads a stored record cleaned, and skips one that does not parse (another version, or tampered with)', async () => {
    const database = await db();
    await database.put('tags', { connectionId: A, outputKey: 't1#0', tags: 'cat', at: 1 });
    await database.put('tags', { connectionId: A, outputKey: 't2#0', tags: ['<img>'], at: 1 });
    await database.put('tags', { connectionId: A, outputKey: 't3#0', tags: ['ok', 'Not Ok', 'ok'], at: 2 });
    const store = await TagStore.open(A, { db });
    expect(store.list()).toEqual([{ outputKey: 't3#0', tags: ['ok'], at: 2 }]);
  });

  it('travels in the history file: exported for the outputs the history has; on import the file’s tags join those here', async () => {
    const history = await HistoryStore.open(A);
    await history.put(entry('t1'));
    const store = await TagStore.open(A, { db, now: () => 9 });
    await store.add(['t1#0', 'gone#0'], 'cat');
    expect(store.historySection().export(history)).toEqual([{ outputKey: 't1#0', tags: ['cat'], at: 9 }]);

    const other = await HistoryStore.open(B);
    await other.put(entry('t1', B));
    const target = await TagStore.open(B, { db, now: () => 20 });
    await target.add(['t1#0'], 'dog');
    const result = await target
      .historySection()
      .import(
        [
          { outputKey: 't1#0', tags: ['cat', 'dog', '<script>'], at: 9 },
          { outputKey: 't1#0', tags: 'cat', at: 1 },
          { outputKey: 'not-an-output', tags: ['cat'], at: 1 },
          { outputKey: 'unknown#0', tags: ['cat'], at: 1 },
          '<img src=x onerror=alert(1)>',
        ],
        other,
      );
    expect(result).toEqual({ kept: 1, skipped: 4 });
    expect(target.list()).toEqual([{ outputKey: 't1#0', tags: ['dog', 'cat'], at: 20 }]);
  });
});

describe('tagsByOutput', () => {
  it('is this member’s tags alone (the same Map) outside a team', () => {
    const mine = new Map([['t1#0', ['cat']]]);
    expect(tagsByOutput(mine)).toBe(mine);
    expect(tagsByOutput(mine, new Map())).toBe(mine);
  });

  it('joins everyone’s tags of an output, this member’s first, each tag once', () => {
    const mine = new Map([
      ['t1#0', ['cat', 'night']],
      ['t2#0', ['dog']],
    ]);
    const team = new Map([
      [
        't1#0',
        [
          { memberId: 'key_bob', tags: ['night', 'blue'], at: 20 },
          { memberId: 'key_ann', tags: ['cat', 'night'], at: 10 },
        ],
      ],
      ['t3#0', [{ memberId: 'key_bob', tags: ['fox'], at: 1 }]],
    ]);
    expect(tagsByOutput(mine, team)).toEqual(
      new Map([
        ['t1#0', ['cat', 'night', 'blue']],
        ['t2#0', ['dog']],
        ['t3#0', ['fox']],
      ]),
    );
    expect(countTags(tagsByOutput(mine, team))[0]).toEqual({ tag: 'blue', count: 1 });
  });
});

describe('the database upgrade to version 8', () => {
  it('adds the tags and saved searches stores and keeps every store of version 7 with its records', async () => {
    // A version 7 database as the studio made it (db.ts), one review in it.
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
      ['reviews', 'outputKey'],
    ];
    const v7 = await openDB(DB_NAME, 7, {
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
    await v7.put('reviews', { connectionId: A, outputKey: 't1#0', state: 'approved', note: '', at: 1 });
    v7.close();

    const upgraded = await db();
    expect(upgraded.version).toBe(8);
    expect([...upgraded.objectStoreNames].sort()).toEqual(
      [...pairs.map(([name]) => name), 'outbox', 'searches', 'tags'].sort(),
    );
    expect(await upgraded.get('reviews', [A, 't1#0'])).toMatchObject({ state: 'approved' });
    const store = await TagStore.open(A, { db });
    await store.add(['t1#0'], 'cat');
    expect(await upgraded.count('tags')).toBe(1);
  });
});
