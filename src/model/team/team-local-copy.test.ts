import 'fake-indexeddb/auto';
import * as idb from 'lib0/indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { STATE_PIECE_BYTES } from '../../../contract/team-state';
import { openLocalCopy, type LocalCopyOptions } from './team-local-copy';

// This device's copy of a team's room, read in pieces (a task each) instead of y-indexeddb's one task,
// in y-indexeddb's own layout (an earlier studio's copy is read as it is).

let names = 0;
const freshName = () => `team-copy-test-${++names}`;
const opened: Array<{ destroy(): unknown }> = [];
afterEach(async () => {
  for (const copy of opened.splice(0)) await copy.destroy();
});

/** A room's live window: a thousand tasks of some 500 bytes each, written as one member shares them. */
function roomOf(tasks: number): Y.Doc {
  const doc = new Y.Doc();
  const map = doc.getMap('tasks');
  for (let start = 0; start < tasks; start += 100) {
    doc.transact(() => {
      for (let i = start; i < Math.min(tasks, start + 100); i++)
        map.set(`task_${i}`, {
          taskId: `task_${i}`,
          prompt: `a lighthouse in the fog, number ${i}, soft light, 35mm`,
          outputs: [{ url: `https://cdn.example/out/${i}.png`, width: 1024, height: 1024 }],
          status: 'succeeded',
          createdAt: 1_780_000_000_000 + i,
        });
    });
  }
  return doc;
}

/**
 * Opens the copy into a fresh document, counting tasks (each nextTask is the start of one): answers the
 * document, the bytes applied in each task, and the copy.
 */
async function read(name: string, options: LocalCopyOptions = {}) {
  const doc = new Y.Doc();
  const perTask: number[] = [];
  // The copy applies nothing before it is returned (its database opens first).
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === copy) perTask[perTask.length - 1]! += update.byteLength;
  });
  const copy = openLocalCopy(doc, name, {
    whenIdle: () => undefined,
    ...options,
    nextTask: async () => {
      perTask.push(0);
      await options.nextTask?.();
    },
  });
  opened.push(copy);
  await copy.whenSynced;
  return { doc, perTask, copy };
}

async function rowsOf(name: string): Promise<Uint8Array[]> {
  const db = await idb.openDB(name, () => undefined);
  try {
    const [updates] = idb.transact(db, ['updates'], 'readonly');
    return (await idb.getAll(updates!)) as Uint8Array[];
  } finally {
    db.close();
  }
}

/** What y-indexeddb wrote for a room: a copy of an earlier studio's. */
async function yIndexeddbCopy(name: string, room: Y.Doc): Promise<void> {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(name, doc);
  await persistence.whenSynced;
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(room));
  // Its write is not awaited by anything it returns: wait until the row is there.
  for (let i = 0; i < 100 && (await rowsOf(name)).length < 2; i++)
    await new Promise((r) => setTimeout(r, 10));
  await persistence.destroy();
}

