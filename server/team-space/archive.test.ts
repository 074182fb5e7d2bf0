import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ARCHIVED_BEFORE } from '../../contract/team-history';
import { archivedBeforeOf } from '../../contract/team-history';
import { archiveRoom, planArchive, planAttached } from './archive';
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

describe('moving what was said about stored tasks', () => {
  const output = (n: number) => `task-${String(n).padStart(6, '0')}#0`;
  /** A comment as a studio writes it (team-comments.ts): a Y.Map under its id. */
  const comment = (doc: Y.Doc, id: string, n: number, more: Record<string, unknown> = {}) => {
    const c = new Y.Map<unknown>();
    for (const [k, v] of Object.entries({
      id,
      target: { kind: 'output', outputKey: output(n) },
      parentId: null,
      author: 'bob',
      body: `comment ${id}`,
      mentions: [],
      createdAt: NOW - 20 * DAY,
      ...more,
    }))
      c.set(k, v);
    doc.getMap('comments').set(id, c);
  };
  const judge = (doc: Y.Doc, who: string, n: number, value: Record<string, unknown>) =>
    doc.getMap('judgements').set(`${who}|${output(n)}`, value);
  const attachedOf = async (store: HistoryStore, taskId: string) =>
    (await store.page('team:t', { limit: 500 })).attached.find((a) => a.taskId === taskId);

  it('quiet judgements and threads follow their task into its row and leave the document; recent ones stay', async () => {
    const doc = roomWith([
      taskRecord(1, { createdAt: NOW - 30 * DAY }),
      taskRecord(2, { createdAt: NOW - 30 * DAY }),
      taskRecord(3, { createdAt: NOW - DAY }),
    ]);
    const old = NOW - 20 * DAY;
    doc.transact(() => {
      judge(doc, 'ada', 1, { starred: true, rating: 5, updatedAt: old });
      judge(doc, 'bob', 1, { starred: false, rating: 3, updatedAt: old });
      // Changed yesterday: stays until quiet.
      judge(doc, 'ada', 2, { starred: true, rating: null, updatedAt: NOW - DAY });
      // Its task is live: stays.
      judge(doc, 'ada', 3, { starred: true, rating: null, updatedAt: old });
      comment(doc, 'c1', 1);
      comment(doc, 'c1r', 1, { parentId: 'c1', author: 'ada', createdAt: old + 1 });
      // A thread answered yesterday stays whole; one resolved yesterday too.
      comment(doc, 'c2', 2);
      comment(doc, 'c2r', 2, { parentId: 'c2', createdAt: NOW - DAY });
      comment(doc, 'c3', 2, { resolution: { resolved: true, by: 'ada', at: NOW - DAY } });
    });
    const store = memoryStore();
    expect(await archiveRoom(doc, 'team:t', store, NOW, WINDOW)).toBe(2);
    expect([...doc.getMap('judgements').keys()].sort()).toEqual([`ada|${output(2)}`, `ada|${output(3)}`]);
    expect([...doc.getMap('comments').keys()].sort()).toEqual(['c2', 'c2r', 'c3']);
    const one = await attachedOf(store, 'task-000001');
    expect(Object.keys(one!.judgements).sort()).toEqual([`ada|${output(1)}`, `bob|${output(1)}`]);
    expect(one!.comments.c1r).toMatchObject({ parentId: 'c1', author: 'ada', body: 'comment c1r' });
    expect(Object.keys(one!.comments).sort()).toEqual(['c1', 'c1r']);
    expect(await attachedOf(store, 'task-000002')).toBeUndefined();

    // A week later the rest is quiet: it follows, the stored task keeps what it had.
    expect(await archiveRoom(doc, 'team:t', store, NOW + 8 * DAY, WINDOW)).toBe(1);
    expect([...doc.getMap('judgements').keys()]).toEqual([]);
    expect(doc.getMap('comments').size).toBe(0);
    expect(Object.keys((await attachedOf(store, 'task-000002'))!.comments).sort()).toEqual([
      'c2',
      'c2r',
      'c3',
    ]);
    expect(Object.keys((await attachedOf(store, 'task-000001'))!.comments)).toHaveLength(2);
  });

  it('an un-star of a stored star removes it from the row; a blank judgement of a task stored nowhere is dropped, a star of one kept', async () => {
    const doc = roomWith([taskRecord(1, { createdAt: NOW - 30 * DAY })]);
    judge(doc, 'ada', 1, { starred: true, rating: 4, updatedAt: NOW - 20 * DAY });
    const store = memoryStore();
    await archiveRoom(doc, 'team:t', store, NOW, WINDOW);
    expect(Object.keys((await attachedOf(store, 'task-000001'))!.judgements)).toHaveLength(1);
    doc.transact(() => {
      judge(doc, 'ada', 1, { starred: false, rating: null, updatedAt: NOW - 10 * DAY });
      // Outputs of tasks this room never shared (a member's own): a blank one goes, a star stays.
      judge(doc, 'ada', 9, { starred: false, rating: null, updatedAt: NOW - 10 * DAY });
      judge(doc, 'bob', 9, { starred: true, rating: null, updatedAt: NOW - 10 * DAY });
    });
    await archiveRoom(doc, 'team:t', store, NOW, WINDOW);
    expect(await attachedOf(store, 'task-000001')).toBeUndefined();
    expect([...doc.getMap('judgements').keys()]).toEqual([`bob|${output(9)}`]);
  });

  it('leaves a judgement or a comment changed while the store was written, and moves it on the next pass', async () => {
    const doc = roomWith([taskRecord(1, { createdAt: NOW - 30 * DAY })]);
    doc.transact(() => {
      judge(doc, 'ada', 1, { starred: true, rating: 4, updatedAt: NOW - 20 * DAY });
      comment(doc, 'c1', 1);
    });
    const store = memoryStore();
    const attach = store.attach.bind(store);
    store.attach = async (room, items) => {
      const kept = await attach(room, items);
      judge(doc, 'ada', 1, { starred: true, rating: 2, updatedAt: NOW - 15 * DAY });
      (doc.getMap('comments').get('c1') as Y.Map<unknown>).set('body', 'edited');
      return kept;
    };
    await archiveRoom(doc, 'team:t', store, NOW, WINDOW);
    expect(doc.getMap('judgements').size).toBe(1);
    expect(doc.getMap('comments').size).toBe(1);
    store.attach = attach;
    await archiveRoom(doc, 'team:t', store, NOW, WINDOW);
    expect(doc.getMap('judgements').size).toBe(0);
    const row = await attachedOf(store, 'task-000001');
    expect(row!.judgements[`ada|${output(1)}`]).toMatchObject({ rating: 2 });
    expect(row!.comments.c1).toMatchObject({ body: 'edited' });
  });

  it('a store that fails to attach leaves them in the document', async () => {
    const doc = roomWith([taskRecord(1, { createdAt: NOW - 30 * DAY })]);
    comment(doc, 'c1', 1);
    const store = memoryStore();
    await archiveRoom(doc, 'team:t', store, NOW, WINDOW);
    comment(doc, 'c2', 1);
    store.attach = () => Promise.reject(new Error('database down'));
    await expect(archiveRoom(doc, 'team:t', store, NOW, WINDOW)).rejects.toThrow('database down');
    expect([...doc.getMap('comments').keys()]).toEqual(['c2']);
  });

  it('plans nothing said about live tasks, nor anything said recently', () => {
    const doc = roomWith([taskRecord(1, { createdAt: NOW - DAY })]);
    judge(doc, 'ada', 1, { starred: true, rating: 4, updatedAt: NOW - 20 * DAY });
    comment(doc, 'c1', 2, { createdAt: NOW - DAY });
    expect(planAttached(doc, NOW, WINDOW)).toBeUndefined();
  });
});
