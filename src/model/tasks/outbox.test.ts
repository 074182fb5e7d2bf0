import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, clientError, invalidResponse } from '../../api/errors';
import type { TaskCreated, TaskRequest } from '../../../contract/task';
import { DB_NAME, db, resetDbForTests, type OutboxEntry } from '../db';
import type { HistoryEntry } from '../history/history-types';
import { Outbox, RESEND_WINDOW_MS, outcomeUnknown, type OutboxDeps, type SubmitResult } from './outbox';

const CONN = 'conn-a';
const T0 = Date.parse('2025-06-01T12:00:00Z');

const request = (): TaskRequest => ({
  interfaceId: 'm1',
  versionId: 'v1',
  params: { prompt: 'a red fox', 'style.strength': 0.7, refs: ['https://cdn.example/a.png'] },
});

const meta: HistoryEntry['meta'] = {
  title: 'Model One',
  subtitle: 'v1',
  kind: 'model',
  mediaType: 'image',
  category: 'image/default',
  modelId: 'm1',
  versionId: 'v1',
  estimatedSeconds: 8,
  quotedCredits: 4,
};

const created = (taskId = 'task_1', patch: Partial<TaskCreated> = {}): TaskCreated => ({
  taskId,
  status: 'queued',
  modelId: 'm1',
  versionId: 'v1',
  ...patch,
});

const refusal = (status: number, code: string) =>
  new ApiError({ status, code, type: 'invalid_request_error' });

type CreateTask = OutboxDeps['createTask'];
type OnCreated = OutboxDeps['onCreated'];

