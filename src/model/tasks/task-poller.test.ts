import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ApiClient } from '../../api/client';
import { abortError } from '../../api/errors';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from '../history/history-store';
import { PollBudget } from './poll-budget';
import { PollSchedule, taskForecast } from './poll-schedule';
import { setTeamEntries } from '../team/team-tasks';
import { startPolling } from './task-poller';

const CONNECTION = 'conn-poller';

let stops: (() => void)[] = [];

/** What the connection runtime does for polling, with a schedule over the given budget. */
function poller(client: ApiClient, store: HistoryStore, budget: PollBudget): void {
  const schedule = new PollSchedule({ budget });
  stops.push(startPolling({ api: client, connectionId: CONNECTION, store, schedule, seen: () => false }));
}

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

const taskJson = (taskId: string) =>
  JSON.stringify({
    taskId,
    status: 'succeeded',
    outputs: [{ url: `https://cdn.example/${taskId}.png` }],
    error: null,
    creditsCharged: 4,
    createdAt: new Date().toISOString(),
    completedAt: new Date().toISOString(),
  });

// The API unreachable while tasks are polled: when it answers again, a task whose poll is waiting out
// the client's retry delay (up to 9 s, api-notes §7) or its back-off (up to 15 s) is read at once.
it('when the service answers again, a poll waiting out its retry is sent at once', async () => {
  let up = false;
  const polled: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    if (!up) throw new TypeError('Failed to fetch');
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    polled.push(id);
    return new Response(taskJson(id), { status: 200 });
  });
  const client = new ApiClient({
    baseUrl: 'https://api.example/v1',
    apiKey: 'k',
    fetch,
    // A retry delay that never ends on its own: only an abort gets a poll out of it.
    sleep: (_ms, signal) =>
      new Promise<void>((_, reject) => signal?.addEventListener('abort', () => reject(abortError()))),
  });
  const store = await HistoryStore.open(CONNECTION);
  await store.put({
    taskId: 't1',
    connectionId: CONNECTION,
    request: { interfaceId: 'm', versionId: 'v', params: { prompt: 'a fox' } },
    meta: {
      title: 'Model',
      subtitle: '',
      kind: 'model',
      mediaType: 'image',
      estimatedSeconds: 1,
      quotedCredits: 4,
    },
    status: 'queued',
    outputs: [],
    error: null,
    creditsCharged: 4,
    createdAt: Date.now() - 60_000, // due at once
    completedAt: null,
    unseen: false,
  });

  poller(client, store, new PollBudget());

  // The first poll finds the service gone and waits for its retry.
  await vi.waitFor(() => expect(client.health.state().kind).toBe('unreachable'), { timeout: 15_000 });
  expect(fetch).toHaveBeenCalledTimes(1);

  // Another request gets an answer: the service is back, and t1 is polled now.
  up = true;
  await client.getTask('t2');
  // No real-time bound (a loaded CI machine must not fail it): the retry delay above never ends by itself, so
  // t1 can only be read through the recovery; the wait is generous for a loaded machine and measures nothing.
  await vi.waitFor(() => expect(store.get('t1')?.status).toBe('succeeded'), { timeout: 15_000 });
  expect(polled).toContain('t1');
  expect(store.get('t1')?.outputs).toEqual([{ url: 'https://cdn.example/t1.png' }]);
});

function entryOf(taskId: string, createdAt: number, estimatedSeconds: number | null = 1) {
  return {
    taskId,
    connectionId: CONNECTION,
    request: { interfaceId: 'm', versionId: 'v', params: { prompt: `prompt ${taskId}` } },
    meta: {
      title: 'Model',
      subtitle: '',
      kind: 'model' as const,
      mediaType: 'image' as const,
      estimatedSeconds,
      quotedCredits: 4,
    },
    status: 'queued' as const,
    outputs: [],
    error: null,
    creditsCharged: 4,
    createdAt,
    completedAt: null,
    unseen: false,
  };
}

/** A client whose every task poll answers that the task succeeded, with its fetch to count the polls. */
function succeedingClient() {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    return new Response(taskJson(id), { status: 200 });
  });
  return { fetch, client: new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch }) };
}

/** The history with `count` tasks still running, created a minute ago, a second apart. */
async function historyWithRunning(prefix: string, count: number): Promise<HistoryStore> {
  const store = await HistoryStore.open(CONNECTION);
  const now = Date.now();
  for (let i = 0; i < count; i++) await store.put(entryOf(`${prefix}${i}`, now - 60_000 + i * 1_000));
  return store;
}

const errorJson = (code: string) =>
  JSON.stringify({ error: { message: 'no', type: 'invalid_request_error', code } });

// api-notes §7: 404 unknown_task (another key's id, or a task the service forgot) was untested.
it('unknown_task: the card ends failed with that code, and the task is polled once', async () => {
  const polled: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    polled.push(id);
    return new Response(errorJson('unknown_task'), { status: 404 });
  });
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch });
  const store = await HistoryStore.open(CONNECTION);
  await store.put(entryOf('ghost', Date.now() - 60_000));
  poller(client, store, new PollBudget());

  await vi.waitFor(() => expect(store.get('ghost')?.status).toBe('failed'), { timeout: 3_000 });
  expect(store.get('ghost')?.error?.code).toBe('unknown_task');
  expect(polled).toEqual(['ghost']);
});

