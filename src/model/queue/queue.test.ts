import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { TaskCreated, TaskRequest } from '../../../contract/task';
import { DB_NAME, db, resetDbForTests } from '../db';
import type { HistoryEntry } from '../history/history-types';
import { createdEntry } from '../tasks/created-entry';
import { Outbox, type OutboxDeps } from '../tasks/outbox';
import {
  pauseReasonText,
  queueCost,
  slotsToFill,
  submitThroughQueue,
  TaskQueue,
  type QueueDeps,
  type QueueItem,
  type SettingsStorage,
} from './queue';

const CONN = 'conn-q';

const req = (prompt: string): TaskRequest => ({ interfaceId: 'm1', versionId: 'v1', params: { prompt } });
const meta = (credits: number | null = 4): HistoryEntry['meta'] => ({
  title: 'Model One',
  subtitle: 'v1',
  kind: 'model',
  mediaType: 'image',
  category: 'image/default',
  modelId: 'm1',
  versionId: 'v1',
  estimatedSeconds: 5,
  quotedCredits: credits,
});

async function settle(): Promise<void> {
  for (let i = 0; i < 60; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_000; i += 1) {
    if (check()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

async function reloadPage(): Promise<void> {
  (await db()).close();
  resetDbForTests();
}

class MemoryStorage implements SettingsStorage {
  map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, value);
}

const promptOf = (r: TaskRequest) => String(r.params.prompt);

interface Harness {
  queue: TaskQueue;
  outbox: Outbox;
  /** Prompts in the order POST /tasks received them, with their keys. */
  sent: { prompt: string; key: string }[];
  /** Free slots the pool has (the test plays the forecast). */
  slots: { free: number };
}

const disposers: (() => void)[] = [];
let keyCount = 0;

function harness({
  createTask,
  quote,
  storage = new MemoryStorage(),
  free = 0,
  leader = true,
}: {
  createTask?: OutboxDeps['createTask'];
  quote?: QueueDeps['quote'];
  storage?: SettingsStorage;
  free?: number;
  leader?: boolean;
} = {}): Harness {
  const sent: Harness['sent'] = [];
  let n = 0;
  const outbox = new Outbox({
    connectionId: CONN,
    createTask:
      createTask ??
      (async (request, key) => {
        sent.push({ prompt: promptOf(request), key });
        return { taskId: `t-${++n}-${key}`, status: 'queued' } as TaskCreated;
      }),
    // As the studio does: the history records the task (IndexedDB, shared by the tabs) before the outbox lets go.
    onCreated: async (entry, created) => {
      await (await db()).put('tasks', createdEntry(entry, created, undefined, CONN));
    },
  });
  const slots = { free };
  const queue = new TaskQueue({
    connectionId: CONN,
    submit: (request, m, options) => {
      // A slot the pool gives is taken by the task sent into it.
      slots.free = Math.max(0, slots.free - 1);
      return outbox.submit(request, m, options);
    },
    freeSlots: () => slots.free,
    quote,
    storage,
    leader,
    newKey: () => `k-${++keyCount}`,
  });
  disposers.push(
    () => queue.dispose(),
    () => outbox.dispose(),
  );
  return { queue, outbox, sent, slots };
}

const prompts = (items: readonly QueueItem[]) => items.map((i) => promptOf(i.request));

async function hold(queue: TaskQueue, names: string[], credits = 4): Promise<string[]> {
  return queue.enqueue(names.map((p) => ({ request: req(p), meta: meta(credits) })));
}

describe('TaskQueue', () => {
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    keyCount = 0;
    await reloadPage();
    await deleteDB(DB_NAME);
  });
  afterEach(() => {
    for (const off of disposers.splice(0)) off();
    vi.useRealTimers();
  });

  it('holds tasks with their keys in the outbox store and sends none while the pool is full', async () => {
    const h = harness({ free: 0 });
    const keys = await hold(h.queue, ['a', 'b', 'c']);
    await settle();
    expect(h.sent).toEqual([]);
    const stored = await (await db()).getAll('outbox');
    expect(stored.map((e) => e.idempotencyKey).sort()).toEqual([...keys].sort());
    expect(stored.every((e) => e.held !== undefined)).toBe(true);
    // The outbox's own resume leaves held tasks alone: they are not sent by a reload.
    await h.outbox.resume();
    await settle();
    expect(h.sent).toEqual([]);
  });

  it('sends in queue order as the pool frees places, no more than it has free', async () => {
    const h = harness({ free: 2 });
    await hold(h.queue, ['a', 'b', 'c', 'd']);
    await waitUntil(() => h.sent.length === 2, 'two sent');
    await settle();
    expect(h.sent.map((s) => s.prompt)).toEqual(['a', 'b']);
    h.slots.free = 1;
    await vi.advanceTimersByTimeAsync(1_000);
    await waitUntil(() => h.sent.length === 3, 'a third sent');
    await settle();
    expect(h.sent.map((s) => s.prompt)).toEqual(['a', 'b', 'c']);
    expect(prompts(h.queue.snapshot().items)).toEqual(['d']);
  });

  it('sends each task with the Idempotency-Key it was given when queued', async () => {
    const h = harness({ free: 0 });
    const keys = await hold(h.queue, ['a', 'b']);
    h.slots.free = 2;
    h.queue.kick();
    await waitUntil(() => h.sent.length === 2, 'both sent');
    expect(h.sent.map((s) => s.key)).toEqual(keys);
  });

  it('settled() answers what a queued task came to once sent, or null once removed', async () => {
    const h = harness({ free: 0 });
    const [a, b] = await hold(h.queue, ['a', 'b']);
    const settledA = h.queue.settled(a!);
    const settledB = h.queue.settled(b!);
    await h.queue.remove([b!]);
    expect(await settledB).toBeNull();
    h.slots.free = 1;
    h.queue.kick();
    expect((await settledA)?.kind).toBe('created');
  });

  it('pause holds everything; resume lets it go', async () => {
    const h = harness({ free: 0 });
    h.queue.pause();
    await hold(h.queue, ['a', 'b', 'c']);
    h.slots.free = 3;
    await vi.advanceTimersByTimeAsync(3_000);
    await settle();
    expect(h.sent).toEqual([]);
    h.queue.resume();
    await waitUntil(() => h.sent.length === 3, 'all sent after resume');
  });

  it('reordering changes the order they are sent in, and survives a reload', async () => {
    const storage = new MemoryStorage();
    const h = harness({ free: 0, storage });
    const [a, , c] = await hold(h.queue, ['a', 'b', 'c', 'd']);
    await h.queue.move(c!, 0);
    await h.queue.move(a!, 3);
    expect(prompts(h.queue.snapshot().items)).toEqual(['c', 'b', 'd', 'a']);
    h.queue.dispose();
    await reloadPage();
    const again = harness({ free: 4, storage });
    await again.queue.start();
    await waitUntil(() => again.sent.length === 4, 'all sent');
    expect(again.sent.map((s) => s.prompt)).toEqual(['c', 'b', 'd', 'a']);
  });

  it('keeps order through many moves to the same place (positions spaced out again)', async () => {
    const h = harness({ free: 0 });
    const keys = await hold(h.queue, ['a', 'b', 'c']);
    // Each move lands between the first two: the gap halves every time until it is spaced out anew.
    for (let i = 0; i < 60; i += 1) await h.queue.move(keys[i % 2 === 0 ? 2 : 1]!, 1);
    const order = prompts(h.queue.snapshot().items);
    expect(order[0]).toBe('a');
    expect(new Set(order).size).toBe(3);
  });

  it('a removed task is never sent; undo brings it back at its place with its key', async () => {
    const h = harness({ free: 0 });
    const [a, b, c] = await hold(h.queue, ['a', 'b', 'c']);
    const removed = await h.queue.remove([b!]);
    expect(prompts(h.queue.snapshot().items)).toEqual(['a', 'c']);
    expect(await (await db()).get('outbox', b!)).toBeUndefined();
    await h.queue.restore(removed);
    expect(prompts(h.queue.snapshot().items)).toEqual(['a', 'b', 'c']);
    await h.queue.remove([a!, c!]);
    h.slots.free = 5;
    h.queue.kick();
    await waitUntil(() => h.sent.length === 1, 'the one left sent');
    await settle();
    expect(h.sent).toEqual([{ prompt: 'b', key: b }]);
  });

  it('unsent() names the keys neither held nor on their way: removed ones, not held or sent ones', async () => {
    const h = harness({ free: 0, createTask: () => new Promise<TaskCreated>(() => undefined) });
    const [a, b, c] = await hold(h.queue, ['a', 'b', 'c']);
    await h.queue.remove([b!]);
    // a goes and is not answered yet: on its way, an ordinary outbox entry.
    void h.queue.sendNow(a!);
    await waitUntil(() => h.outbox.entries().length === 1, 'a on its way');
    expect(await h.queue.unsent([a!, b!, c!, 'never-queued'])).toEqual([b, 'never-queued']);
    // The same after a reload, from another page of the connection.
    h.queue.dispose();
    await reloadPage();
    const again = harness({ free: 0 });
    await again.queue.start();
    expect(await again.queue.unsent([a!, b!, c!])).toEqual([b]);
  });

  it('Send now sends one task at once, past the pause and a full pool', async () => {
    const h = harness({ free: 0 });
    h.queue.pause();
    const [, b] = await hold(h.queue, ['a', 'b']);
    const result = await h.queue.sendNow(b!);
    expect(result?.kind).toBe('created');
    expect(h.sent.map((s) => s.prompt)).toEqual(['b']);
    expect(prompts(h.queue.snapshot().items)).toEqual(['a']);
  });

  it('a paused task is passed over; the ones behind it go', async () => {
    const h = harness({ free: 0 });
    const [a] = await hold(h.queue, ['a', 'b']);
    await h.queue.setTaskPaused(a!, true);
    h.slots.free = 2;
    h.queue.kick();
    await waitUntil(() => h.sent.length === 1, 'b sent');
    await settle();
    expect(h.sent.map((s) => s.prompt)).toEqual(['b']);
    expect(prompts(h.queue.snapshot().items)).toEqual(['a']);
  });

  it('a crash between send and answer: after the reload the task is re-sent with its key, once, and not held', async () => {
    const storage = new MemoryStorage();
    const keys: string[] = [];
    // The first page sends and never hears back (the tab dies).
    const first = harness({
      free: 1,
      storage,
      createTask: (_r, key) => (keys.push(key), new Promise(() => {})),
    });
    await hold(first.queue, ['a', 'b']);
    await waitUntil(() => keys.length === 1, 'a out');
    first.queue.dispose();
    first.outbox.dispose();
    await reloadPage();
    const second = harness({ free: 0, storage });
    await second.queue.start();
    await second.outbox.resume();
    await settle();
    expect(second.sent).toEqual([{ prompt: 'a', key: keys[0] }]);
    expect(prompts(second.queue.snapshot().items)).toEqual(['b']);
  });

  it('two tabs of one key release each task once', async () => {
    const storage = new MemoryStorage();
    const one = harness({ free: 0, storage });
    await hold(one.queue, ['a', 'b', 'c']);
    const two = harness({ free: 0, storage });
    await two.queue.start();
    const all: string[] = [];
    one.slots.free = 3;
    two.slots.free = 3;
    one.queue.kick();
    two.queue.kick();
    await waitUntil(() => one.sent.length + two.sent.length >= 3, 'all three sent');
    await settle();
    all.push(...one.sent.map((s) => s.prompt), ...two.sent.map((s) => s.prompt));
    expect(all.sort()).toEqual(['a', 'b', 'c']);
  });

  it('a 402 on sending puts the task back at its place and pauses the queue, saying why', async () => {
    const h = harness({
      free: 2,
      createTask: async () => {
        throw new ApiError({ status: 402, code: 'arrears', type: 'billing_error' });
      },
    });
    const keys = await hold(h.queue, ['a', 'b']);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'paused');
    await settle();
    const { items, settings } = h.queue.snapshot();
    expect(items.map((i) => i.idempotencyKey)).toEqual(keys);
    expect(pauseReasonText(settings.pausedReason!)).toMatch(/^Paused: /);
    expect((await (await db()).get('outbox', keys[0]!))?.held).toBeDefined();
  });

  it('a task taken back after a 402 stays the queue\'s: its caller is not told "refused"; it settles once sent after Resume', async () => {
    let calls = 0;
    const h = harness({
      free: 1,
      createTask: async (request, key) => {
        calls += 1;
        if (calls === 1)
          throw new ApiError({ status: 402, code: 'insufficient_credits', type: 'invalid_request_error' });
        h.sent.push({ prompt: promptOf(request), key });
        return { taskId: `t-${key}`, status: 'queued' } as TaskCreated;
      },
    });
    const [a] = await hold(h.queue, ['a']);
    let outcome: unknown = 'open';
    void h.queue.settled(a!).then((r) => (outcome = r));
    await waitUntil(() => h.queue.snapshot().settings.paused, 'paused');
    await settle();
    // Held again, the queue paused: one owner, the queue. Nothing settled, so nothing offers a run of its own.
    expect(outcome).toBe('open');
    expect(h.queue.placeOf(a!)).toBe(1);
    h.slots.free = 1;
    h.queue.resume();
    await waitUntil(() => outcome !== 'open', 'settled once sent');
    expect(outcome).toMatchObject({ kind: 'created', idempotencyKey: a });
    expect(h.sent.map((s) => s.key)).toEqual([a]);
    expect(calls).toBe(2);
  });

  it('a 402 pauses the queue before it looks again: with slots free, the task taken back is not sent again', async () => {
    let calls = 0;
    const h = harness({
      free: 3,
      createTask: async (request, key) => {
        calls += 1;
        if (calls === 1)
          throw new ApiError({ status: 402, code: 'insufficient_credits', type: 'invalid_request_error' });
        h.sent.push({ prompt: promptOf(request), key });
        return { taskId: `t-${key}`, status: 'queued' } as TaskCreated;
      },
    });
    await hold(h.queue, ['a']);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'paused');
    h.slots.free = 3;
    await vi.advanceTimersByTimeAsync(3_000);
    await settle();
    expect(calls).toBe(1);
    expect(h.sent).toEqual([]);
    expect(prompts(h.queue.snapshot().items)).toEqual(['a']);
  });

  it("a task taken back after the daily cap's 429 and then removed settles with null", async () => {
    const h = harness({
      free: 1,
      createTask: async () => {
        throw new ApiError({ status: 429, code: 'token_daily_cap_reached', type: 'rate_limit_error' });
      },
    });
    const [a] = await hold(h.queue, ['a']);
    let outcome: unknown = 'open';
    void h.queue.settled(a!).then((r) => (outcome = r));
    await waitUntil(() => h.queue.snapshot().settings.paused, 'paused');
    await settle();
    expect(outcome).toBe('open');
    await h.queue.remove([a!]);
    await settle();
    expect(outcome).toBeNull();
  });

  it('a refusal the queue does not take back (400) is told to its caller, the task blocked, the queue running', async () => {
    const h = harness({
      free: 1,
      createTask: async () => {
        throw new ApiError({ status: 400, code: 'invalid_payload', type: 'invalid_request_error' });
      },
    });
    const [a] = await hold(h.queue, ['a']);
    const result = await h.queue.settled(a!);
    expect(result?.kind).toBe('refused');
    expect(h.queue.snapshot().items[0]?.held.blocked).not.toBeNull();
    expect(h.queue.snapshot().settings.paused).toBe(false);
  });

  it('the pause reason is stored as a code and its data, never as words of one language', async () => {
    const storage = new MemoryStorage();
    const h = harness({
      free: 1,
      storage,
      createTask: async () => {
        throw new ApiError({
          status: 402,
          code: 'insufficient_credits',
          type: 'invalid_request_error',
          extra: { balance: 1, credits: 4 },
        });
      },
    });
    await hold(h.queue, ['a']);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'paused');
    const stored = JSON.parse([...storage.map.values()][0]!) as { pausedReason: unknown };
    expect(stored.pausedReason).toMatchObject({
      code: 'refused',
      status: 402,
      errorCode: 'insufficient_credits',
    });
    expect(JSON.stringify(stored)).not.toMatch(/Paused/);
    // Read back (another tab, a reload) and worded when shown.
    const again = harness({ storage });
    expect(pauseReasonText(again.queue.snapshot().settings.pausedReason!)).toMatch(/^Paused: /);
    await h.queue.remove(h.queue.snapshot().items.map((i) => i.idempotencyKey));
    h.queue.setStopAfterCredits(3);
    h.slots.free = 5;
    h.queue.resume();
    await hold(h.queue, ['b']);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'stopped');
    expect(h.queue.snapshot().settings.pausedReason).toEqual({ code: 'credit-stop', limit: 3 });
    expect(pauseReasonText({ code: 'credit-stop', limit: 3 })).toMatch(/^Stopped before passing /);
  });

  it('two quick enqueues (no await between them) take two positions, in the order of the calls', async () => {
    const h = harness({ free: 0 });
    const [[a], [b]] = await Promise.all([hold(h.queue, ['a']), hold(h.queue, ['b'])]);
    const stored = await (await db()).getAll('outbox');
    const positions = new Map(stored.map((e) => [e.idempotencyKey, e.held!.position]));
    expect(positions.get(a!)).not.toBe(positions.get(b!));
    expect(prompts(h.queue.snapshot().items)).toEqual(['a', 'b']);
  });

  it('two tabs enqueueing at once take two positions', async () => {
    const storage = new MemoryStorage();
    const one = harness({ free: 0, storage });
    const two = harness({ free: 0, storage, leader: false });
    await Promise.all([one.queue.start(), two.queue.start()]);
    await Promise.all([hold(one.queue, ['a']), hold(two.queue, ['b'])]);
    const stored = await (await db()).getAll('outbox');
    expect(new Set(stored.map((e) => e.held!.position)).size).toBe(2);
  });

  it('under a credit stop, a task of unknown price does not slip past it: without a quote the queue stops and says why', async () => {
    const h = harness({ free: 10 });
    h.queue.setStopAfterCredits(10);
    await hold(h.queue, ['a', 'b', 'c'], null as unknown as number);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'stopped');
    await settle();
    expect(h.sent).toEqual([]);
    expect(h.queue.snapshot().settings.pausedReason).toEqual({ code: 'unpriced', limit: 10 });
  });

  it('sends in the queue’s order whichever price check answers first (the first task’s answers last)', async () => {
    const answers = new Map<string, () => void>();
    const h = harness({
      free: 0,
      quote: (request) =>
        new Promise((resolve) => answers.set(promptOf(request), () => resolve({ credits: 4 }))),
    });
    await hold(h.queue, ['a', 'b', 'c']);
    h.slots.free = 3;
    h.queue.kick();
    await waitUntil(() => answers.size === 3, 'three price checks');
    for (const name of ['c', 'b', 'a']) {
      answers.get(name)!();
      await settle();
    }
    await waitUntil(() => h.sent.length === 3, 'three sent');
    expect(h.sent.map((s) => s.prompt)).toEqual(['a', 'b', 'c']);
  });

  it('sends the next task only once the service has answered the one before (a slow first send goes first)', async () => {
    // The outbox writes each task down before its POST: a later task's write could finish first and its
    // POST reach the service first. Each send now waits for the answer to the one before it.
    const called: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let n = 0;
    const h = harness({
      free: 0,
      createTask: async (request, key) => {
        called.push(promptOf(request));
        if (promptOf(request) === 'a') await gate;
        return { taskId: `t-${++n}-${key}`, status: 'queued' } as TaskCreated;
      },
    });
    await hold(h.queue, ['a', 'b', 'c']);
    h.slots.free = 3;
    h.queue.kick();
    await waitUntil(() => called.length === 1, 'the first sent');
    for (let i = 0; i < 5; i++) await settle();
    expect(called).toEqual(['a']);
    openGate();
    await waitUntil(() => called.length === 3, 'three sent');
    expect(called).toEqual(['a', 'b', 'c']);
  });

  it('under a credit stop, a task of unknown price is priced first and counted', async () => {
    const h = harness({ free: 10, quote: async () => ({ credits: 4 }) });
    h.queue.setStopAfterCredits(10);
    await hold(h.queue, ['a', 'b', 'c'], null as unknown as number);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'stopped');
    await settle();
    expect(h.sent.map((s) => s.prompt)).toEqual(['a', 'b']);
    expect(h.queue.snapshot().sentCredits).toBe(8);
    expect(h.queue.snapshot().settings.pausedReason).toEqual({ code: 'credit-stop', limit: 10 });
  });

  it('a task this tab queued and another tab sent or removed settles here: with its task, or null', async () => {
    const storage = new MemoryStorage();
    const mine = harness({ free: 0, storage, leader: false });
    const leader = harness({ free: 0, storage });
    await Promise.all([mine.queue.start(), leader.queue.start()]);
    const [a, b] = await hold(mine.queue, ['a', 'b']);
    const outcomes = new Map<string, unknown>();
    for (const key of [a!, b!]) void mine.queue.settled(key).then((r) => outcomes.set(key, r));
    await waitUntil(() => leader.queue.snapshot().items.length === 2, 'the leader reads them');
    await leader.queue.remove([b!]);
    await waitUntil(() => outcomes.has(b!), 'b settled here');
    expect(outcomes.get(b!)).toBeNull();
    leader.slots.free = 1;
    leader.queue.kick();
    await waitUntil(() => outcomes.has(a!), 'a settled here');
    expect(outcomes.get(a!)).toMatchObject({
      kind: 'created',
      idempotencyKey: a,
      created: { taskId: expect.any(String) },
    });
    expect(leader.sent.map((s) => s.key)).toEqual([a]);
  });

  it('a task another tab released before this tab removes it is on its way, not removed: its caller later gets its task', async () => {
    const mine = harness({ free: 0 });
    const [a] = await hold(mine.queue, ['a']);
    let outcome: unknown = 'open';
    void mine.queue.settled(a!).then((r) => (outcome = r));
    // Another tab claims it (the entry loses `held`, as claim() writes it) before this tab hears of it.
    const claimed = await (await db()).get('outbox', a!);
    const { held: _held, ...sending } = claimed!;
    await (await db()).put('outbox', sending);
    expect(await mine.queue.remove([a!])).toEqual([]);
    await settle();
    expect(outcome, 'not told "removed": the task is being sent').toBe('open');
    expect(await (await db()).get('outbox', a!), 'the other tab’s entry is left alone').toBeDefined();
    // That tab's outbox records the task and lets go of its entry; it tells this tab's queue nothing,
    // but the history changed here (tab sync), which kicks the queue.
    await (
      await db()
    ).put(
      'tasks',
      createdEntry(sending, { taskId: 't-elsewhere', status: 'queued' } as TaskCreated, undefined, CONN),
    );
    await (await db()).delete('outbox', a!);
    mine.queue.kick();
    await waitUntil(() => outcome !== 'open', 'a settled here');
    expect(outcome).toMatchObject({ kind: 'created', idempotencyKey: a, created: { taskId: 't-elsewhere' } });
  });

  it('the count published to the team: only what would go, only from the tab that releases', async () => {
    const storage = new MemoryStorage();
    const h = harness({ free: 0, storage });
    const other = harness({ free: 0, storage, leader: false });
    const [a] = await hold(h.queue, ['a', 'b', 'c', 'd']);
    await other.queue.reload();
    expect(other.queue.snapshot().items).toHaveLength(4);
    expect(h.queue.waitingForPool()).toBe(4);
    expect(h.queue.heldForTeam()).toBe(4);
    // The same four held tasks, seen by a second tab of the same member: it says none.
    expect(other.queue.waitingForPool()).toBe(0);
    expect(other.queue.heldForTeam()).toBe(0);
    await h.queue.setTaskPaused(a!, true);
    expect(h.queue.waitingForPool()).toBe(3);
    h.queue.pause();
    expect(h.queue.waitingForPool()).toBe(0);
    // Paused, the team's queue still shows what this member holds.
    expect(h.queue.heldForTeam()).toBe(4);
  });

  it('a task refused as invalid stays held with the reason and is not tried again', async () => {
    let calls = 0;
    const h = harness({
      free: 1,
      createTask: async () => {
        calls += 1;
        throw new ApiError({ status: 400, code: 'invalid_payload', type: 'invalid_request_error' });
      },
    });
    await hold(h.queue, ['a']);
    await waitUntil(() => h.queue.snapshot().items[0]?.held.blocked != null, 'blocked');
    await vi.advanceTimersByTimeAsync(5_000);
    await settle();
    expect(calls).toBe(1);
    expect(h.queue.snapshot().settings.paused).toBe(false);
  });

  it('a model gone since queued (the quote refuses) stays held with the reason, unsent', async () => {
    const h = harness({
      free: 1,
      quote: async () => {
        throw new ApiError({ status: 404, code: 'unknown_model', type: 'invalid_request_error' });
      },
    });
    await hold(h.queue, ['a']);
    await waitUntil(() => h.queue.snapshot().items[0]?.held.blocked != null, 'blocked');
    expect(h.sent).toEqual([]);
  });

  it('a held task whose upload is gone stays held with the reason, unsent again, after a reload too', async () => {
    const storage = new MemoryStorage();
    let calls = 0;
    const goneUpload = async (): Promise<TaskCreated> => {
      calls += 1;
      throw new ApiError({ status: 404, code: 'unknown_upload', type: 'invalid_request_error' });
    };
    const h = harness({ free: 1, storage, createTask: goneUpload });
    const [key] = await hold(h.queue, ['a']);
    await waitUntil(() => h.queue.snapshot().items[0]?.held.blocked != null, 'blocked');
    const reason = h.queue.snapshot().items[0]!.held.blocked!;
    expect(reason).toMatch(/upload was not found/);
    expect(reason).toMatch(/upload the file again/);
    await vi.advanceTimersByTimeAsync(5_000);
    await settle();
    expect(calls).toBe(1);
    expect(h.queue.snapshot().settings.paused).toBe(false);
    // The reason is written down with the task: a reload shows it held, with its key, and sends nothing.
    h.queue.dispose();
    await reloadPage();
    const again = harness({ free: 1, storage, createTask: goneUpload });
    await again.queue.start();
    await vi.advanceTimersByTimeAsync(3_000);
    await settle();
    expect(calls).toBe(1);
    const [item] = again.queue.snapshot().items;
    expect(item?.idempotencyKey).toBe(key);
    expect(item?.held.blocked).toBe(reason);
  });

  it('a price that rose since queued is asked about first, and sent once accepted', async () => {
    const h = harness({ free: 1, quote: async () => ({ credits: 6 }) });
    const [a] = await hold(h.queue, ['a'], 4);
    await waitUntil(() => h.queue.snapshot().items[0]?.held.newPrice === 6, 'new price');
    await vi.advanceTimersByTimeAsync(3_000);
    await settle();
    expect(h.sent).toEqual([]);
    await h.queue.acceptPrice(a!);
    await waitUntil(() => h.sent.length === 1, 'sent at the new price');
  });

  it('stops (pauses) before the credits sent this session would pass the limit', async () => {
    const h = harness({ free: 10 });
    h.queue.setStopAfterCredits(10);
    await hold(h.queue, ['a', 'b', 'c'], 4);
    await waitUntil(() => h.queue.snapshot().settings.paused, 'stopped');
    await settle();
    expect(h.sent.map((s) => s.prompt)).toEqual(['a', 'b']);
    expect(h.queue.snapshot().sentCredits).toBe(8);
  });

  it('"send at once" sends everything whatever the pool', async () => {
    const h = harness({ free: 0 });
    h.queue.setSendAtOnce(true);
    await hold(h.queue, ['a', 'b', 'c']);
    await waitUntil(() => h.sent.length === 3, 'all sent');
  });
});

