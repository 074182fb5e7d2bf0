import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../contract/task';
import { DB_NAME, db, resetDbForTests } from '../db';
import { PresetStore } from '../library/presets';
import { PromptLibrary } from '../library/prompt-library';
import { writeImportedTasks } from './history-file';
import { HistoryStore, lazySection } from './history-store';
import type { HistoryEntry } from './history-types';
import { reloadAtOnce } from '../../test/page-unload';
import { listVotes, saveVote, votesHistorySection } from '../compare/votes';

const A = 'conn-a';
const B = 'conn-b';

const entry = (taskId: string, createdAt: number, patch: Partial<HistoryEntry> = {}): HistoryEntry => ({
  taskId,
  connectionId: A,
  request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: `prompt of ${taskId}`, 'a.b': 2 } },
  meta: {
    title: 'Model One',
    subtitle: 'v1',
    kind: 'model',
    mediaType: 'image',
    category: 'image/default',
    modelId: 'm1',
    versionId: 'v1',
    estimatedSeconds: 8,
    quotedCredits: 4,
  },
  status: 'queued',
  outputs: [],
  error: null,
  creditsCharged: null,
  createdAt,
  completedAt: null,
  unseen: false,
  ...patch,
});

const task = (taskId: string, patch: Partial<Task> = {}): Task => ({
  taskId,
  status: 'running',
  outputs: [],
  error: null,
  creditsCharged: 0,
  createdAt: '2025-06-01T12:00:00.000Z',
  completedAt: null,
  ...patch,
});

/** A page reload: the old page's database handle closes, the new page opens its own. */
async function reload(): Promise<void> {
  (await db()).close();
  resetDbForTests();
}

/** A fresh, empty database for each test. */
async function freshDatabase(): Promise<void> {
  await reload();
  await deleteDB(DB_NAME);
}