describe('this device’s copy of the room', () => {
  it('a copy y-indexeddb wrote (one update of a thousand tasks) is read in pieces of about 16 KB a task, and ends as the room, byte for byte', async () => {
    const room = roomOf(1000);
    const whole = Y.encodeStateAsUpdate(room);
    expect(whole.byteLength).toBeGreaterThan(200_000);
    const name = freshName();
    await yIndexeddbCopy(name, room);

    const { doc, perTask } = await read(name);
    expect(Y.encodeStateAsUpdate(doc)).toEqual(whole);
    expect(doc.getMap('tasks').size).toBe(1000);
    // Never the whole copy in one task: many tasks, none with much more than a piece.
    expect(perTask.length).toBeGreaterThanOrEqual(Math.floor(whole.byteLength / STATE_PIECE_BYTES));
    expect(Math.max(...perTask)).toBeLessThan(STATE_PIECE_BYTES + 2_000);
  });

  it('what is edited is kept: a second opening holds every edit, and what it applied from the copy is not written back', async () => {
    const name = freshName();
    const first = await read(name);
    const tasks = first.doc.getMap('tasks');
    for (let i = 0; i < 20; i++) tasks.set(`task_${i}`, { taskId: `task_${i}`, status: 'queued' });
    tasks.delete('task_3');
    await first.copy.destroy();
    const rows = (await rowsOf(name)).length;
    expect(rows).toBe(21);

    const second = await read(name);
    expect(Y.encodeStateAsUpdate(second.doc)).toEqual(Y.encodeStateAsUpdate(first.doc));
    expect(second.doc.getMap('tasks').size).toBe(19);
    await second.copy.destroy();
    expect((await rowsOf(name)).length).toBe(rows);
  });

  it('the team tasks are held while the pieces come in, and released once, when all are in', async () => {
    const name = freshName();
    await yIndexeddbCopy(name, roomOf(300));
    const events: string[] = [];
    const doc = new Y.Doc();
    const copy = openLocalCopy(doc, name, {
      whenIdle: () => undefined,
      hold: () => {
        events.push(`hold at ${doc.getMap('tasks').size}`);
        return () => events.push(`release at ${doc.getMap('tasks').size}`);
      },
    });
    opened.push(copy);
    await copy.whenSynced;
    expect(events).toEqual(['hold at 0', 'release at 300']);
  });

  it('an earlier studio’s copy is stored again in pieces when the page is idle, so the next reading cuts nothing', async () => {
    const room = roomOf(1000);
    const name = freshName();
    await yIndexeddbCopy(name, room);
    expect(Math.max(...(await rowsOf(name)).map((r) => r.byteLength))).toBeGreaterThan(200_000);

    let idle: (() => void) | undefined;
    const { copy } = await read(name, { whenIdle: (work) => (idle = work) });
    expect(idle, 'the rewrite waits for the page to be idle').toBeDefined();
    idle!();
    await copy.destroy();
    const rows = await rowsOf(name);
    expect(Math.max(...rows.map((r) => r.byteLength))).toBeLessThan(STATE_PIECE_BYTES + 2_000);

    const again = await read(name);
    expect(Y.encodeStateAsUpdate(again.doc)).toEqual(Y.encodeStateAsUpdate(room));
  });

  it('past 500 rows the copy is rewritten as the document’s state (what was overwritten or deleted dropped), an edit made meanwhile kept', async () => {
    const name = freshName();
    let idle: (() => void) | undefined;
    const { doc, copy } = await read(name, { whenIdle: (work) => (idle = work) });
    const tasks = doc.getMap('tasks');
    for (let i = 0; i < 520; i++) tasks.set('task_1', { taskId: 'task_1', status: `step ${i}` });
    for (let i = 0; i < 30; i++) tasks.set(`gone_${i}`, { prompt: 'x'.repeat(2_000) });
    for (let i = 0; i < 30; i++) tasks.delete(`gone_${i}`);
    expect(idle).toBeDefined();
    const before = (await rowsOf(name)).reduce((n, r) => n + r.byteLength, 0);
    idle!();
    tasks.set('task_2', { taskId: 'task_2', status: 'queued' });
    await new Promise((r) => setTimeout(r, 50));
    await copy.destroy();

    const rows = await rowsOf(name);
    expect(rows.length).toBeLessThan(10);
    expect(rows.reduce((n, r) => n + r.byteLength, 0)).toBeLessThan(before / 10);
    const again = await read(name);
    expect(again.doc.getMap('tasks').toJSON()).toEqual({
      task_1: { taskId: 'task_1', status: 'step 519' },
      task_2: { taskId: 'task_2', status: 'queued' },
    });
  });

  it('edits made before the database opened are stored too', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = openLocalCopy(doc, name, { whenIdle: () => undefined });
    opened.push(copy);
    doc.getMap('tasks').set('early', { taskId: 'early' });
    await copy.whenSynced;
    await copy.destroy();
    expect((await read(name)).doc.getMap('tasks').get('early')).toEqual({ taskId: 'early' });
  });

  it('turned off while reading: nothing more is applied', async () => {
    const name = freshName();
    await yIndexeddbCopy(name, roomOf(1000));
    const doc = new Y.Doc();
    let tasks = 0;
    const copy = openLocalCopy(doc, name, {
      whenIdle: () => undefined,
      nextTask: async () => {
        if (++tasks === 3) await copy.destroy();
      },
    });
    await copy.whenSynced;
    const size = doc.getMap('tasks').size;
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(1000);
  });

  it('clearData deletes the copy: the next opening starts empty', async () => {
    const name = freshName();
    const first = await read(name);
    first.doc.getMap('tasks').set('a', { taskId: 'a' });
    await first.copy.clearData();
    expect((await read(name)).doc.getMap('tasks').size).toBe(0);
  });
});
