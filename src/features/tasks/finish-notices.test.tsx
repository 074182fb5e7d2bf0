import 'fake-indexeddb/auto';
import { cleanup, render, waitFor } from '@testing-library/react';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Task } from '../../../contract/task';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import { HistoryStore } from '../../model/history/history-store';
import { useFinishNotices } from './finish-notices';

const CONNECTION = 'conn-notices';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  document.title = 'Media Studio';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const queued = (taskId: string, createdAt: number) => ({
  taskId,
  connectionId: CONNECTION,
  request: { interfaceId: 'm', versionId: 'v', params: { prompt: `prompt ${taskId}` } },
  meta: {
    title: 'Model',
    subtitle: '',
    kind: 'model' as const,
    mediaType: 'image' as const,
    estimatedSeconds: 1,
    quotedCredits: 4,
  },
  status: 'queued' as const,
  outputs: [],
  error: null,
  creditsCharged: 4,
  createdAt,
  completedAt: null,
  unseen: false,
});

const done = (taskId: string, createdAt: number): Task => ({
  taskId,
  status: 'succeeded',
  outputs: [{ url: `https://cdn.example/${taskId}.png` }],
  error: null,
  creditsCharged: 4,
  createdAt: new Date(createdAt).toISOString(),
  completedAt: new Date(createdAt + 1_000).toISOString(),
});

// 1,000 tasks queued with the page responsive (docs/benchmarks.md "polling"): the notices live in useTasks,
// whose host is the whole studio; the history changing (each poll's answer) must not render it.
it('badges the title and notifies for a task that finished unseen, without rendering its host', async () => {
  const shown: string[] = [];
  class FakeNotification {
    static permission = 'granted';
    constructor(title: string) {
      shown.push(title);
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  const store = await HistoryStore.open(CONNECTION);
  const t0 = Date.now() - 10_000;
  await store.put(queued('a', t0));
  await store.put(queued('b', t0 + 1));
  let renders = 0;
  function Host() {
    renders++;
    useFinishNotices(store);
    return null;
  }
  render(<Host />);
  expect(document.title).toBe('Media Studio');

  await store.applyTask(done('a', t0));
  await waitFor(() => expect(document.title).toBe('(1) Media Studio'));
  expect(shown).toEqual(['Task succeeded: Model']);
  await store.applyTasks([{ task: { ...done('b', t0 + 1), status: 'failed' } }]);
  await waitFor(() => expect(document.title).toBe('(2) Media Studio'));
  expect(shown).toEqual(['Task succeeded: Model', 'Task failed: Model']);
  // An answer that changes nothing new about a finished task notifies nothing more.
  await store.applyTask(done('a', t0));
  await store.markSeen();
  await waitFor(() => expect(document.title).toBe('Media Studio'));
  expect(shown).toHaveLength(2);
  expect(renders).toBe(1);
});