describe('HistoryStore', () => {
  beforeEach(freshDatabase);

  it('open() takes the early read of preload() once; after dropPreload() it reads afresh', async () => {
    HistoryStore.preload(A);
    const early = await HistoryStore.open(A);
    await early.put(entry('t1', 1));
    // Taken once: the next open reads IndexedDB again.
    expect((await HistoryStore.open(A)).get('t1')).toBeDefined();

    // An early read that is dropped (the key was refused) is never handed out later: what was written
    // meanwhile is seen.
    HistoryStore.preload(B);
    await HistoryStore.open(A); // a read queued after B's early one: that one is done before the write
    HistoryStore.dropPreload(B);
    await (await db()).put('tasks', { ...entry('t3', 3), connectionId: B });
    expect((await HistoryStore.open(B)).get('t3')).toBeDefined();
  });

  it('lists entries newest first', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t3', 3_000));
    await store.put(entry('t2', 2_000));
    expect(store.list().map((e) => e.taskId)).toEqual(['t3', 't2', 't1']);
    expect(store.get('t2')?.request.params.prompt).toBe('prompt of t2');
  });

  it('returns the same list array until something changes, and tells subscribers', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    const first = store.list();
    expect(store.list()).toBe(first);
    await store.put(entry('t2', 2_000));
    expect(calls).toBe(1);
    const second = store.list();
    expect(second).not.toBe(first);
    expect(second).toHaveLength(2);
    expect(store.list()).toBe(second);
    unsubscribe();
    await store.put(entry('t3', 3_000));
    expect(calls).toBe(1);
  });

  it('applyTask records status and outputs, and marks unseen only on reaching a terminal state', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    expect(await store.applyTask(task('unknown'))).toBeUndefined();

    const running = await store.applyTask(task('t1', { status: 'running' }));
    expect(running?.status).toBe('running');
    expect(running?.unseen).toBe(false);
    expect(store.unseenCount()).toBe(0);
    expect(store.pending().map((e) => e.taskId)).toEqual(['t1']);

    const done = await store.applyTask(
      task('t1', {
        status: 'succeeded',
        outputs: [{ url: 'https://cdn.example/out.png' }],
        creditsCharged: 4,
        completedAt: '2025-06-01T12:00:09.000Z',
      }),
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.example/out.png' }],
      creditsCharged: 4,
      createdAt: Date.parse('2025-06-01T12:00:00.000Z'),
      completedAt: Date.parse('2025-06-01T12:00:09.000Z'),
      unseen: true,
    });
    expect(store.get('t1')?.raw).toMatchObject({ taskId: 't1', status: 'succeeded' });
    expect(store.unseenCount()).toBe(1);
    expect(store.pending()).toEqual([]);
  });

  // 1,000 tasks queued must leave the page responsive: the answers of a burst of polls are one change.
  it('applyTasks records several answers as one change: one notification, one write, all kept', async () => {
    const store = await HistoryStore.open(A);
    const createdAt = Date.parse('2025-06-01T12:00:00.000Z');
    for (const id of ['t1', 't2', 't3']) await store.put(entry(id, createdAt + Number(id.slice(1))));
    const before = store.list();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    const at = (id: string) => new Date(createdAt + Number(id.slice(1))).toISOString();
    const results = await store.applyTasks([
      { task: task('t1', { status: 'succeeded', createdAt: at('t1'), completedAt: at('t1') }) },
      { task: task('gone', { status: 'running' }) },
      { task: task('t3', { status: 'failed', createdAt: at('t3') }), seen: true },
      // The same task twice in one batch: the later answer wins, unseen from the first stays.
      { task: task('t1', { status: 'succeeded', createdAt: at('t1'), creditsCharged: 4 }) },
    ]);
    off();
    expect(calls).toBe(1);
    expect(results.map((r) => r?.status)).toEqual(['succeeded', undefined, 'failed', 'succeeded']);
    expect(store.get('t1')).toMatchObject({ status: 'succeeded', creditsCharged: 4, unseen: true });
    expect(store.get('t3')).toMatchObject({ status: 'failed', unseen: false });
    // The list keeps its order (newest first) with the new entries in their places.
    const after = store.list();
    expect(after).not.toBe(before);
    expect(after.map((e) => e.taskId)).toEqual(['t3', 't2', 't1']);
    expect(after[2]).toBe(store.get('t1'));
    expect(after[1]).toBe(before[1]);
    // Written to IndexedDB: a reload reads them back.
    await reload();
    const reopened = await HistoryStore.open(A);
    expect(reopened.get('t1')).toMatchObject({ status: 'succeeded', creditsCharged: 4, unseen: true });
    expect(reopened.get('t3')?.status).toBe('failed');
    expect(reopened.get('t2')?.status).toBe('queued');
  });

  it('applyTasks re-sorts the list when an answer moves a task in time', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000));
    expect(store.list().map((e) => e.taskId)).toEqual(['t2', 't1']);
    await store.applyTasks([{ task: task('t1', { createdAt: new Date(3_000).toISOString() }) }]);
    expect(store.list().map((e) => e.taskId)).toEqual(['t1', 't2']);
    expect(await store.applyTasks([{ task: task('none') }])).toEqual([undefined]);
  });

  it('does not mark unseen a task that finishes while the user is looking, nor one already terminal', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000, { status: 'failed', error: { code: 'x', message: 'y' } }));
    await store.applyTask(task('t1', { status: 'succeeded' }), { seen: true });
    await store.applyTask(task('t2', { status: 'failed', error: { code: 'x', message: 'y' } }));
    expect(store.unseenCount()).toBe(0);
  });

  it('markSeen clears unseen, in memory and in IndexedDB', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000));
    await store.applyTask(task('t1', { status: 'succeeded' }));
    await store.applyTask(task('t2', { status: 'cancelled' }));
    expect(store.unseenCount()).toBe(2);
    const before = store.list();
    await store.markSeen();
    expect(store.unseenCount()).toBe(0);
    expect(store.list()).not.toBe(before);
    expect(store.list().every((e) => !e.unseen)).toBe(true);
    const reopened = await HistoryStore.open(A);
    expect(reopened.unseenCount()).toBe(0);
  });

  it('markSeen just before a reload: the tasks stay seen after it (written at once)', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.applyTask(task('t1', { status: 'succeeded' }));
    expect(store.unseenCount()).toBe(1);
    const written = Promise.allSettled([store.markSeen()]);
    await reloadAtOnce();
    await written;
    await reload();
    expect((await HistoryStore.open(A)).unseenCount()).toBe(0);
  });

  it('survives a reload: a second open of the same connection sees the entries', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000));
    await store.applyTask(
      task('t2', { status: 'succeeded', outputs: [{ url: 'https://cdn.example/2.png' }] }),
    );

    await reload();
    const reopened = await HistoryStore.open(A);
    expect(reopened.list().map((e) => e.taskId)).toEqual(['t2', 't1']);
    expect(reopened.get('t2')).toMatchObject({ status: 'succeeded', unseen: true });
    expect(reopened.get('t1')).toEqual(store.get('t1'));
  });

  it('a key sees only its own tasks: another connection sees none', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    const other = await HistoryStore.open(B);
    expect(other.list()).toEqual([]);
    expect(other.get('t1')).toBeUndefined();
  });

  it('keeps the connection it was opened for, whatever the entry says', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000, { connectionId: B }));
    expect((await HistoryStore.open(B)).list()).toEqual([]);
    expect((await HistoryStore.open(A)).list().map((e) => e.taskId)).toEqual(['t1']);
  });

  it('skips records in IndexedDB that do not parse', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    const database = await db();
    // What an older or damaged record may look like: no status, no meta.
    await database.put('tasks', {
      taskId: 'broken',
      connectionId: A,
      createdAt: 5,
    } as unknown as HistoryEntry);
    const reopened = await HistoryStore.open(A);
    expect(reopened.list().map((e) => e.taskId)).toEqual(['t1']);
  });

  it('exports JSON without the connection id, and importing it into another connection reproduces the tasks', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000));
    await store.applyTask(
      task('t2', {
        status: 'failed',
        error: { code: 'generation_failed', message: 'It broke.' },
        completedAt: '2025-06-01T12:00:05.000Z',
      }),
    );

    const text = await store.exportFile();
    expect(text).not.toContain(A);
    expect(text).not.toContain('connectionId');
    const file = JSON.parse(text) as { format: string; version: number; tasks: unknown[] };
    expect(file.format).toBe('media-studio-history');
    expect(file.version).toBe(1);
    expect(file.tasks).toHaveLength(2);

    const other = await HistoryStore.open(B);
    expect(await other.importJson(text)).toMatchObject({ added: 2, updated: 0, skipped: 0 });
    const strip = ({ connectionId: _c, unseen: _u, ...rest }: HistoryEntry) => rest;
    expect(other.list().map(strip)).toEqual(store.list().map(strip));
    expect(other.list().every((e) => e.connectionId === B && !e.unseen)).toBe(true);

    // Both connections keep their copy, after a reload too.
    await reload();
    expect((await HistoryStore.open(B)).list().map((e) => e.taskId)).toEqual(['t2', 't1']);
    expect((await HistoryStore.open(A)).list().map((e) => e.taskId)).toEqual(['t2', 't1']);
    expect((await HistoryStore.open(A)).get('t2')?.connectionId).toBe(A);
  });

  it('exportFile carries the blind votes beside the tasks, and importing it brings them to the other key', async () => {
    const store = await HistoryStore.open(A);
    store.addSection('votes', votesHistorySection(A));
    await store.put(entry('t1', 1_000));
    const candidate = (m: string) => ({
      key: `${m}@v1`,
      modelId: m,
      versionId: 'v1',
      name: m,
      versionName: 'v1',
    });
    await saveVote({
      connectionId: A,
      id: 'board|row',
      boardId: 'board',
      rowId: 'row',
      category: 'image/default',
      candidates: [candidate('lumen'), candidate('pop')],
      winner: 'pop@v1',
      at: 5,
    });
    const text = await store.exportFile();
    expect(text).not.toContain(A);
    const file = JSON.parse(text) as { tasks: unknown[]; votes: unknown[] };
    expect(file.tasks).toHaveLength(1);
    expect(file.votes).toHaveLength(1);

    const other = await HistoryStore.open(B);
    other.addSection('votes', votesHistorySection(B));
    expect(await other.importJson(text)).toMatchObject({
      added: 1,
      updated: 0,
      skipped: 0,
      sections: { votes: { kept: 1, skipped: 0 } },
    });
    const votes = await listVotes(B);
    expect(votes.map((v) => [v.connectionId, v.winner])).toEqual([[B, 'pop@v1']]);
    // A file from before votes travelled imports as before.
    const { votes: _v, ...older } = file;
    const c = await HistoryStore.open('conn-c');
    c.addSection('votes', votesHistorySection('conn-c'));
    expect(await c.importJson(JSON.stringify(older))).toEqual({
      added: 1,
      updated: 0,
      skipped: 0,
      sections: {},
    });
    expect(await listVotes('conn-c')).toEqual([]);
  });

  it('importing into the same connection counts the tasks as updated', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    expect(await store.importJson(await store.exportFile())).toMatchObject({
      added: 0,
      updated: 1,
      skipped: 0,
    });
    expect(store.list()).toHaveLength(1);
  });

  it('importJson skips malformed entries and counts them', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    const good = JSON.parse(await store.exportFile()) as { tasks: Record<string, unknown>[] };
    const text = JSON.stringify({
      format: 'media-studio-history',
      version: 1,
      exportedAt: '2025-06-01T12:00:00.000Z',
      tasks: [
        { ...good.tasks[0], taskId: 'ok' },
        null,
        'a string',
        [1, 2],
        { ...good.tasks[0], taskId: '' },
        { ...good.tasks[0], taskId: 'bad-status', status: 'exploded' },
        { ...good.tasks[0], taskId: 'no-created-at', createdAt: undefined },
      ],
    });
    const other = await HistoryStore.open(B);
    expect(await other.importJson(text)).toMatchObject({ added: 1, updated: 0, skipped: 6 });
    expect(other.list().map((e) => e.taskId)).toEqual(['ok']);
  });

  it('importFile imports a chosen file, telling its progress; a file that is not JSON is refused', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000));
    const file = new Blob([await store.exportFile()], { type: 'application/json' });
    const other = await HistoryStore.open(B);
    const progress: Array<[number, number]> = [];
    expect(await other.importFile(file, (done, total) => progress.push([done, total]))).toMatchObject({
      added: 2,
      updated: 0,
      skipped: 0,
    });
    expect(progress).toEqual([
      [0, 2],
      [2, 2],
    ]);
    expect(other.list().map((e) => [e.taskId, e.connectionId])).toEqual([
      ['t2', B],
      ['t1', B],
    ]);
    await expect(other.importFile(new Blob(['not json']))).rejects.toThrow(SyntaxError);
  });

  it("an import lets each task of the file go once it is written (the file's list is emptied)", async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    await store.put(entry('t2', 2_000));
    const { tasks } = JSON.parse(await store.exportFile()) as { tasks: unknown[] };
    tasks.push('not a task');
    const adopted: HistoryEntry[] = [];
    const counts = await writeImportedTasks(
      tasks,
      B,
      () => false,
      (e) => adopted.push(e),
    );
    expect(counts).toEqual({ added: 2, updated: 0, skipped: 1 });
    expect(tasks).toEqual([undefined, undefined, undefined]);
    expect(adopted.map((e) => [e.taskId, e.connectionId, e.unseen])).toEqual([
      ['t2', B, false],
      ['t1', B, false],
    ]);
  });

  it('importJson rejects a file that is not a history export', async () => {
    const store = await HistoryStore.open(A);
    await expect(store.importJson('{"format":"something-else","tasks":[]}')).rejects.toThrow();
    await expect(store.importJson('not json')).rejects.toThrow();
    expect(store.list()).toEqual([]);
  });

  it('moves a version 1 database (tasks keyed by taskId) to per-connection keys, keeping every task', async () => {
    await reload();
    await deleteDB(DB_NAME);
    const v1 = await openDB(DB_NAME, 1, {
      upgrade(database) {
        const tasks = database.createObjectStore('tasks', { keyPath: 'taskId' });
        tasks.createIndex('byConnection', ['connectionId', 'createdAt']);
        const outbox = database.createObjectStore('outbox', { keyPath: 'idempotencyKey' });
        outbox.createIndex('byConnection', 'connectionId');
      },
    });
    await v1.put('tasks', entry('t1', 1_000));
    await v1.put('tasks', entry('t2', 2_000, { connectionId: B }));
    await v1.put('tasks', { taskId: 'no-connection', createdAt: 3 });
    await v1.put('outbox', { idempotencyKey: 'k1', connectionId: A });
    v1.close();

    const store = await HistoryStore.open(A);
    expect(store.list().map((e) => e.taskId)).toEqual(['t1']);
    expect((await HistoryStore.open(B)).list().map((e) => e.taskId)).toEqual(['t2']);
    expect(await (await db()).get('outbox', 'k1')).toEqual({ idempotencyKey: 'k1', connectionId: A });
  });

  it('carries the presets and the prompt library in its file, and brings them back into another key', async () => {
    const store = await HistoryStore.open(A);
    const presets = await PresetStore.open(A, { db });
    const prompts = await PromptLibrary.open(A, { db });
    store.addSection('presets', presets.historySection());
    store.addSection('prompts', prompts.historySection());
    await store.put(entry('t1', 1_000));
    await presets.save({ name: 'Wide', itemName: 'M', request: { interfaceId: 'm1', params: { a: 1 } } });
    await prompts.record(['a red fox']);
    await prompts.pin('a red fox', true);

    const text = await store.exportFile();
    const file = JSON.parse(text) as Record<string, unknown>;
    expect(file.presets).toEqual([expect.objectContaining({ name: 'Wide' })]);
    expect(file.prompts).toEqual([expect.objectContaining({ text: 'a red fox', pinned: true })]);
    expect(text).not.toContain(A);

    const other = await HistoryStore.open(B);
    const otherPresets = await PresetStore.open(B, { db });
    const otherPrompts = await PromptLibrary.open(B, { db });
    other.addSection('presets', otherPresets.historySection());
    const removePrompts = other.addSection('prompts', otherPrompts.historySection());
    expect(await other.importJson(text)).toMatchObject({ added: 1, updated: 0, skipped: 0 });
    expect(otherPresets.list()).toEqual([expect.objectContaining({ name: 'Wide', connectionId: B })]);
    expect(otherPrompts.list()).toEqual([expect.objectContaining({ text: 'a red fox', pinned: true })]);

    // A file without the sections (an older export) imports as before; a removed section is not written.
    removePrompts();
    expect(JSON.parse(await other.exportFile())).not.toHaveProperty('prompts');
    const { presets: _p, prompts: _q, ...older } = file;
    expect(await other.importJson(JSON.stringify(older))).toMatchObject({ added: 0, updated: 1, skipped: 0 });
  });

  it('one mechanism for every section: lazy or not, counted on import, left out when empty, failing alone', async () => {
    const store = await HistoryStore.open(A);
    await store.put(entry('t1', 1_000));
    const received: unknown[] = [];
    let loads = 0;
    store.addSection(
      'notes',
      lazySection(async () => {
        loads++;
        return {
          export: (history) => [`${history.list().length} task`],
          import: async (data) => {
            received.push(data);
            return { kept: 1, skipped: 0 };
          },
        };
      }),
    );
    store.addSection('empty', { export: () => undefined, import: async () => undefined });
    expect(loads).toBe(0); // loaded when a file is made or read, not before
    const file = JSON.parse(await store.exportFile()) as Record<string, unknown>;
    expect(file.notes).toEqual(['1 task']);
    expect(file).not.toHaveProperty('empty');
    expect(loads).toBe(1);

    const other = await HistoryStore.open(B);
    other.addSection('notes', { export: () => undefined, import: async (data) => void received.push(data) });
    other.addSection('broken', {
      export: () => undefined,
      import: () => Promise.reject(new Error('no room')),
    });
    const result = await other.importJson(JSON.stringify({ ...file, broken: [1] }));
    // The tasks are in even though one section failed; a section that counts nothing is not listed.
    expect(result).toEqual({ added: 1, updated: 0, skipped: 0, sections: {} });
    expect(received).toEqual([['1 task']]);
    expect(other.list().map((e) => e.taskId)).toEqual(['t1']);
  });
});