describe("submitThroughQueue (a Compare board's run, keys written down first)", () => {
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    keyCount = 0;
    await reloadPage();
    await deleteDB(DB_NAME);
  });
  afterEach(() => {
    for (const off of disposers.splice(0)) off();
    vi.useRealTimers();
  });

  const cells = (names: string[]) =>
    names.map((p) => ({ request: req(p), meta: meta(2), idempotencyKey: `cell-${p}` }));
  const submitOf = (h: Harness) => (r: TaskRequest, m: HistoryEntry['meta'], o: { idempotencyKey: string }) =>
    h.outbox.submit(r, m, o);

  it('holds the cells with their own keys while the pool is full, and sends them with those keys as it frees', async () => {
    const h = harness({ free: 0 });
    const { held, results } = await submitThroughQueue(h.queue, submitOf(h), cells(['a', 'b', 'c']));
    await settle();
    expect(held).toBe(true);
    expect(h.sent).toEqual([]);
    const items = h.queue.snapshot().items;
    expect(items.map((i) => i.idempotencyKey)).toEqual(['cell-a', 'cell-b', 'cell-c']);
    // Cells are separate tasks in the history, not a batch.
    expect(items.every((i) => i.meta.batchId === undefined && i.batchId === undefined)).toBe(true);
    h.slots.free = 2;
    h.queue.kick();
    await waitUntil(() => h.sent.length === 2, 'two sent');
    await settle();
    expect(h.sent).toEqual([
      { prompt: 'a', key: 'cell-a' },
      { prompt: 'b', key: 'cell-b' },
    ]);
    const [a, b] = await Promise.all(results.slice(0, 2));
    expect([a?.kind, b?.kind]).toEqual(['created', 'created']);
    await h.queue.remove(['cell-c']);
    expect(await results[2]).toBeNull();
  });

  it('sends at once, with the keys, when the pool has room for them all', async () => {
    const h = harness({ free: 3 });
    const { held, results } = await submitThroughQueue(h.queue, submitOf(h), cells(['a', 'b']));
    expect(held).toBe(false);
    expect((await Promise.all(results)).map((r) => r?.kind)).toEqual(['created', 'created']);
    expect(h.sent.map((s) => s.key)).toEqual(['cell-a', 'cell-b']);
    expect(h.queue.snapshot().items).toEqual([]);
  });

  it('sends every cell at once, whatever the pool, under "Send every task at once"', async () => {
    const h = harness({ free: 0 });
    h.queue.setSendAtOnce(true);
    const { held, results } = await submitThroughQueue(h.queue, submitOf(h), cells(['a', 'b', 'c']));
    expect(held).toBe(false);
    await Promise.all(results);
    expect(h.sent.map((s) => s.key)).toEqual(['cell-a', 'cell-b', 'cell-c']);
  });
});

