import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ARCHIVED_BEFORE } from '../../contract/team-history';
import { archivedBeforeOf } from '../../contract/team-history';
import { archiveRoom, planArchive } from './archive';
import { openSqlite, sqliteHistoryStore } from './history-sqlite';
import { taskRecord } from './history-store.conformance';
import type { HistoryStore } from './history-store';

// The move of finished tasks out of a room's document (archive.ts), on plain Y.Docs and the SQLite store.

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 15);
const WINDOW = { days: 7, maxTasks: 5 };

function memoryStore(): HistoryStore {
  return sqliteHistoryStore(openSqlite());
}

function roomWith(records: Array<Record<string, unknown>>): Y.Doc {
  const doc = new Y.Doc();
  doc.transact(() => {
    for (const r of records) doc.getMap('tasks').set(r.taskId as string, r);
  });
  return doc;
}

const liveIds = (doc: Y.Doc) => [...doc.getMap('tasks').keys()].sort();

async function storedIds(store: HistoryStore, room = 'team:t') {
  const page = await store.page(room, { limit: 500 });
  return page.tasks.map((t) => (t as { taskId: string }).taskId).sort();
}

/** A two-way sync of two copies (what a provider and the server exchange). */
function sync(a: Y.Doc, b: Y.Doc) {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

describe('moving finished tasks out of the document', () => {
  it('moves finished tasks older than the window; unfinished ones stay whatever their age', async () => {
    const doc = roomWith([
      taskRecord(1, { createdAt: NOW - 30 * DAY }),
      taskRecord(2, { createdAt: NOW - 30 * DAY, status: 'running' }),
      taskRecord(3, { createdAt: NOW - 8 * DAY, status: 'failed' }),
      taskRecord(4, { createdAt: NOW - 6 * DAY }),
    ]);
    const store = memoryStore();
    expect(await archiveRoom(doc, 'team:t', store, NOW, WINDOW)).toBe(2);
    expect(liveIds(doc)).toEqual(['task-000002', 'task-000004']);
    expect(await storedIds(store)).toEqual(['task-000001', 'task-000003']);
    expect(archivedBeforeOf(doc)).toBe(NOW - 7 * DAY);
    // Nothing more to move: a second pass changes nothing.
    expect(await archiveRoom(doc, 'team:t', store, NOW, WINDOW)).toBe(0);
  });

  it('keeps at most the window’s count of finished tasks, the newest, and raises the watermark to the oldest kept', async () => {
    const records = Array.from({ length: 9 }, (_, i) =>
      taskRecord(i + 1, { createdAt: NOW - (9 - i) * 1000 }),
    );
    const doc = roomWith(records);
    const store = memoryStore();
    expect(await archiveRoom(doc, 'team:t', store, NOW, WINDOW)).toBe(4);
    expect(liveIds(doc)).toEqual(['task-000005', 'task-000006', 'task-000007', 'task-000008', 'task-000009']);
    expect(archivedBeforeOf(doc)).toBe(NOW - 5000);
    expect(await store.count('team:t')).toBe(4);
  });

  it('never lowers the watermark, and leaves a record rewritten while the store was written', async () => {
    const doc = roomWith([
      taskRecord(1, { createdAt: NOW - 30 * DAY }),
      taskRecord(2, { createdAt: NOW - 20 * DAY }),
    ]);
    doc.getMap('meta').set(ARCHIVED_BEFORE, NOW);
    const store = memoryStore();
    const put = store.put.bind(store);
    // The maker rewrites task 2 while the pass waits on the store.
    store.put = async (room, tasks) => {
      await put(room, tasks);
      doc.getMap('tasks').set('task-000002', taskRecord(2, { createdAt: NOW - 20 * DAY, credits: 9 }));
    };
    expect(await archiveRoom(doc, 'team:t', store, NOW, WINDOW)).toBe(1);
    expect(liveIds(doc)).toEqual(['task-000002']);
    expect(archivedBeforeOf(doc)).toBe(NOW);
    // The next pass stores the rewritten record in place of the first.
    store.put = put;
    expect(await archiveRoom(doc, 'team:t', store, NOW, WINDOW)).toBe(1);
    expect((await store.page('team:t', { q: 'fox number 2' })).tasks).toEqual([
      taskRecord(2, { createdAt: NOW - 20 * DAY, credits: 9 }),
    ]);
  });

  it('a store that fails leaves the document as it was', async () => {
    const doc = roomWith([taskRecord(1, { createdAt: NOW - 30 * DAY })]);
    const store = memoryStore();
    store.put = () => Promise.reject(new Error('database down'));
    await expect(archiveRoom(doc, 'team:t', store, NOW, WINDOW)).rejects.toThrow('database down');
    expect(liveIds(doc)).toEqual(['task-000001']);
    expect(archivedBeforeOf(doc)).toBe(0);
  });

  it('a window boundary crossed while members are offline on both sides merges with nothing lost', async () => {
    const server = new Y.Doc();
    const ada = new Y.Doc();
    const bob = new Y.Doc();
    const store = memoryStore();
    const old = (n: number, by: string) => taskRecord(n, { by, createdAt: NOW - 10 * DAY + n });
    server.transact(() => {
      for (let n = 1; n <= 4; n++)
        server.getMap('tasks').set(`task-00000${n}`, old(n, n % 2 ? 'ada' : 'bob'));
    });
    sync(server, ada);
    sync(server, bob);
    // Offline: Ada finishes task 5 (made before the boundary) and starts task 6; Bob makes task 7 and
    // rewrites his task 2 with its final credits. Meanwhile the server moves the old tasks out.
    ada.getMap('tasks').set('task-000005', old(5, 'ada'));
    ada
      .getMap('tasks')
      .set('task-000006', taskRecord(6, { by: 'ada', createdAt: NOW - 9 * DAY, status: 'running' }));
    bob.getMap('tasks').set('task-000007', taskRecord(7, { by: 'bob', createdAt: NOW - DAY }));
    bob.getMap('tasks').set('task-000002', { ...old(2, 'bob'), creditsCharged: 7 });
    expect(await archiveRoom(server, 'team:t', store, NOW, WINDOW)).toBe(4);
    // Back online, in either order.
    sync(bob, server);
    sync(ada, server);
    sync(bob, server);
    await archiveRoom(server, 'team:t', store, NOW, WINDOW);
    sync(server, ada);
    sync(server, bob);
    const live = liveIds(server);
    const kept = await storedIds(store);
    // Every task is in exactly one place; every copy of the room agrees.
    expect([...live, ...kept].sort()).toEqual([
      'task-000001',
      'task-000002',
      'task-000003',
      'task-000004',
      'task-000005',
      'task-000006',
      'task-000007',
    ]);
    expect(live).toEqual(['task-000006', 'task-000007']);
    expect(liveIds(ada)).toEqual(live);
    expect(liveIds(bob)).toEqual(live);
    // Bob's rewrite reached the store; the month sums count each task once.
    expect((await store.page('team:t', { q: 'number 2' })).tasks).toEqual([
      { ...old(2, 'bob'), creditsCharged: 7 },
    ]);
    const months = await store.months('team:t');
    expect(months.reduce((n, m) => n + m.tasks, 0)).toBe(5);
    expect(months.reduce((n, m) => n + m.credits, 0)).toBe(4 * 2 + 7);
  });

  it('plans nothing for a room inside its window', () => {
    const doc = roomWith([taskRecord(1, { createdAt: NOW - DAY })]);
    expect(planArchive(doc, NOW, WINDOW)).toBeUndefined();
  });
});
