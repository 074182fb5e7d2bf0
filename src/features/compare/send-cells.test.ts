import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Model } from '../../../contract/catalog';
import type { TaskCreated } from '../../../contract/task';
import { ApiError } from '../../api/errors';
import type { HistoryStore } from '../../model/history/history-store';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import { submitThroughQueue, TaskQueue } from '../../model/queue/queue';
import { Outbox } from '../../model/tasks/outbox';
import { planCells, resolveColumns } from './board-model';
import type { CellView } from './cell-view';
import { sendCells, type CompareRunner, type SendNote } from './send-cells';

// A board's cells sent through the queue, on a pool of three, the fourth send refused once with 402.

const lumen: Model = {
  id: 'lumen',
  name: 'Lumen',
  type: 'image',
  subType: 'default',
  description: '',
  brand: { id: 'brand', name: 'Brand' },
  promptRequired: false,
  params: [{ id: 'prompt', type: 'long_text', required: false }],
  versions: [{ id: 'v1', name: 'Version 1' }],
  tags: [],
};
const setup = {
  category: 'image/default',
  columns: [{ modelId: 'lumen', versionId: 'v1' }],
  rows: [1, 2, 3, 4, 5, 6].map((n) => ({ id: `r${n}`, prompt: `prompt ${n}` })),
  shared: {},
  perColumn: {},
};
const cells: CellView[] = planCells(setup, resolveColumns(setup, [lumen])).map((planned) => ({
  ...planned,
  entry: null,
  state: 'never',
  quote: { credits: 2, estimatedSeconds: 5 } as CellView['quote'],
  quoteError: null,
  sendNote: null,
}));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000; i += 1) {
    if (check()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const disposers: (() => void)[] = [];

describe('sendCells through the queue', () => {
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    (await db()).close();
    resetDbForTests();
    await deleteDB(DB_NAME);
  });
  afterEach(() => {
    for (const off of disposers.splice(0)) off();
    vi.useRealTimers();
  });

  it('six cells, a pool of three, the fourth refused once with 402: held, never "refused", six tasks after Resume', async () => {
    const running = new Set<string>();
    const created: string[] = [];
    let creates = 0;
    const outbox = new Outbox({
      connectionId: 'conn-c',
      createTask: async (_request, key) => {
        creates += 1;
        if (creates === 4)
          throw new ApiError({ status: 402, code: 'insufficient_credits', type: 'invalid_request_error' });
        running.add(key);
        created.push(key);
        return { taskId: `t-${key}`, status: 'queued' } as TaskCreated;
      },
      onCreated: async () => undefined,
    });
    const queue = new TaskQueue({
      connectionId: 'conn-c',
      submit: (request, meta, options) => outbox.submit(request, meta, options),
      freeSlots: () => 3 - running.size,
      storage: null,
      leader: true,
    });
    disposers.push(
      () => queue.dispose(),
      () => outbox.dispose(),
    );
    const notes = new Map<string, SendNote | null>();
    const keys = new Map(cells.map((c) => [c.key, `key-${c.key}`]));
    // The history is not read by sendCells.
    const runner = {
      store: null as unknown as HistoryStore,
      queue,
      submitKeyed: (tasks: Parameters<CompareRunner['submitKeyed']>[0]) =>
        submitThroughQueue(queue, (request, meta, options) => outbox.submit(request, meta, options), tasks),
    };
    const done = sendCells(runner, cells, keys, {
      note: (cellKey, note) => notes.set(cellKey, note),
      created: () => undefined,
    });

    await until(() => created.length === 3, 'three created');
    // One finishes: the fourth goes, and is refused with 402.
    running.delete(created[0]!);
    queue.kick();
    await until(() => queue.snapshot().settings.paused, 'the queue paused');
    await vi.advanceTimersByTimeAsync(3_000);
    const fourth = cells[3]!.key;
    // Still the queue's: held at the head, and its cell was told nothing (no "refused", no Rerun).
    expect(queue.placeOf(keys.get(fourth)!)).toBe(1);
    expect(notes.has(fourth)).toBe(false);
    expect([...notes.values()].some((n) => n?.refused)).toBe(false);

    // Resume: the held ones go as the pool frees; each cell's task is created once.
    queue.resume();
    for (let round = 0; round < 6 && created.length < 6; round += 1) {
      running.clear();
      queue.kick();
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await done;
    expect(created).toHaveLength(6);
    expect(new Set(created)).toEqual(new Set(keys.values()));
    expect(creates).toBe(7); // six created, the one refusal charged nothing
    expect([...notes.values()]).toEqual(Array(6).fill(null));
  });
});
