import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HiddenTasks } from './hidden-tasks';
import { HistoryStore } from './history-store';
import type { HistoryEntry } from './history-types';
import { JudgementStore } from './judgements';
import { indexOfKey, taskIdOfKey } from './output-key';
import { reloadAtOnce } from '../../test/page-unload';

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

const entry = (taskId: string, outputs: number): HistoryEntry => ({
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
  outputs: Array.from({ length: outputs }, (_, i) => ({ url: `https://cdn.test/${taskId}-${i}.png` })),
  error: null,
  creditsCharged: 2,
  createdAt: 1_000,
  completedAt: 2_000,
  unseen: false,
});

describe('JudgementStore', () => {
  it('keeps star and rating per output and per connection, across a reload', async () => {
    const a = await JudgementStore.open(A, { db });
    const seen: number[] = [];
    a.subscribe(() => seen.push(a.snapshot().size));
    const before = a.snapshot();
    await a.toggleStar('t1#0');
    await a.setRating('t1#1', 4);
    expect(a.snapshot()).not.toBe(before);
    expect(seen).toEqual([1, 2]);

    await reload();
    const again = await JudgementStore.open(A, { db });
    expect(again.get('t1#0')).toMatchObject({ starred: true, rating: null });
    expect(again.get('t1#1')).toMatchObject({ starred: false, rating: 4 });
    expect((await JudgementStore.open(B, { db })).snapshot().size).toBe(0);
  });

  it('keeps a star and a rating made just before the page goes (an immediate reload)', async () => {
    const a = await JudgementStore.open(A, { db });
    // Not awaited: the star shows at once, and the user reloads before the write has answered.
    const written = Promise.allSettled([a.toggleStar('t1#0'), a.setRating('t1#1', 4)]);
    await reloadAtOnce();
    await written;

    await reload();
    const again = await JudgementStore.open(A, { db });
    expect(again.get('t1#0')).toMatchObject({ starred: true });
    expect(again.get('t1#1')).toMatchObject({ rating: 4 });
  });

  it('deletes a judgement left blank, and refuses a rating outside 1-5', async () => {
    const a = await JudgementStore.open(A, { db });
    await a.setStarred(['t1#0', 't2#0'], true);
    await a.setStarred(['t1#0'], false);
    await a.setRating('t2#0', 2);
    await a.setRating('t2#0', null);
    expect(a.get('t1#0')).toBeUndefined();
    await expect(a.setRating('t2#0', 6)).rejects.toThrow();
    await reload();
    const again = await JudgementStore.open(A, { db });
    expect(again.list().map((j) => [j.outputKey, j.starred, j.rating])).toEqual([['t2#0', true, null]]);
  });

  it('parses what it reads: a malformed record in the database is ignored', async () => {
    await (await db()).put('judgements', { connectionId: A, outputKey: 'x#0', rating: 'five' });
    await (await db()).put('judgements', { connectionId: A, outputKey: 'y#0', rating: 5 });
    await reload();
    const a = await JudgementStore.open(A, { db });
    expect([...a.snapshot().keys()]).toEqual(['y#0']);
  });

  it('splits output keys', () => {
    expect(taskIdOfKey('task_a#b#3')).toBe('task_a#b');
    expect(indexOfKey('task_a#b#3')).toBe(3);
  });
});

describe('history export and import with judgements', () => {
  it('carries stars and ratings of known outputs, and says what it skipped', async () => {
    const history = await HistoryStore.open(A);
    await history.put(entry('t1', 2));
    await history.put(entry('t2', 1));
    const judgements = await JudgementStore.open(A, { db });
    await judgements.setStarred(['t1#1'], true);
    await judgements.setRating('t2#0', 5);
    await judgements.setRating('gone#0', 3); // a task no longer in the history: not exported
    history.addSection('judgements', judgements.historySection());

    const text = await history.exportFile();
    const file = JSON.parse(text) as { judgements: Array<{ outputKey: string }> };
    expect(file.judgements.map((j) => j.outputKey).sort()).toEqual(['t1#1', 't2#0']);
    expect(text).not.toContain(A);

    // Another connection imports it, with extra judgements for outputs it does not have.
    const withUnknown = JSON.stringify({
      ...JSON.parse(text),
      judgements: [
        ...file.judgements,
        { outputKey: 't1#7', starred: true }, // no such output
        { outputKey: 'nope#0', rating: 2 }, // no such task
        { outputKey: 't1#0', rating: 9 }, // unreadable
      ],
    });
    const other = await HistoryStore.open(B);
    other.addSection('judgements', (await JudgementStore.open(B, { db })).historySection());
    expect(await other.importJson(withUnknown)).toEqual({
      added: 2,
      updated: 0,
      skipped: 0,
      sections: { judgements: { kept: 2, skipped: 3 } },
    });
    await reload();
    const reopened = await JudgementStore.open(B, { db });
    expect(reopened.get('t1#1')?.starred).toBe(true);
    expect(reopened.get('t2#0')?.rating).toBe(5);
    expect(reopened.get('t1#7')).toBeUndefined();
  });

  it('a file without judgements imports as before', async () => {
    const history = await HistoryStore.open(A);
    await history.put(entry('t1', 1));
    history.addSection('judgements', (await JudgementStore.open(A, { db })).historySection());
    const text = await history.exportFile();
    expect(JSON.parse(text)).not.toHaveProperty('judgements');
    const other = await HistoryStore.open(B);
    other.addSection('judgements', (await JudgementStore.open(B, { db })).historySection());
    expect(await other.importJson(text)).toEqual({ added: 1, updated: 0, skipped: 0, sections: {} });
  });
});

describe('HiddenTasks', () => {
  it('hides and shows tasks again, per connection, across a reload', async () => {
    const hidden = await HiddenTasks.open(A, { db });
    await hidden.hide(['t1', 't2']);
    const snap = hidden.snapshot();
    await hidden.unhide(['t1']);
    expect(hidden.snapshot()).not.toBe(snap);
    await reload();
    expect([...(await HiddenTasks.open(A, { db })).snapshot()]).toEqual(['t2']);
    expect((await HiddenTasks.open(B, { db })).snapshot().size).toBe(0);
  });

  it('keeps a Hide and a Show again made just before the page goes (an immediate reload)', async () => {
    const hidden = await HiddenTasks.open(A, { db });
    await hidden.hide(['t1']);
    const written = Promise.allSettled([hidden.hide(['t2']), hidden.unhide(['t1'])]);
    await reloadAtOnce();
    await written;
    await reload();
    expect([...(await HiddenTasks.open(A, { db })).snapshot()]).toEqual(['t2']);
  });
});