// api-notes §8: a 429 pauses the whole budget for its Retry-After (was untested).
it('a 429 on one task pauses every poll of the connection for its Retry-After', async () => {
  const polled: Array<[string, number]> = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    polled.push([id, Date.now()]);
    if (id === 'a') {
      return new Response(errorJson('rate_limited'), { status: 429, headers: { 'Retry-After': '7' } });
    }
    return new Response(taskJson(id), { status: 200 });
  });
  const client = new ApiClient({
    baseUrl: 'https://api.example/v1',
    apiKey: 'k',
    fetch,
    // The client's own retry of the 429 never comes in this test: only the budget's pause is looked at.
    sleep: (_ms, signal) =>
      new Promise<void>((_, reject) => signal?.addEventListener('abort', () => reject(abortError()))),
  });
  const budget = new PollBudget();
  const store = await HistoryStore.open(CONNECTION);
  const now = Date.now();
  await store.put(entryOf('a', now - 60_000)); // due at once
  await store.put(entryOf('b', now - 1_000 + 400)); // due 1.4 s after its creation: 0.4 s from now
  poller(client, store, budget);

  await vi.waitFor(() => expect(polled.map(([id]) => id)).toContain('a'), { timeout: 3_000 });
  await vi.waitFor(() => expect(budget.pausedUntilMs).toBeGreaterThan(now + 6_000));
  // b came due during the pause: it waits, and its card says a poll is due.
  await vi.waitFor(() => expect(taskForecast('b')).toEqual({ phase: 'checking' }), { timeout: 3_000 });
  expect(polled.map(([id]) => id)).toEqual(['a']);
  expect(budget.nextFreeAt(Date.now())).toBe(budget.pausedUntilMs);
});

// One tab at a time polls, the holder of the connection's Web Lock (tab-sync.ts): a tab that waits for
// the lock polls nothing, and starts when the tab holding it lets it go.
it('polls only once this tab holds the lock, and starts when the lock is handed to it', async () => {
  let hand = () => undefined as void;
  const locks = {
    request: (_name: string, _options: unknown, granted: () => Promise<void>) =>
      new Promise<void>((resolve) => {
        hand = () => void granted().then(resolve);
      }),
  };
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  try {
    const { fetch, client } = succeedingClient();
    const store = await historyWithRunning('w', 2);
    poller(client, store, new PollBudget());
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fetch).not.toHaveBeenCalled();
    hand();
    await vi.waitFor(() => expect(store.list().every((e) => e.status === 'succeeded')).toBe(true), {
      timeout: 3_000,
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  } finally {
    Reflect.deleteProperty(navigator, 'locks');
  }
});

it('answers that arrive together reach the history as one change', async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    await gate;
    return new Response(taskJson(id), { status: 200 });
  });
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch });
  const store = await HistoryStore.open(CONNECTION);
  const now = Date.now();
  for (let i = 0; i < 4; i++) await store.put(entryOf(`g${i}`, now - 60_000 + i * 1_000));
  poller(client, store, new PollBudget());
  // All four polls are out; their answers come in the same moment.
  await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(4), { timeout: 3_000 });
  let changes = 0;
  const off = store.subscribe(() => changes++);
  release();
  await vi.waitFor(() => expect(store.list().every((e) => e.status === 'succeeded')).toBe(true), {
    timeout: 3_000,
  });
  off();
  expect(changes).toBe(1);
});

// Team space (docs/team-space.md): another member's task shows in this history and takes its place in
// the pool's queue (so forecasts count it), but only the studio that made it polls it.
it("the team's unfinished tasks join the schedule and are never polled here; this device's are", async () => {
  const polled: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    polled.push(id);
    return new Response(taskJson(id), { status: 200 });
  });
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch });
  const store = await HistoryStore.open(CONNECTION);
  setTeamEntries(store, [{ ...entryOf('theirs', Date.now() - 60_000), by: { id: 'key-b', name: 'Bo' } }]);
  await store.put(entryOf('mine', Date.now() - 30_000));
  poller(client, store, new PollBudget());

  await vi.waitFor(() => expect(store.get('mine')?.status).toBe('succeeded'), { timeout: 5_000 });
  expect(taskForecast('theirs')).not.toBeNull();
  expect(polled).toEqual(['mine']);
  expect(store.get('theirs')?.status).toBe('queued');
});

// The team's copy of a task of this member can arrive before this device's own entry does (another tab
// made it, and the team document was quicker than the tab's message, or the tab closed at once): the
// task is then in the active set as the team's, and when it becomes this device's, it is polled here.
it("a task shown first as the team's copy, then as this device's own, is polled", async () => {
  const polled: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const id = /\/tasks\/([^/?]+)$/.exec(String(input))?.[1] ?? '';
    polled.push(id);
    return new Response(taskJson(id), { status: 200 });
  });
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch });
  const store = await HistoryStore.open(CONNECTION);
  const made = entryOf('made-in-another-tab', Date.now() - 60_000);
  setTeamEntries(store, [{ ...made, by: { id: 'key-a', name: 'Ana' } }]);
  poller(client, store, new PollBudget());
  await new Promise((r) => setTimeout(r, 300));
  expect(polled, 'the team’s copy is not polled here').toEqual([]);
  // The other tab's message (or a reread of IndexedDB) brings this device's own entry.
  await store.receive([made]);
  await vi.waitFor(() => expect(store.get('made-in-another-tab')?.status).toBe('succeeded'), {
    timeout: 5_000,
  });
  expect(polled).toEqual(['made-in-another-tab']);
});
