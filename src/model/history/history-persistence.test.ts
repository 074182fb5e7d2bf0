import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../contract/task';
import { DB_NAME, db, resetDbForTests } from '../db';
import { reloadAtOnce } from '../../test/page-unload';
import { HistoryStore } from './history-store';
import type { HistoryEntry } from './history-types';

const A = 'conn-a';

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
  status: 'queued',
  outputs: [],
  error: null,
  creditsCharged: null,
  createdAt: 1_000,
  completedAt: null,
  unseen: false,
});

describe('history writes', () => {
  it('keeps an entry, and a poll answer, written just before the page goes (an immediate reload)', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1'));
    const done: Task = {
      taskId: 't1',
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.test/t1.png' }],
      error: null,
      creditsCharged: 2,
      createdAt: new Date(1_000).toISOString(),
      completedAt: new Date(2_000).toISOString(),
    };
    const written = Promise.allSettled([store.put(entry('t2')), store.applyTask(done)]);
    await reloadAtOnce();
    await written;

    await reload();
    const again = await HistoryStore.open(A);
    expect(again.isLocal('t2')).toBe(true);
    expect(again.localList().find((e) => e.taskId === 't1')).toMatchObject({ status: 'succeeded' });
  });
});