/** Lets real macrotasks run (fake-indexeddb works on setImmediate, which stays real) until check holds. */
async function waitUntil(check: () => boolean | Promise<boolean>, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 1_000; i += 1) {
    if (await check()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Lets pending IndexedDB work finish, so that "nothing was sent" is really nothing. */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

const stored = async (key: string): Promise<OutboxEntry | undefined> => (await db()).get('outbox', key);
const storedAll = async (): Promise<OutboxEntry[]> => (await db()).getAll('outbox');

/** A page reload: the old page's database handle closes, the new page opens its own. */
async function reload(): Promise<void> {
  (await db()).close();
  resetDbForTests();
}

const outboxes: Outbox[] = [];
let keys = 0;

function makeOutbox(createTask: CreateTask, onCreated: OnCreated = vi.fn(async () => {})): Outbox {
  const outbox = new Outbox({
    connectionId: CONN,
    createTask,
    onCreated,
    newKey: () => `key-${++keys}`,
  });
  outboxes.push(outbox);
  return outbox;
}

describe('Outbox', () => {
  beforeEach(async () => {
    // setImmediate stays real: fake-indexeddb needs it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    keys = 0;
    await reload();
    await deleteDB(DB_NAME);
  });
  afterEach(() => {
    for (const outbox of outboxes.splice(0)) outbox.dispose();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('writes the entry before sending, records the created task, then deletes the entry', async () => {
    const order: string[] = [];
    const database = await db();
    const put = database.put.bind(database);
    // idb's put resolves once its transaction has committed.
    vi.spyOn(database, 'put').mockImplementation(async (...args: Parameters<typeof put>) => {
      const key = await put(...args);
      order.push('committed');
      return key;
    });
    const seenInDb: (OutboxEntry | undefined)[] = [];
    const createTask = vi.fn<CreateTask>(async (_request, key) => {
      order.push('sent');
      seenInDb.push(await stored(key));
      return created();
    });
    const onCreated = vi.fn<OnCreated>(async (_entry, _created) => {
      // The entry is still there while the caller writes the history entry.
      seenInDb.push(await stored('key-1'));
    });
    const outbox = makeOutbox(createTask, onCreated);

    const result = await outbox.submit(request(), meta);

    expect(result).toEqual({ kind: 'created', created: created(), idempotencyKey: 'key-1' });
    expect(order).toEqual(['committed', 'sent']);
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(createTask.mock.calls[0]?.[0]).toEqual(request());
    expect(createTask.mock.calls[0]?.[1]).toBe('key-1');
    expect(seenInDb[0]).toEqual({
      idempotencyKey: 'key-1',
      connectionId: CONN,
      request: request(),
      meta,
      createdAt: T0,
      attempts: 1,
      lastAttemptAt: T0,
      lastError: null,
    });
    expect(seenInDb[1]?.idempotencyKey).toBe('key-1');
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(onCreated.mock.calls[0]?.[0]).toMatchObject({ idempotencyKey: 'key-1', request: request(), meta });
    expect(onCreated.mock.calls[0]?.[1]).toEqual(created());
    expect(await stored('key-1')).toBeUndefined();
    expect(outbox.entries()).toEqual([]);
  });

  it('a refusal (4xx) deletes the entry, returns the error and re-sends nothing', async () => {
    const error = refusal(400, 'invalid_payload');
    const createTask = vi.fn<CreateTask>(async () => {
      throw error;
    });
    const onCreated = vi.fn<OnCreated>(async () => {});
    const outbox = makeOutbox(createTask, onCreated);

    const result = await outbox.submit(request(), meta);

    expect(result).toEqual({ kind: 'refused', error, idempotencyKey: 'key-1' });
    expect(await storedAll()).toEqual([]);
    expect(outbox.entries()).toEqual([]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it.each([
    [402, 'token_daily_cap_exceeded'],
    [422, 'moderation_blocked'],
    // The daily cap is decided after the key's replay: it answers for the key.
    [429, 'token_daily_cap_reached'],
  ])('treats %i %s as a refusal (nothing was created)', async (status, code) => {
    const outbox = makeOutbox(async () => {
      throw refusal(status, code);
    });
    const result = await outbox.submit(request(), meta);
    expect(result.kind).toBe('refused');
    expect(await storedAll()).toEqual([]);
  });

  it('classifies which failures may have created the task', () => {
    expect(outcomeUnknown(clientError('network_error'))).toBe(true);
    expect(outcomeUnknown(clientError('timeout'))).toBe(true);
    expect(outcomeUnknown(clientError('aborted'))).toBe(true);
    expect(outcomeUnknown(invalidResponse(200, []))).toBe(true); // created, but the body was unreadable
    expect(outcomeUnknown(refusal(502, 'invalid_response'))).toBe(true);
    expect(outcomeUnknown(refusal(504, 'invalid_response'))).toBe(true);
    expect(outcomeUnknown(refusal(500, 'internal'))).toBe(true);
    // Answered before the key is read: the answer may be to the browser's own re-send of one that acted.
    expect(outcomeUnknown(refusal(503, 'no_enabled_provider'))).toBe(true);
    expect(outcomeUnknown(refusal(429, 'rate_limited'))).toBe(true);
    expect(outcomeUnknown(refusal(400, 'invalid_payload'))).toBe(false);
    expect(outcomeUnknown(refusal(401, 'invalid_token'))).toBe(false);
  });

  it('without an answer keeps the entry and re-sends the identical request with the same key', async () => {
    const answers: (() => TaskCreated)[] = [
      () => {
        throw clientError('timeout');
      },
      () => {
        throw clientError('network_error');
      },
      () => created('task_9', { idempotent: true }),
    ];
    const createTask = vi.fn<CreateTask>(async () => {
      const next = answers.shift();
      if (!next) throw new Error('sent too often');
      return next();
    });
    const onCreated = vi.fn<OnCreated>(async () => {});
    const outbox = makeOutbox(createTask, onCreated);
    const mine = request();

    const result = await outbox.submit(mine, meta);
    // Whatever the caller does to its object afterwards, the re-send is what was first sent.
    mine.params.prompt = 'changed after the click';

    expect(result.kind).toBe('pending');
    expect(result).toMatchObject({ idempotencyKey: 'key-1', error: { status: 0, code: 'timeout' } });
    expect(await stored('key-1')).toMatchObject({
      request: request(),
      attempts: 1,
      lastError: 'The API did not answer in time.',
    });
    expect(outbox.entries()).toMatchObject([
      { idempotencyKey: 'key-1', sending: false, expired: false, nextAttemptAt: T0 + 5_000 },
    ]);

    await vi.advanceTimersByTimeAsync(4_999);
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await waitUntil(() => createTask.mock.calls.length === 2, 'the first re-send');
    await waitUntil(() => outbox.entries()[0]?.nextAttemptAt === T0 + 5_000 + 15_000, 'the next schedule');
    expect(await stored('key-1')).toMatchObject({ attempts: 2, lastError: 'The API could not be reached.' });

    await vi.advanceTimersByTimeAsync(15_000);
    await waitUntil(() => outbox.entries().length === 0, 'the entry to settle');

    expect(createTask).toHaveBeenCalledTimes(3);
    for (const [sent, key] of createTask.mock.calls) {
      expect(sent).toEqual(request());
      expect(key).toBe('key-1');
    }
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(onCreated.mock.calls[0]?.[1]).toEqual(created('task_9', { idempotent: true }));
    await waitUntil(async () => (await storedAll()).length === 0, 'the entry to be deleted');
  });

  it.each([
    ['a 502', refusal(502, 'invalid_response')],
    ['a 504', refusal(504, 'invalid_response')],
    ['a 2xx it could not read', invalidResponse(200, [])],
  ])('keeps the entry after %s: the task may exist', async (_name, error) => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw error;
    });
    const outbox = makeOutbox(createTask);
    expect((await outbox.submit(request(), meta)).kind).toBe('pending');
    expect(await stored('key-1')).toBeDefined();
  });

  it.each([
    ['a 429', refusal(429, 'rate_limited')],
    ['a 503', refusal(503, 'service_unavailable')],
  ])(
    'a re-send refused by %s (before the service read its key) keeps the entry: the first attempt may have made the task',
    async (_name, error) => {
      const answers: (() => TaskCreated)[] = [
        () => {
          throw clientError('network_error');
        },
        () => {
          throw error;
        },
        () => created('task_3', { idempotent: true }),
      ];
      const createTask = vi.fn<CreateTask>(async () => answers.shift()!());
      const onCreated = vi.fn<OnCreated>(async () => {});
      const outbox = makeOutbox(createTask, onCreated);
      expect((await outbox.submit(request(), meta)).kind).toBe('pending');
      await vi.advanceTimersByTimeAsync(5_000);
      await waitUntil(() => createTask.mock.calls.length === 2, 'the re-send');
      await waitUntil(async () => (await stored('key-1'))?.attempts === 2, 'the refused re-send to settle');
      expect(outbox.entries()).toMatchObject([{ idempotencyKey: 'key-1' }]);
      await vi.advanceTimersByTimeAsync(15_000);
      await waitUntil(() => onCreated.mock.calls.length === 1, 'the replayed task to be recorded');
      expect(onCreated.mock.calls[0]?.[1]).toEqual(created('task_3', { idempotent: true }));
    },
  );

  it.each([
    ['a 429', refusal(429, 'rate_limited')],
    ['a 503', refusal(503, 'service_unavailable')],
  ])(
    "a task whose first send took effect, its answer lost and the browser's own re-send refused with %s, is recorded after the re-send with its key",
    async (_name, error) => {
      // The service as the page meets it: the first send creates the task, but the connection closes
      // before the answer and the browser re-sends it by itself, refused before the key is read; the
      // page gets only the refusal. A later send with the key replays the task (api-notes §4 rule 7).
      const made = new Map<string, TaskCreated>();
      const createTask = vi.fn<CreateTask>(async (_request, key) => {
        const existing = made.get(key);
        if (existing) return { ...existing, idempotent: true };
        made.set(key, created('task_paid'));
        throw error;
      });
      const onCreated = vi.fn<OnCreated>(async () => {});
      const outbox = makeOutbox(createTask, onCreated);

      const result = await outbox.submit(request(), meta);

      expect(result).toMatchObject({ kind: 'pending', idempotencyKey: 'key-1' });
      expect(await stored('key-1')).toMatchObject({ attempts: 1 });
      await vi.advanceTimersByTimeAsync(5_000);
      await waitUntil(() => onCreated.mock.calls.length === 1, 'the paid task to be recorded');
      expect(onCreated.mock.calls[0]?.[1]).toEqual(created('task_paid', { idempotent: true }));
      expect(createTask.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
      await waitUntil(async () => (await storedAll()).length === 0, 'the entry to be deleted');
    },
  );

  it('a 429 or 503 that persists after a reload keeps the entry, re-sent with its key until an answer reads it', async () => {
    const first = makeOutbox(async () => {
      throw refusal(503, 'service_unavailable');
    });
    expect((await first.submit(request(), meta)).kind).toBe('pending');
    first.dispose();
    await reload();
    const answers: (() => TaskCreated)[] = [
      () => {
        throw refusal(429, 'rate_limited');
      },
      () => created('task_7', { idempotent: true }),
    ];
    const onCreated = vi.fn<OnCreated>(async () => {});
    const second = makeOutbox(async () => answers.shift()!(), onCreated);
    const [resumed] = await second.resume();
    expect(resumed?.kind).toBe('pending');
    expect(await stored('key-1')).toMatchObject({ attempts: 2 });
    await vi.advanceTimersByTimeAsync(15_000);
    await waitUntil(() => onCreated.mock.calls.length === 1, 'the replayed task to be recorded');
    expect(onCreated.mock.calls[0]?.[0]).toMatchObject({ idempotencyKey: 'key-1' });
  });

  it('backs off 5 s, 15 s, 30 s, then every 60 s', async () => {
    const sentAt: number[] = [];
    const createTask = vi.fn<CreateTask>(async () => {
      sentAt.push(Date.now());
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    for (const wait of [5_000, 15_000, 30_000, 60_000, 60_000, 60_000]) {
      const calls = createTask.mock.calls.length;
      await vi.advanceTimersByTimeAsync(wait - 1);
      await settle();
      expect(createTask).toHaveBeenCalledTimes(calls);
      await vi.advanceTimersByTimeAsync(1);
      await waitUntil(() => createTask.mock.calls.length === calls + 1, 'a re-send');
      await waitUntil(() => outbox.entries()[0]?.nextAttemptAt !== null, 'the next schedule');
    }
    expect(sentAt.map((t) => t - T0)).toEqual([0, 5_000, 20_000, 50_000, 110_000, 170_000, 230_000]);
    expect(outbox.entries()[0]?.attempts).toBe(7);
  });

  it('re-sends at once when told the service answers again (resendWaiting)', async () => {
    let up = false;
    const createTask = vi.fn<CreateTask>(async () => {
      if (!up) throw clientError('network_error');
      return created();
    });
    const onCreated = vi.fn<OnCreated>(async () => {});
    const outbox = makeOutbox(createTask, onCreated);
    await outbox.submit(request(), meta);
    expect(outbox.entries()[0]?.nextAttemptAt).toBe(T0 + 5_000);

    up = true;
    outbox.resendWaiting();
    await waitUntil(() => onCreated.mock.calls.length === 1, 'the re-send');
    expect(createTask.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
    expect(Date.now()).toBe(T0);
  });

  it('re-sends at once when the browser comes back online', async () => {
    let online = false;
    const createTask = vi.fn<CreateTask>(async () => {
      if (!online) throw clientError('network_error');
      return created();
    });
    const onCreated = vi.fn<OnCreated>(async () => {});
    const outbox = makeOutbox(createTask, onCreated);
    await outbox.submit(request(), meta);

    online = true;
    window.dispatchEvent(new Event('online'));
    await waitUntil(() => onCreated.mock.calls.length === 1, 'the re-send');
    expect(createTask.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
    expect(Date.now()).toBe(T0);
    await waitUntil(async () => (await storedAll()).length === 0, 'the entry to be deleted');
    // The back-off timer of the first failure is gone too.
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(createTask).toHaveBeenCalledTimes(2);
  });

  it('after a reload, resume() re-sends an entry left by the previous page, same key and request', async () => {
    const first = makeOutbox(async () => {
      throw clientError('timeout');
    });
    const pending = await first.submit(request(), meta);
    expect(pending.kind).toBe('pending');
    first.dispose(); // the page goes away
    await reload();

    const createTask = vi.fn<CreateTask>(async () => created('task_7', { idempotent: true }));
    const onCreated = vi.fn<OnCreated>(async () => {});
    const second = makeOutbox(createTask, onCreated);
    const results = await second.resume();

    expect(results).toEqual([
      { kind: 'created', created: created('task_7', { idempotent: true }), idempotencyKey: 'key-1' },
    ]);
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(createTask.mock.calls[0]?.[0]).toEqual(request());
    expect(createTask.mock.calls[0]?.[1]).toBe('key-1');
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(onCreated.mock.calls[0]?.[0]).toMatchObject({ idempotencyKey: 'key-1', meta, createdAt: T0 });
    expect(await storedAll()).toEqual([]);
    expect(second.entries()).toEqual([]);
  });

  it('resume() sends an entry written just before a crash (never sent), keeping its exact request', async () => {
    // A field the schema does not know must survive the round trip: a re-send is never a modified request.
    const exact = { ...request(), futureField: { nested: true } } as TaskRequest;
    const entry: OutboxEntry = {
      idempotencyKey: 'crash-key',
      connectionId: CONN,
      request: exact,
      meta,
      createdAt: T0 - 60_000,
      attempts: 0,
      lastAttemptAt: null,
      lastError: null,
    };
    await (await db()).put('outbox', entry);
    const createTask = vi.fn<CreateTask>(async () => created());
    const outbox = makeOutbox(createTask);
    await outbox.resume();
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(createTask.mock.calls[0]?.[0]).toEqual(exact);
    expect(createTask.mock.calls[0]?.[1]).toBe('crash-key');
  });

  it("resume() leaves other connections' and unreadable entries alone", async () => {
    const database = await db();
    await database.put('outbox', {
      idempotencyKey: 'other',
      connectionId: 'conn-b',
      request: request(),
      meta,
      createdAt: T0,
      attempts: 1,
      lastAttemptAt: T0,
      lastError: null,
    });
    await database.put('outbox', { idempotencyKey: 'broken', connectionId: CONN } as unknown as OutboxEntry);
    const createTask = vi.fn<CreateTask>(async () => created());
    const outbox = makeOutbox(createTask);
    expect(await outbox.resume()).toEqual([]);
    expect(createTask).not.toHaveBeenCalled();
    expect(outbox.entries()).toEqual([]);
    expect((await storedAll()).map((e) => e.idempotencyKey).sort()).toEqual(['broken', 'other']);
  });

  it('resume() does not send twice an entry this page is already handling', async () => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    expect(await outbox.resume()).toEqual([]);
    expect(createTask).toHaveBeenCalledTimes(1);
  });

  it('gives two quick submits two different keys (the default key is a random UUID)', async () => {
    const releases: (() => void)[] = [];
    const createTask = vi.fn<CreateTask>(
      (_request, key) => new Promise((resolve) => releases.push(() => resolve(created(`task_${key}`)))),
    );
    const outbox = new Outbox({ connectionId: CONN, createTask, onCreated: async () => {} });
    outboxes.push(outbox);

    const a = outbox.submit(request(), meta);
    const b = outbox.submit(request(), meta);
    await waitUntil(() => createTask.mock.calls.length === 2, 'both sends');
    const [keyA, keyB] = createTask.mock.calls.map(([, key]) => key);
    expect(keyA).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyB).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyA).not.toBe(keyB);
    expect(outbox.entries()).toHaveLength(2);
    expect(outbox.entries().every((e) => e.sending)).toBe(true);
    expect(await storedAll()).toHaveLength(2);

    for (const release of releases) release();
    const results: SubmitResult[] = await Promise.all([a, b]);
    expect(results.map((r) => r.kind)).toEqual(['created', 'created']);
    expect(await storedAll()).toEqual([]);
  });

  it('an idempotent:true answer ends the entry like any other', async () => {
    const onCreated = vi.fn<OnCreated>(async () => {});
    const outbox = makeOutbox(async () => created('task_1', { idempotent: true }), onCreated);
    const result = await outbox.submit(request(), meta);
    expect(result).toMatchObject({ kind: 'created', created: { idempotent: true } });
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(await storedAll()).toEqual([]);
  });

  it('keeps the entry when the task could not be recorded, and records it on the re-send', async () => {
    const createTask = vi.fn<CreateTask>(async () => created('task_1'));
    let failures = 1;
    const onCreated = vi.fn<OnCreated>(async () => {
      if (failures-- > 0) throw new Error('QuotaExceededError');
    });
    const outbox = makeOutbox(createTask, onCreated);

    const result = await outbox.submit(request(), meta);
    expect(result).toMatchObject({ kind: 'created', created: { taskId: 'task_1' } });
    expect(await stored('key-1')).toMatchObject({ lastError: 'QuotaExceededError' });

    await vi.advanceTimersByTimeAsync(5_000);
    await waitUntil(() => outbox.entries().length === 0, 'the entry to settle');
    expect(createTask.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
    expect(onCreated).toHaveBeenCalledTimes(2);
    await waitUntil(async () => (await storedAll()).length === 0, 'the entry to be deleted');
  });

  it('does not re-send entries older than 23 hours: they stay, flagged expired, until discarded', async () => {
    const old: OutboxEntry = {
      idempotencyKey: 'old-key',
      connectionId: CONN,
      request: request(),
      meta,
      createdAt: T0 - RESEND_WINDOW_MS,
      attempts: 4,
      lastAttemptAt: T0 - RESEND_WINDOW_MS + 60_000,
      lastError: 'The API could not be reached.',
    };
    await (await db()).put('outbox', old);
    const createTask = vi.fn<CreateTask>(async () => created());
    const outbox = makeOutbox(createTask);

    expect(await outbox.resume()).toEqual([]);
    expect(outbox.entries()).toMatchObject([
      { idempotencyKey: 'old-key', expired: true, nextAttemptAt: null },
    ]);
    window.dispatchEvent(new Event('online'));
    expect(await outbox.retryNow('old-key')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(createTask).not.toHaveBeenCalled();
    expect(await stored('old-key')).toEqual(old);

    await outbox.discard('old-key');
    expect(outbox.entries()).toEqual([]);
    expect(await stored('old-key')).toBeUndefined();
  });

  it('stops re-sending an entry once it turns 23 hours old', async () => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    // Much later (the tab slept, or the network stayed down): the clock passes the window.
    vi.setSystemTime(T0 + RESEND_WINDOW_MS);
    await vi.advanceTimersByTimeAsync(5_000);
    await waitUntil(() => outbox.entries()[0]?.expired === true, 'the entry to expire');
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(await stored('key-1')).toBeDefined();
  });

  it('flags an entry expired when the window closes during its back-off', async () => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    vi.setSystemTime(T0);
    await outbox.submit(request(), meta);
    vi.setSystemTime(T0 + RESEND_WINDOW_MS - 10_000);
    await vi.advanceTimersByTimeAsync(5_000); // the 5 s re-send, 5 s before the window closes
    await waitUntil(() => createTask.mock.calls.length === 2, 'the re-send');
    await settle();
    // Its 15 s back-off would end past the window: the entry is flagged when the window closes instead.
    expect(outbox.entries()[0]).toMatchObject({ sending: false, expired: false, nextAttemptAt: null });
    await vi.advanceTimersByTimeAsync(4_999);
    await settle();
    expect(outbox.entries()[0]?.expired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waitUntil(() => outbox.entries()[0]?.expired === true, 'the entry to expire');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(createTask).toHaveBeenCalledTimes(2);
  });

  it('dispose stops re-sends; the entry stays for the next page', async () => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('timeout');
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    outbox.dispose();
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(await stored('key-1')).toMatchObject({ attempts: 1 });
  });

  it('a send still out at dispose that gets no answer is not re-sent by the disposed outbox', async () => {
    let fail: (() => void) | undefined;
    const createTask = vi.fn<CreateTask>(
      () => new Promise((_resolve, reject) => (fail = () => reject(clientError('timeout')))),
    );
    const outbox = makeOutbox(createTask);
    const result = outbox.submit(request(), meta);
    await waitUntil(() => fail !== undefined, 'the send');
    outbox.dispose();
    fail?.();
    expect((await result).kind).toBe('pending');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
    expect(outbox.entries()[0]?.nextAttemptAt).toBeNull();
    expect(await stored('key-1')).toMatchObject({ lastError: 'The API did not answer in time.' });
  });

  it('a send still out at dispose has its answer recorded', async () => {
    let release: (() => void) | undefined;
    const createTask = vi.fn<CreateTask>(
      () => new Promise((resolve) => (release = () => resolve(created('task_late')))),
    );
    const onCreated = vi.fn<OnCreated>(async () => {});
    const outbox = makeOutbox(createTask, onCreated);
    const result = outbox.submit(request(), meta);
    await waitUntil(() => release !== undefined, 'the send');
    outbox.dispose();
    release?.();
    expect(await result).toMatchObject({ kind: 'created', created: { taskId: 'task_late' } });
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(await storedAll()).toEqual([]);
  });

  it('discard cancels the re-send of a waiting entry', async () => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    await outbox.discard('key-1');
    expect(outbox.entries()).toEqual([]);
    expect(await storedAll()).toEqual([]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
  });

  it('drops a waiting entry that another tab settled meanwhile', async () => {
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    await (await db()).delete('outbox', 'key-1'); // the other tab got the answer
    await vi.advanceTimersByTimeAsync(5_000);
    await waitUntil(() => outbox.entries().length === 0, 'the entry to be dropped');
    await settle();
    expect(createTask).toHaveBeenCalledTimes(1);
  });

  it('retryNow re-sends a waiting entry at once', async () => {
    let fail = true;
    const createTask = vi.fn<CreateTask>(async () => {
      if (fail) throw clientError('network_error');
      return created();
    });
    const outbox = makeOutbox(createTask);
    await outbox.submit(request(), meta);
    fail = false;
    expect(await outbox.retryNow('key-1')).toMatchObject({ kind: 'created' });
    expect(await outbox.retryNow('key-1')).toBeUndefined();
    expect(createTask.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
  });

  it('entries() keeps its array until a change, and tells subscribers; newest first', async () => {
    const releases: (() => void)[] = [];
    const outbox = makeOutbox(
      () => new Promise((_resolve, reject) => releases.push(() => reject(clientError('network_error')))),
    );
    let calls = 0;
    outbox.subscribe(() => calls++);
    const empty = outbox.entries();
    expect(outbox.entries()).toBe(empty);

    const first = outbox.submit(request(), meta);
    expect(calls).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(1_000);
    const second = outbox.submit(request(), meta);
    await waitUntil(() => releases.length === 2, 'both sends');
    const sending = outbox.entries();
    expect(outbox.entries()).toBe(sending);
    expect(sending.map((e) => [e.idempotencyKey, e.sending])).toEqual([
      ['key-2', true],
      ['key-1', true],
    ]);

    const before = calls;
    for (const release of releases) release();
    await Promise.all([first, second]);
    expect(calls).toBeGreaterThan(before);
    expect(outbox.entries()).not.toBe(sending);
    expect(outbox.entries().map((e) => e.sending)).toEqual([false, false]);
  });

  it('still sends (same key on every re-send) when IndexedDB cannot be written', async () => {
    const database = await db();
    const put = vi.spyOn(database, 'put').mockRejectedValue(new Error('QuotaExceededError'));
    const createTask = vi.fn<CreateTask>(async () => {
      throw clientError('network_error');
    });
    const outbox = makeOutbox(createTask);
    expect((await outbox.submit(request(), meta)).kind).toBe('pending');
    await vi.advanceTimersByTimeAsync(5_000);
    await waitUntil(() => createTask.mock.calls.length === 2, 'the re-send');
    expect(put).toHaveBeenCalled();
    expect(createTask.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
  });

  describe('batches', () => {
    const prompts = ['one', 'two', 'three'];
    const items = () => prompts.map((p) => ({ request: { ...request(), params: { prompt: p } }, meta }));

    it('gives each task its own key and the batch id, and writes them all before the first is sent', async () => {
      let storedAtFirstSend: OutboxEntry[] | null = null;
      const createTask = vi.fn<CreateTask>(async (body) => {
        storedAtFirstSend ??= await storedAll();
        return created(`task_${String(body.params.prompt)}`);
      });
      const onCreated = vi.fn<OnCreated>(async () => {});
      const outbox = makeOutbox(createTask, onCreated);
      const results = await outbox.submitBatch(items(), { batchId: 'b1' });

      expect(results.map((r) => r.kind)).toEqual(['created', 'created', 'created']);
      expect(createTask.mock.calls.map(([body, key]) => [body.params.prompt, key])).toEqual([
        ['one', 'key-1'],
        ['two', 'key-2'],
        ['three', 'key-3'],
      ]);
      expect(storedAtFirstSend!.map((e) => [e.idempotencyKey, e.batchId]).sort()).toEqual([
        ['key-1', 'b1'],
        ['key-2', 'b1'],
        ['key-3', 'b1'],
      ]);
      expect(onCreated.mock.calls.map(([entry]) => entry.meta)).toEqual(
        [1, 2, 3].map((i) => ({ ...meta, batchId: 'b1', batchIndex: i, batchSize: 3 })),
      );
      expect(await storedAll()).toEqual([]);
    });

    it('after a reload, re-sends only the tasks not yet created, each once with its own key', async () => {
      // The first page: "one" is created, the others are out when the page goes away (no answer ever).
      const first = makeOutbox(async (body) => {
        if (body.params.prompt === 'one') return created('task_one');
        return new Promise<TaskCreated>(() => {});
      });
      void first.submitBatch(items(), { batchId: 'b1' });
      await waitUntil(async () => (await storedAll()).length === 2, 'the first task settled');
      first.dispose();
      await reload();

      const createTask = vi.fn<CreateTask>(async (body) => created(`task_${String(body.params.prompt)}`));
      const onCreated = vi.fn<OnCreated>(async () => {});
      const second = makeOutbox(createTask, onCreated);
      await second.resume();
      await vi.advanceTimersByTimeAsync(120_000);
      await settle();

      expect(createTask.mock.calls.map(([body, key]) => [body.params.prompt, key]).sort()).toEqual([
        ['three', 'key-3'],
        ['two', 'key-2'],
      ]);
      expect(onCreated.mock.calls.map(([entry]) => [entry.batchId, entry.meta.batchIndex]).sort()).toEqual([
        ['b1', 2],
        ['b1', 3],
      ]);
      expect(await storedAll()).toEqual([]);
    });
  });
});