describe('HistoryStore at scale (read by index and in pages)', () => {
  beforeEach(freshDatabase);

  /** `n` tasks written straight into IndexedDB (as an earlier session left them), t0 oldest. */
  async function stored(n: number, connectionId = A): Promise<void> {
    const database = await db();
    const tx = database.transaction('tasks', 'readwrite');
    for (let i = 0; i < n; i++) void tx.store.put({ ...entry(`t${i}`, 1_000 + i), connectionId });
    await tx.done;
  }

  it('open() hands out the newest page with the count of the whole history; the rest follows, told once', async () => {
    await stored(1200);
    await stored(30, B); // another connection's tasks are never read
    const store = await HistoryStore.open(A);
    expect(store.complete).toBe(false);
    expect(store.size()).toBe(1200);
    const first = store.list();
    expect(first).toHaveLength(100);
    expect(first[0]!.taskId).toBe('t1199');
    expect(first[99]!.taskId).toBe('t1100');
    let calls = 0;
    store.subscribe(() => calls++);
    await store.whenLoaded();
    expect(store.complete).toBe(true);
    expect(calls).toBe(1);
    expect(store.list()).toHaveLength(1200);
    expect(store.list()[1199]!.taskId).toBe('t0');
    expect(store.size()).toBe(1200);
  });

  it('the older pages are read only once the store is taken, each after a turn of its own', async () => {
    await stored(1200);
    const { readPages } = await import('./history-file');
    const adopted: string[] = [];
    let turns = 0;
    const turn = async () => {
      turns++;
    };
    await readPages(A, 250, (raw) => adopted.push((raw as HistoryEntry).taskId), turn);
    // Every record once, in key order, each page of 250 after its turn (5 pages: the last one short).
    expect(adopted).toHaveLength(1200);
    expect(new Set(adopted).size).toBe(1200);
    expect(adopted).toEqual([...adopted].sort());
    expect(turns).toBe(5);

    // preload() reads the newest page only: the rest waits for open(), the studio's first render first.
    HistoryStore.preload(A);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const store = await HistoryStore.open(A);
    expect(store.list()).toHaveLength(100);
    await store.whenLoaded();
    expect(store.list()).toHaveLength(1200);
  });

  it('a background turn is a background-priority task where the browser schedules them', async () => {
    const { backgroundTurn } = await import('./history-persistence');
    const priorities: string[] = [];
    const scheduler = {
      postTask: (callback: () => void, options: { priority: string }) => {
        priorities.push(options.priority);
        return Promise.resolve().then(callback);
      },
    };
    Object.assign(globalThis, { scheduler });
    try {
      await stored(600);
      const store = await HistoryStore.open(A);
      await store.whenLoaded();
      expect(store.list()).toHaveLength(600);
      expect(priorities).toEqual(['background', 'background', 'background']);
    } finally {
      delete (globalThis as { scheduler?: unknown }).scheduler;
    }
    await expect(backgroundTurn()).resolves.toBeUndefined();
  });

  it('a record read back in a later page is parsed: an unreadable one is skipped', async () => {
    await stored(400);
    await (
      await db()
    ).put('tasks', { taskId: 't5', connectionId: A, createdAt: 1_005 } as unknown as HistoryEntry);
    const store = await HistoryStore.open(A);
    await store.whenLoaded();
    expect(store.list()).toHaveLength(399);
    expect(store.get('t5')).toBeUndefined();
  });

  it('a task written while the older pages are read keeps its new state', async () => {
    await stored(600);
    const store = await HistoryStore.open(A);
    expect(store.get('t3')).toBeUndefined(); // in a later page
    await store.put(entry('t3', 1_003, { status: 'succeeded' }));
    await store.whenLoaded();
    expect(store.get('t3')?.status).toBe('succeeded');
    expect(store.list()).toHaveLength(600);
  });

  it('the export holds every task of a long history, the one just recorded too, before its write is done', async () => {
    await stored(400);
    const store = await HistoryStore.open(A);
    // Recorded as the outbox records a created task; the export is asked before IndexedDB has it.
    const writing = store.put(entry('t_new', 9_999));
    const file = JSON.parse(await store.exportFile()) as { tasks: Array<{ taskId: string }> };
    await writing;
    const ids = new Set(file.tasks.map((t) => t.taskId));
    expect(ids.size).toBe(401);
    expect(ids.has('t_new')).toBe(true);
    expect(ids.has('t0')).toBe(true); // in the oldest page, not read when the store opened
  });

  it('tells what was read back from IndexedDB from what changed since', async () => {
    await stored(3);
    const store = await HistoryStore.open(A);
    expect(store.fromDisk(store.get('t1')!)).toBe(true);
    await store.put(entry('t1', 1_001, { status: 'running' }));
    expect(store.fromDisk(store.get('t1')!)).toBe(false);
  });

  it("a poll's answer takes its task's place in the list without reordering it", async () => {
    await stored(5);
    const store = await HistoryStore.open(A);
    const before = store.list();
    await store.applyTask(task('t2', { createdAt: new Date(1_002).toISOString(), status: 'running' }));
    const after = store.list();
    expect(after).not.toBe(before);
    expect(after.map((e) => e.taskId)).toEqual(['t4', 't3', 't2', 't1', 't0']);
    expect(after[2]!.status).toBe('running');
    expect(after[1]).toBe(before[1]); // the others are the same objects
  });

  it('an import reports its progress page by page and changes the list once', async () => {
    const store = await HistoryStore.open(A);
    let calls = 0;
    store.subscribe(() => calls++);
    const progress: Array<[number, number]> = [];
    const tasks = Array.from({ length: 1200 }, (_, i) => entry(`i${i}`, i));
    const result = await store.importJson(
      JSON.stringify({ format: 'media-studio-history', version: 1, exportedAt: '', tasks }),
      (done, total) => progress.push([done, total]),
    );
    expect(result.added).toBe(1200);
    expect(progress).toEqual([
      [0, 1200],
      [500, 1200],
      [1000, 1200],
      [1200, 1200],
    ]);
    expect(calls).toBe(1);
    expect(store.list()).toHaveLength(1200);
  });

  it('an import counts a task of an older page (not read yet) as updated, not added', async () => {
    await stored(300);
    const store = await HistoryStore.open(A);
    const result = await store.importJson(
      JSON.stringify({
        format: 'media-studio-history',
        version: 1,
        exportedAt: '',
        tasks: [entry('t0', 1_000, { status: 'succeeded' })],
      }),
    );
    expect(result).toMatchObject({ added: 0, updated: 1 });
    expect(store.get('t0')?.status).toBe('succeeded');
  });
});