describe('slotsToFill', () => {
  it('fills the free slots of the pool, no more', () => {
    expect(slotsToFill({ concurrency: 5, busy: 3, mineBusy: 3, sending: 0 })).toBe(2);
    expect(slotsToFill({ concurrency: 5, busy: 4, mineBusy: 2, sending: 1 })).toBe(0);
    expect(slotsToFill({ concurrency: 5, busy: 7, mineBusy: 0, sending: 0 })).toBe(0);
  });

  it('offers half as many slots again (at least one) while the concurrency is a guess, so a larger pool shows itself soon', () => {
    expect(slotsToFill({ concurrency: 3, confirmed: false, busy: 3, mineBusy: 3, sending: 0 })).toBe(2);
    expect(slotsToFill({ concurrency: 3, confirmed: true, busy: 3, mineBusy: 3, sending: 0 })).toBe(0);
    expect(slotsToFill({ concurrency: 5, confirmed: false, busy: 0, mineBusy: 0, sending: 0 })).toBe(8);
    expect(slotsToFill({ concurrency: 1, confirmed: false, busy: 1, mineBusy: 1, sending: 0 })).toBe(1);
  });

  it('keeps to a fair share of a team pool while other members wait', () => {
    // Pool of 6, two others waiting: a share of 2; this member has 1 running.
    expect(slotsToFill({ concurrency: 6, busy: 2, mineBusy: 1, sending: 0, othersWaiting: 2 })).toBe(1);
    expect(slotsToFill({ concurrency: 6, busy: 2, mineBusy: 2, sending: 0, othersWaiting: 2 })).toBe(0);
    // Nobody else waiting: the whole free pool.
    expect(slotsToFill({ concurrency: 6, busy: 2, mineBusy: 2, sending: 0, othersWaiting: 0 })).toBe(4);
    // More members than slots: still one each.
    expect(slotsToFill({ concurrency: 2, busy: 0, mineBusy: 0, sending: 0, othersWaiting: 5 })).toBe(1);
  });

  it('hands out the remainder of a pool that does not divide: the first members by id get one more, none idle', () => {
    // A pool of 5, three members waiting: 2 + 2 + 1, the whole pool busy.
    const shares = [0, 1, 2].map((rank) =>
      slotsToFill({ concurrency: 5, busy: 0, mineBusy: 0, sending: 0, othersWaiting: 2, rank }),
    );
    expect(shares).toEqual([2, 2, 1]);
    expect(shares.reduce((a, b) => a + b)).toBe(5);
    // Two members on a pool of 3: 2 and 1.
    expect(slotsToFill({ concurrency: 3, busy: 0, mineBusy: 0, sending: 0, othersWaiting: 1, rank: 0 })).toBe(
      2,
    );
    expect(slotsToFill({ concurrency: 3, busy: 0, mineBusy: 0, sending: 0, othersWaiting: 1, rank: 1 })).toBe(
      1,
    );
  });
});

describe('queueCost', () => {
  const item = (key: string, credits: number | null): QueueItem => ({
    idempotencyKey: key,
    connectionId: CONN,
    request: req(key),
    meta: meta(credits),
    createdAt: 0,
    attempts: 0,
    lastAttemptAt: null,
    lastError: null,
    held: { position: 0, paused: false, queuedAt: 0, credits, blocked: null, newPrice: null },
  });

  it('totals the queue and marks the first task the cap or the balance would refuse', () => {
    const items = [item('a', 4), item('b', null), item('c', 4), item('d', 4)];
    expect(queueCost(items, { balance: 100, capRemaining: 10 })).toEqual({
      total: 12,
      unpriced: 1,
      firstRefused: { idempotencyKey: 'd', reason: 'cap' },
    });
    expect(queueCost(items, { balance: 7, capRemaining: null }).firstRefused).toEqual({
      idempotencyKey: 'c',
      reason: 'balance',
    });
    expect(queueCost(items, { balance: 12, capRemaining: null }).firstRefused).toBeNull();
  });
});
