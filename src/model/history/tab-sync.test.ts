import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from './history-store';
import type { HistoryEntry } from './history-types';
import { pollerLeadership, shareHistory } from './tab-sync';

const CONNECTION = 'conn-tabs';

const entry = (taskId: string, status: HistoryEntry['status'] = 'queued'): HistoryEntry => ({
  taskId,
  connectionId: CONNECTION,
  request: { interfaceId: 'm', versionId: 'v', params: { prompt: 'a fox' } },
  meta: {
    title: 'Model',
    subtitle: '',
    kind: 'model',
    mediaType: 'image',
    estimatedSeconds: 5,
    quotedCredits: 4,
  },
  status,
  outputs: status === 'succeeded' ? [{ url: `https://cdn.example/${taskId}.png` }] : [],
  error: null,
  creditsCharged: 4,
  createdAt: 1_000,
  completedAt: status === 'succeeded' ? 6_000 : null,
  unseen: false,
});

describe('shareHistory', () => {
  beforeEach(async () => {
    (await db()).close();
    resetDbForTests();
    await deleteDB(DB_NAME);
  });

  it("a task one tab submits, and its result another tab polls, reach the other tab's history", async () => {
    // Two tabs of one connection: two stores, each its own copy of the history.
    const a = await HistoryStore.open(CONNECTION);
    const b = await HistoryStore.open(CONNECTION);
    const offA = shareHistory(a, CONNECTION);
    const offB = shareHistory(b, CONNECTION);
    const sent = vi.spyOn(BroadcastChannel.prototype, 'postMessage');

    await a.put(entry('t1'));
    await vi.waitFor(() => expect(b.get('t1')?.status).toBe('queued'));
    await b.applyTask({
      taskId: 't1',
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.example/t1.png' }],
      error: null,
      creditsCharged: 4,
      createdAt: new Date(1_000).toISOString(),
      completedAt: new Date(6_000).toISOString(),
    });
    await vi.waitFor(() => expect(a.get('t1')?.status).toBe('succeeded'));
    expect(a.get('t1')?.outputs).toEqual([{ url: 'https://cdn.example/t1.png' }]);
    // No echo: each change crossed once (a's submit, b's answer).
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toHaveBeenCalledTimes(2);
    sent.mockRestore();
    offA();
    offB();
  });

  it('undone between a change and its message, it sends nothing on the closed channel (which would throw)', async () => {
    const a = await HistoryStore.open(CONNECTION);
    const off = shareHistory(a, CONNECTION);
    const sent = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
    // The runtime closes (a key switched) in the same turn as a change: the message was only queued.
    const offClose = a.subscribe(() => off());
    await a.put(entry('t1'));
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).not.toHaveBeenCalled();
    sent.mockRestore();
    offClose();
  });

  it('an import reaches the other tab as one re-read of the disk, and one change of its history', async () => {
    const a = await HistoryStore.open(CONNECTION);
    const b = await HistoryStore.open(CONNECTION);
    const offA = shareHistory(a, CONNECTION);
    const offB = shareHistory(b, CONNECTION);
    const sent = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
    let changesOfB = 0;
    b.subscribe(() => changesOfB++);

    const tasks = Array.from({ length: 1200 }, (_, i) => entry(`imported-${i}`, 'succeeded'));
    const { historyJson } = await import('./history-file');
    const result = await a.importJson(historyJson(tasks, {}));
    expect(result.added).toBe(1200);

    await vi.waitFor(() => expect(b.size()).toBe(1200));
    expect(b.get('imported-0')?.status).toBe('succeeded');
    // A message that says "read the disk again", not one carrying 1,200 entries (nor 1,200 messages).
    await new Promise((r) => setTimeout(r, 50));
    expect(sent.mock.calls.map(([message]) => message)).toEqual([{ reread: true }]);
    expect(changesOfB).toBe(1);
    sent.mockRestore();
    offA();
    offB();
  });

  it("a message of many changes is one change of the other tab's history", async () => {
    const a = await HistoryStore.open(CONNECTION);
    const b = await HistoryStore.open(CONNECTION);
    const offA = shareHistory(a, CONNECTION);
    const offB = shareHistory(b, CONNECTION);
    let changesOfB = 0;
    b.subscribe(() => changesOfB++);
    // Several answers recorded at once by the polling tab: one burst, one message.
    await Promise.all(Array.from({ length: 40 }, (_, i) => a.put(entry(`burst-${i}`))));
    await vi.waitFor(() => expect(b.size()).toBe(40));
    await new Promise((r) => setTimeout(r, 50));
    expect(changesOfB).toBe(1);
    offA();
    offB();
  });

  it('a finished task is not made unfinished by a late message', async () => {
    const a = await HistoryStore.open(CONNECTION);
    const b = await HistoryStore.open(CONNECTION);
    await b.put(entry('t1', 'succeeded'));
    const offA = shareHistory(a, CONNECTION);
    const offB = shareHistory(b, CONNECTION);
    await a.put(entry('t1', 'queued')); // a had not heard yet
    await vi.waitFor(() => expect(a.get('t1')).toBeDefined());
    await new Promise((r) => setTimeout(r, 50));
    expect(b.get('t1')?.status).toBe('succeeded');
    offA();
    offB();
  });
});

/** navigator.locks as a browser has it, for one name: granted in turn, released when the callback's promise settles. */
function fakeLocks() {
  const queue: Array<{ grant: () => void; signal?: AbortSignal }> = [];
  let held = false;
  const next = () => {
    if (held) return;
    const waiter = queue.shift();
    if (!waiter) return;
    held = true;
    waiter.grant();
  };
  return {
    request(_name: string, options: { signal?: AbortSignal }, callback: () => Promise<void> | undefined) {
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          signal: options.signal,
          grant: () => {
            void Promise.resolve(callback()).then(() => {
              held = false;
              resolve();
              next();
            });
          },
        };
        options.signal?.addEventListener('abort', () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) {
            queue.splice(i, 1);
            reject(new DOMException('aborted', 'AbortError'));
          }
        });
        queue.push(waiter);
        next();
      });
    },
  };
}

describe('pollerLeadership', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('one tab polls at a time; when it goes, the next takes over', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks() });
    const first = vi.fn();
    const second = vi.fn();
    const offFirst = pollerLeadership(CONNECTION, first);
    const offSecond = pollerLeadership(CONNECTION, second);
    await vi.waitFor(() => expect(first).toHaveBeenCalledWith(true));
    expect(second).not.toHaveBeenCalled();
    offFirst();
    expect(first).toHaveBeenLastCalledWith(false);
    await vi.waitFor(() => expect(second).toHaveBeenCalledWith(true));
    offSecond();
  });

  it('without Web Locks, every tab polls for itself', () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    const leader = vi.fn();
    pollerLeadership(CONNECTION, leader)();
    expect(leader).toHaveBeenCalledWith(true);
  });
});
