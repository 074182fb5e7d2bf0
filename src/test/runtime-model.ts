import fc from 'fast-check';
import { deleteDB } from 'idb';
import type { TaskRequest } from '../../contract/task';
import { ApiClient } from '../api/client';
import { RateLimiter } from '../api/rate-limiter';
import { fixtureModel } from './sandbox-catalog';
import { openTabStores } from './tab-stores';
import * as Y from 'yjs';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { isTerminal } from '../../contract/task';
import { ConnectionRuntime } from '../model/connection-runtime';
import { TeamSpace } from '../model/team/team-space';
import { bridgeHistory, TeamTasks, UNFOLLOWED_AFTER_MS } from '../model/team/team-tasks';
import { DB_NAME, db, resetDbForTests } from '../model/db';
import type { HistoryEntry } from '../model/history/history-types';
import type { SubmitResult } from '../model/tasks/outbox';

// Test-only: the model-based test of the connection runtime, run by two test files over two backends.
// One to three tabs of one key (one connection id, one IndexedDB, BroadcastChannel between them, no Web
// Locks, so every tab releases held tasks and the claim alone keeps a task from going twice), each with
// the studio's real API client, against the real sandbox: a child process in real time
// (connection-runtime.model.test.ts), or in this process on fake timers, where thousands of runs fit
// (connection-runtime.virtual.model.test.ts). Half the runs are a team's: the key is a team key and a
// second member (another key of the team, one tab) shares the pool; every tab is in the team space (its
// own copy of the team document, kept in step with the others' by a relay, as the server does; the
// history bridged into it; the queue's fair share of the pool through presence). fast-check draws a list
// of what users and the network do: Generate, Runs, a Compare run and a cell's Rerun, pause, resume,
// remove, send now, reorder, reload a tab, open or close one, a tab offline and back, the sandbox refusing
// or dropping the next POST /tasks (402, the daily cap's 429, a rate-limit 429, 503, the connection
// dropped before or after the task is made). After every step, and once everything is resumed and
// settled at the end:
// - no intent is charged twice: each task's prompt is unique to one click's task or one Compare cell, and
//   the sandbox's request log shows at most one task made for each;
// - what a caller was told is true: a send settled as created names the task the sandbox made for it; an
//   intent whose every send settled as refused or removed was never charged;
// - a paused queue, or a paused task, is never counted as waiting for the pool (TaskQueue.waitingForPool);
// - (where the backend can see the sandbox's pool, in process) the pool is never left with a free place
//   while a tab that is online counts a task waiting for one, for longer than IDLE_GRACE_MS, unless the
//   service refused or dropped a send in that time (the studio then waits out its back-off);
// - at the end, with the faults cleared and every queue resumed, every awaited submit settles within a
//   bounded wait (only the sends of a tab that was closed or reloaded are left: that page is gone), every
//   queue and outbox is empty, every task the sandbox made is in the history of every open tab (in a
//   team's run, of either member: the team's history), and every one of them ends there (the poller of
//   its maker's tabs polls it to its end, and the team sees that end).

/** What the model runs against: the sandbox (a child process or in this process) and its time. */
export interface ModelBackend {
  baseUrl: string;
  fetch: typeof fetch;
  control: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
  key: (name: string) => Promise<string>;
  /**
   * Lets `ms` go by (real time, or fake timers moved with this process's own work let through),
   * calling `tick` as it goes.
   */
  wait: (ms: number, tick?: () => void) => Promise<void>;
  /** The studio's waits (re-sends, retries, the queue's tick) run this many times faster (real time). */
  speed: number;
  /** Whether time is the test's own (fake timers): long waits (a member away for minutes) cost nothing. */
  virtual: boolean;
  /** How long the end of a run waits for every send to settle and every task to end on every screen. */
  patienceMs: number;
  /** The pool of a key, when the backend can see it. */
  pool?: (keyName: string) => { size: number; busy: number };
}

export interface ModelOptions {
  seed: number;
  runs: number;
  /** Written in the output with the seed and the runs. */
  name: string;
}

const CONNECTION = 'conn-model';
const MAX_TABS = 3;
/** The poll budget (the key's GET /tasks limit), wide: every task is awaited. */
const POLLS_PER_MIN = 1_200;
/** How long a free place in the pool may go unused while an online tab counts a task waiting for it. */
const IDLE_GRACE_MS = 5_000;
/**
 * After a send refused, dropped or failed offline, the studio's back-off (api/retry.ts: 1 + 3 + 9 s) before
 * the watch counts again: a send waiting out a retry holds its place in the studio's count of the pool.
 */
const BACKOFF_MS = 13_000;

const model = fixtureModel('lumen-canvas');
const versionId = model.versions[0]!.id;
const meta: HistoryEntry['meta'] = {
  title: model.name,
  subtitle: '',
  kind: 'model',
  mediaType: model.type,
  category: `${model.type}/${model.subType}`,
  modelId: model.id,
  versionId,
  // What the sandbox takes here (taskMs 300, rounded up to the catalog's whole seconds): the schedule polls
  // just after, and the queue forecasts the pool's free places from it.
  estimatedSeconds: 1,
  quotedCredits: null,
};
const request = (prompt: string): TaskRequest => ({ interfaceId: model.id, versionId, params: { prompt } });

let backend: ModelBackend;
/** Lets time go by, checking the pool as it goes. */
const wait = (world: World | null, ms: number) =>
  backend.wait(ms, world && backend.pool ? () => watchPool(world) : undefined);

/** Awaits the studio's work while time goes by (on fake timers nothing else would move it). */
async function during<T>(world: World | null, work: Promise<T>): Promise<T> {
  let done = false;
  const result = work.finally(() => void (done = true));
  // Its failure is thrown below, once time has stopped.
  result.catch(() => undefined);
  while (!done) await wait(world, 10);
  return result;
}

/** One send of an intent (a click's task, a Compare cell's run): what its caller was told, if anything. */
interface Send {
  tab: Tab;
  state: 'open' | 'abandoned' | { result: SubmitResult | null };
}

/** What a user meant once: one task (its prompt unique to it). A Compare cell may be run again. */
interface Intent {
  prompt: string;
  label: string;
  cell: boolean;
  sends: Send[];
}

/** A key and the connection its tabs share (in a team's run, a member of the team). */
interface Member {
  id: string;
  /** The sandbox's demo key name, and its value. */
  keyName: string;
  key: string;
  connectionId: string;
}

interface Tab {
  id: number;
  member: Member;
  runtime: ConnectionRuntime;
  net: { offline: boolean };
  /** In a team's run: its copy of the team document and the links to it. */
  team?: { space: TeamSpace; stop: () => void };
}

interface World {
  run: number;
  tabs: Tab[];
  intents: Intent[];
  nextTab: number;
  nextIntent: number;
  /** The first member (who opens and closes tabs); in a team's run, the second member too (one tab). */
  members: Member[];
  team: boolean;
  /** The pool watch: since when a place has been free while a tab waits, the last refused send, a failure. */
  idle: { since: number | null; refusedAt: number; failure?: string };
}

let personalKey: string;
let teamKeys: [string, string];
let runCount = 0;

/** The queue's settings are shared by the tabs through localStorage; another tab hears of a change. */
const sharedStorage = {
  getItem: (key: string) => localStorage.getItem(key),
  setItem: (key: string, value: string) => {
    localStorage.setItem(key, value);
    setTimeout(() => window.dispatchEvent(new StorageEvent('storage', { key, newValue: value })), 0);
  },
};

/**
 * The team document's copies kept in step as the server keeps them: each update and each presence change
 * of one copy applied to every other open copy; a copy that joins gets the whole document and presence.
 */
function teamRelay() {
  const spaces = new Set<TeamSpace>();
  return {
    join(space: TeamSpace): () => void {
      for (const other of spaces) {
        Y.applyUpdate(space.doc, Y.encodeStateAsUpdate(other.doc), 'remote');
        Y.applyUpdate(other.doc, Y.encodeStateAsUpdate(space.doc), 'remote');
        const theirs = [...other.awareness.getStates().keys()];
        applyAwarenessUpdate(space.awareness, encodeAwarenessUpdate(other.awareness, theirs), 'remote');
      }
      const onUpdate = (update: Uint8Array, origin: unknown) => {
        if (origin === 'remote') return;
        for (const to of spaces) if (to !== space) Y.applyUpdate(to.doc, update, 'remote');
      };
      const onPresence = (
        { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
        origin: unknown,
      ) => {
        if (origin === 'remote') return;
        const update = encodeAwarenessUpdate(space.awareness, [...added, ...updated, ...removed]);
        for (const to of spaces) if (to !== space) applyAwarenessUpdate(to.awareness, update, 'remote');
      };
      space.doc.on('update', onUpdate);
      space.awareness.on('update', onPresence);
      spaces.add(space);
      return () => {
        spaces.delete(space);
        space.doc.off('update', onUpdate);
        space.awareness.off('update', onPresence);
        // The page is gone: its presence leaves the others' (what the server does when a socket closes).
        const id = space.doc.clientID;
        for (const to of spaces) {
          const states = to.awareness.getStates();
          if (states.delete(id))
            to.awareness.emit('change', [{ added: [], updated: [], removed: [id] }, 'remote']);
        }
      };
    },
  };
}
let relay = teamRelay();

async function openTab(world: World, member: Member = world.members[0]!): Promise<Tab> {
  const net = { offline: false };
  const client = new ApiClient({
    baseUrl: backend.baseUrl,
    apiKey: member.key,
    // A tab offline: every request fails as fetch does without a network.
    fetch: async (input, init) => {
      const send = init?.method === 'POST' && String(input).endsWith('/tasks');
      try {
        if (net.offline) throw new TypeError('Failed to fetch');
        const res = await backend.fetch(input, init);
        if (send && !res.ok) world.idle.refusedAt = Date.now();
        return res;
      } catch (err) {
        if (send) world.idle.refusedAt = Date.now();
        throw err;
      }
    },
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason as Error);
        setTimeout(resolve, ms / backend.speed);
      }),
    limiter: new RateLimiter({ limits: { 'tasks.create': null, 'tasks.get': null, quote: null } }),
  });
  const runtime = await ConnectionRuntime.open({
    api: client,
    connectionId: member.connectionId,
    prior: world.team
      ? { concurrency: 5, confirmed: true, tasksPerMin: POLLS_PER_MIN }
      : { concurrency: 3, confirmed: true, tasksPerMin: POLLS_PER_MIN },
    openStores: openTabStores,
    storage: sharedStorage,
    setTimer: (fn, ms) => setTimeout(fn, ms / backend.speed),
    clearTimer: (handle) => clearTimeout(handle),
  });
  const tab: Tab = { id: world.nextTab++, member, runtime, net };
  if (world.team) {
    // The studio's team link: the history bridged into the document, the pool shared through presence.
    const space = new TeamSpace(new Y.Doc(), member.id);
    space.awareness.setLocalStateField('member', { id: member.id, name: member.id });
    const leave = relay.join(space);
    const tasks = new TeamTasks(space);
    const bridge = bridgeHistory(runtime.store, tasks, {
      sharedSince: 0,
      nameOf: (id) => id,
      // Online while any of the member's tabs is open (what presence tells the studio).
      isOnline: (id) => world.tabs.some((t) => t.member.id === id),
    });
    const unlink = runtime.linkTeam(space);
    tab.team = {
      space,
      stop: () => {
        unlink();
        bridge.stop();
        tasks.destroy();
        leave();
        space.destroy();
      },
    };
  }
  world.tabs.push(tab);
  return tab;
}

function closeTab(world: World, tab: Tab): void {
  tab.team?.stop();
  tab.runtime.close();
  world.tabs = world.tabs.filter((t) => t !== tab);
  // The page is gone: nobody is left to be told what came of its sends.
  for (const intent of world.intents)
    for (const send of intent.sends) if (send.tab === tab && send.state === 'open') send.state = 'abandoned';
}

function newIntent(world: World, label: string, cell: boolean): Intent {
  const intent: Intent = { prompt: `run${world.run}-${label}-${world.nextIntent++}`, label, cell, sends: [] };
  world.intents.push(intent);
  return intent;
}

function track(intent: Intent, tab: Tab, result: Promise<SubmitResult | null>): void {
  const send: Send = { tab, state: 'open' };
  intent.sends.push(send);
  void result.then((r) => {
    if (send.state === 'open') send.state = { result: r };
  });
}

/** Sends tasks with keys written down first, through the runtime, as a Compare board does (send-cells.ts). */
async function sendCells(tab: Tab, cells: readonly Intent[]): Promise<void> {
  const { results } = await tab.runtime.submitKeyed(
    cells.map((cell) => ({ request: request(cell.prompt), meta, idempotencyKey: crypto.randomUUID() })),
  );
  cells.forEach((cell, i) => track(cell, tab, results[i]!));
}

const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];
/** The first member's tabs (the only ones opened and closed; the second member keeps one). */
const firstMemberTabs = (w: World) => w.tabs.filter((t) => t.member === w.members[0]);

// ---- the commands ---------------------------------------------------------------------------------------

interface Model {
  /** The first member's open tabs. */
  tabs: number;
  team: boolean;
}
type Cmd = fc.AsyncCommand<Model, World>;

const command = (
  name: string,
  run: (world: World) => Promise<void>,
  check: (m: Model) => boolean = () => true,
  after: (m: Model) => void = () => undefined,
): Cmd => ({
  check,
  async run(m, world) {
    after(m);
    await during(world, run(world));
    await checkInvariants(world, { final: false });
  },
  toString: () => name,
});

const tabArb = fc.nat(MAX_TABS);

const all = [
  fc.tuple(tabArb).map(([t]) =>
    command(`generate(tab ${t})`, async (w) => {
      const tab = pick(w.tabs, t)!;
      const intent = newIntent(w, 'generate', false);
      const sent = await tab.runtime.submit(request(intent.prompt), meta, { prompts: [intent.prompt] });
      track(
        intent,
        tab,
        sent.held ? sent.settled.then((r) => r[0] ?? null) : Promise.resolve(sent.results[0]!),
      );
    }),
  ),
  fc.tuple(tabArb, fc.integer({ min: 2, max: 5 })).map(([t, n]) =>
    command(`batch(tab ${t}, ${n})`, async (w) => {
      const tab = pick(w.tabs, t)!;
      const intents = Array.from({ length: n }, () => newIntent(w, 'batch', false));
      const sent = await tab.runtime.submit(
        intents.map((i) => request(i.prompt)),
        meta,
      );
      const all = sent.held ? sent.settled : Promise.resolve(sent.results);
      intents.forEach((intent, i) =>
        track(
          intent,
          tab,
          all.then((r) => r[i] ?? null),
        ),
      );
    }),
  ),
  fc.tuple(tabArb, fc.integer({ min: 2, max: 6 })).map(([t, n]) =>
    command(`compare(tab ${t}, ${n} cells)`, async (w) => {
      const tab = pick(w.tabs, t)!;
      await sendCells(
        tab,
        Array.from({ length: n }, () => newIntent(w, 'cell', true)),
      );
    }),
  ),
  fc.tuple(tabArb, fc.nat()).map(([t, c]) =>
    command(`rerun(tab ${t}, cell ${c})`, async (w) => {
      // Compare offers Rerun only on a cell whose last run was refused or removed (nothing charged).
      const rerunnable = w.intents.filter((i) => {
        const last = i.sends.at(-1);
        return (
          i.cell &&
          last !== undefined &&
          typeof last.state === 'object' &&
          (last.state.result === null || last.state.result.kind === 'refused')
        );
      });
      const cell = pick(rerunnable, c);
      if (cell) await sendCells(pick(w.tabs, t)!, [cell]);
    }),
  ),
  tabArb.map((t) => command(`pause(tab ${t})`, async (w) => pick(w.tabs, t)!.runtime.queue.pause())),
  tabArb.map((t) => command(`resume(tab ${t})`, async (w) => pick(w.tabs, t)!.runtime.queue.resume())),
  fc.tuple(tabArb, fc.nat()).map(([t, i]) =>
    command(`remove(tab ${t}, held ${i})`, async (w) => {
      const queue = pick(w.tabs, t)!.runtime.queue;
      const item = pick(queue.snapshot().items, i);
      if (item) await queue.remove([item.idempotencyKey]);
    }),
  ),
  fc.tuple(tabArb, fc.nat()).map(([t, i]) =>
    command(`sendNow(tab ${t}, held ${i})`, async (w) => {
      const queue = pick(w.tabs, t)!.runtime.queue;
      const item = pick(queue.snapshot().items, i);
      if (item) void queue.sendNow(item.idempotencyKey);
    }),
  ),
  fc.tuple(tabArb, fc.nat(), fc.nat(8)).map(([t, i, to]) =>
    command(`reorder(tab ${t}, held ${i} to ${to})`, async (w) => {
      const queue = pick(w.tabs, t)!.runtime.queue;
      const item = pick(queue.snapshot().items, i);
      if (item) await queue.move(item.idempotencyKey, to);
    }),
  ),
  tabArb.map((t) =>
    command(`reload(tab ${t})`, async (w) => {
      const tab = pick(w.tabs, t)!;
      closeTab(w, tab);
      await openTab(w, tab.member);
    }),
  ),
  fc.constant(
    command(
      'openTab',
      async (w) => void (await openTab(w)),
      (m) => m.tabs < MAX_TABS,
      (m) => void (m.tabs += 1),
    ),
  ),
  tabArb.map((t) =>
    command(
      `closeTab(${t})`,
      async (w) => closeTab(w, pick(firstMemberTabs(w), t)!),
      (m) => m.tabs > 1,
      (m) => void (m.tabs -= 1),
    ),
  ),
  tabArb.map((t) =>
    command(`offline(tab ${t})`, async (w) => {
      pick(w.tabs, t)!.net.offline = true;
    }),
  ),
  tabArb.map((t) =>
    command(`online(tab ${t})`, async (w) => {
      const tab = pick(w.tabs, t)!;
      tab.net.offline = false;
      // What the browser's online event does (Outbox listens for it).
      tab.runtime.outbox.resendWaiting();
    }),
  ),
  fc
    .constantFrom(
      { status: 402 },
      {
        status: 429,
        body: { error: { type: 'rate_limit_error', code: 'token_daily_cap_reached', message: 'cap' } },
      },
      { status: 429, retryAfter: 1 },
      { status: 503 },
      { drop: 'before' },
      { drop: 'after' },
    )
    .chain((fault) => fc.record({ fault: fc.constant(fault), count: fc.integer({ min: 1, max: 2 }) }))
    .map(({ fault, count }) =>
      command(`fault(${JSON.stringify(fault)} x${count})`, async () => {
        await backend.control('POST', '/faults', { method: 'POST', path: '/v1/tasks', count, ...fault });
      }),
    ),
  fc.integer({ min: 1, max: 4 }).map((n) =>
    command(`wait(${n * 100} ms)`, async (w) => {
      await wait(w, n * 100);
    }),
  ),
  fc.constant(
    command(
      'away(first member, 16 min)',
      async (w) => {
        // In a team's run on the test's own clock: the first member closes every tab with tasks
        // unfinished and comes back after the team stopped following them (UNFOLLOWED_AFTER_MS); their
        // tab polls them to their end and the other member sees that end.
        for (const tab of firstMemberTabs(w)) closeTab(w, tab);
        await wait(w, UNFOLLOWED_AFTER_MS + 60_000);
        await openTab(w);
      },
      (m) => m.team && backend.virtual,
      (m) => void (m.tabs = 1),
    ),
  ),
];

/** What users do most (send, Compare, Rerun) and what the network does, drawn more often than the rest. */
// all[0] generate, all[2] compare, all[3] rerun, all[14] a fault.
const commands = [...all, all[0]!, all[2]!, all[2]!, all[3]!, all[3]!, all[14]!, all[14]!];

// ---- the invariants -------------------------------------------------------------------------------------

interface LogEntry {
  method: string;
  path: string;
  status: number;
  created?: { taskId: string; prompt: string };
}

/** The tasks the sandbox made for this run's prompts: prompt -> distinct task ids. */
async function charged(world: World): Promise<Map<string, Set<string>>> {
  const log = await backend.control<LogEntry[]>('GET', '/requests');
  const byPrompt = new Map<string, Set<string>>();
  for (const entry of log) {
    if (!entry.created || !entry.created.prompt.startsWith(`run${world.run}-`)) continue;
    const ids = byPrompt.get(entry.created.prompt) ?? new Set<string>();
    ids.add(entry.created.taskId);
    byPrompt.set(entry.created.prompt, ids);
  }
  return byPrompt;
}

/**
 * Called as time goes by (where the backend sees the pool): notes how long the pool has had a free place
 * while an online tab counts a task waiting for one, and fails the run past IDLE_GRACE_MS.
 */
/** What a tab's queue and outbox hold, and what its schedule believes of the pool (MODEL_VERBOSE). */
const explain = (t: Tab) =>
  JSON.stringify({
    queue: t.runtime.queue.snapshot(),
    outbox: t.runtime.outbox.entries(),
    concurrency: t.runtime.schedule.concurrency,
    busy: t.runtime.schedule.busyAt(Date.now()),
    unfinished: t.runtime.store
      .list()
      .filter((e) => !isTerminal(e.status))
      .map((e) => ({ id: e.taskId, status: e.status, by: e.by, local: t.runtime.store.isLocal(e.taskId) })),
  });

function watchPool(world: World): void {
  const { idle } = world;
  if (idle.failure !== undefined) return;
  const { size, busy } = backend.pool!(world.members[0]!.keyName);
  const waiting = world.tabs.filter((t) => !t.net.offline && t.runtime.queue.waitingForPool() > 0);
  const now = Date.now();
  if (waiting.length === 0 || busy >= size) {
    idle.since = null;
    return;
  }
  idle.since ??= now;
  const from = Math.max(idle.since, idle.refusedAt + BACKOFF_MS);
  if (now - from > IDLE_GRACE_MS)
    idle.failure = `the pool had ${size - busy} of ${size} places free for ${now - idle.since} ms while ${waiting
      .map((t) => `tab ${t.id} (${t.member.id}) counted ${t.runtime.queue.waitingForPool()} waiting`)
      .join(', ')}${process.env.MODEL_VERBOSE ? `: ${waiting.map(explain).join('; ')}` : ''}`;
}

async function checkInvariants(world: World, { final }: { final: boolean }): Promise<void> {
  // Let what the step started go a little way (sends, answers, the tabs' messages).
  await wait(world, final ? 0 : 60);
  if (world.idle?.failure) throw new Error(world.idle.failure);
  const made = await charged(world);
  for (const intent of world.intents) {
    const tasks = made.get(intent.prompt) ?? new Set<string>();
    if (tasks.size > 1)
      throw new Error(`${intent.prompt}: charged ${tasks.size} times (${[...tasks].join(', ')})`);
    const told = intent.sends.map((s) => s.state);
    for (const state of told) {
      if (typeof state !== 'object' || state.result?.kind !== 'created') continue;
      if (!tasks.has(state.result.created.taskId))
        throw new Error(`${intent.prompt}: told created as ${state.result.created.taskId}, not made`);
    }
    const nothingCharged = told.every(
      (s) => typeof s === 'object' && (s.result === null || s.result.kind === 'refused'),
    );
    if (told.length > 0 && nothingCharged && tasks.size > 0)
      throw new Error(
        `${intent.prompt}: every send told ${told.map((s) => (typeof s === 'object' ? (s.result?.kind ?? 'removed') : s)).join(', ')}, yet charged (${[...tasks].join(', ')})`,
      );
  }
  for (const tab of world.tabs) {
    const { queue } = tab.runtime;
    const { items, settings } = queue.snapshot();
    const waiting = queue.waitingForPool();
    const couldGo = items.filter(
      (i) => !i.held.paused && i.held.blocked === null && i.held.newPrice === null,
    );
    if (settings.paused && waiting !== 0)
      throw new Error(`tab ${tab.id}: its queue is paused, yet ${waiting} counted waiting for the pool`);
    if (waiting > couldGo.length)
      throw new Error(`tab ${tab.id}: ${waiting} counted waiting, only ${couldGo.length} could go`);
  }
  if (!final) return;
  // Every task in every open tab's history (from its own sends, another tab's through the tab sync, the
  // other member's through the team document), once what is on its way has arrived.
  for (const tab of world.tabs) await during(world, tab.runtime.store.reread());
  const missing = () =>
    world.tabs.flatMap((tab) =>
      [...made].flatMap(([prompt, ids]) =>
        [...ids]
          .filter((id) => !tab.runtime.store.get(id))
          .map((id) => `tab ${tab.id} (${tab.member.id}): task ${id} (${prompt})`),
      ),
    );
  const arrived = Date.now() + backend.patienceMs;
  while (missing().length > 0 && Date.now() < arrived) await wait(world, 100);
  if (missing().length > 0) throw new Error(`not in the history: ${missing().join(', ')}`);
  // Every task ends on every screen: its maker's poller polls it to its end, the other tabs and the other
  // member hear of that end (no spinner left waiting).
  const unfinished = () =>
    world.tabs.flatMap((tab) =>
      [...made.values()].flatMap((ids) =>
        [...ids]
          .filter((id) => {
            const entry = tab.runtime.store.get(id);
            return !entry || !isTerminal(entry.status);
          })
          .map((id) => `tab ${tab.id} (${tab.member.id}): ${id} ${tab.runtime.store.get(id)?.status}`),
      ),
    );
  const deadline = Date.now() + backend.patienceMs;
  while (unfinished().length > 0 && Date.now() < deadline) {
    await wait(world, 100);
  }
  const left = unfinished();
  if (left.length > 0) throw new Error(`never finished on screen: ${left.join(', ')}`);
}

/** Faults cleared, every tab online and resumed: everything held goes, every open send settles. */
async function settleAll(world: World): Promise<void> {
  await backend.control('DELETE', '/faults');
  for (const tab of world.tabs) {
    tab.net.offline = false;
    tab.runtime.queue.resume();
    // What a reload would do: entries another tab left in the outbox (it closed meanwhile) are taken up.
    void tab.runtime.outbox.resume();
    tab.runtime.outbox.resendWaiting();
  }
  const open = () =>
    world.intents.flatMap((i) => i.sends.filter((s) => s.state === 'open').map(() => i.prompt));
  const busy = () =>
    world.tabs.some(
      (t) =>
        t.runtime.queue.snapshot().items.length > 0 || t.runtime.outbox.entries().some((e) => !e.expired),
    );
  const deadline = Date.now() + backend.patienceMs;
  while ((open().length > 0 || busy()) && Date.now() < deadline) {
    await wait(world, 100);
    for (const tab of world.tabs) {
      tab.runtime.outbox.resendWaiting();
      // A refusal answered before the faults were cleared pauses a queue after it was resumed (the
      // service did refuse): the user resumes it again.
      if (tab.runtime.queue.snapshot().settings.paused) tab.runtime.queue.resume();
    }
  }
  const stuck = open();
  if (stuck.length > 0)
    throw new Error(
      `never settled: ${stuck.join(', ')}; ${world.tabs
        .map(
          (t) =>
            `tab ${t.id}: queue ${JSON.stringify(t.runtime.queue.snapshot())}, outbox ${JSON.stringify(t.runtime.outbox.entries())}`,
        )
        .join('; ')}`,
    );
  if (busy()) throw new Error('a queue or an outbox still holds tasks after everything was resumed');
}

/**
 * Runs the model: `runs` lists of commands drawn from `seed`, each from a fresh start (the sandbox reset,
 * IndexedDB and localStorage emptied). Throws with fast-check's report (its seed and the shrunk list of
 * commands) when an invariant fails.
 */
export async function runModel(using: ModelBackend, { seed, runs, name }: ModelOptions): Promise<void> {
  backend = using;
  personalKey = await backend.key('personal');
  teamKeys = [await backend.key('team'), await backend.key('team2')];
  console.log(`${name}: seed ${seed}, ${runs} runs (MODEL_SEED, MODEL_RUNS)`);
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(
      fc.boolean(),
      fc.commands(commands, {
        maxCommands: 16,
        size: 'max',
        // With MODEL_PATH: the commands' own replay path fast-check printed (replayPath="...").
        ...(process.env.MODEL_REPLAY ? { replayPath: process.env.MODEL_REPLAY } : {}),
      }),
      async (team, cmds) => {
        const members: Member[] = team
          ? [
              { id: 'key-ana', keyName: 'team', key: teamKeys[0], connectionId: 'conn-ana' },
              { id: 'key-bo', keyName: 'team2', key: teamKeys[1], connectionId: 'conn-bo' },
            ]
          : [{ id: 'key-me', keyName: 'personal', key: personalKey, connectionId: CONNECTION }];
        const world: World = {
          run: ++runCount,
          tabs: [],
          intents: [],
          nextTab: 0,
          nextIntent: 0,
          members,
          team,
          idle: { since: null, refusedAt: -Infinity },
        };
        relay = teamRelay();
        (await db()).close();
        resetDbForTests();
        await deleteDB(DB_NAME);
        localStorage.clear();
        await backend.control('POST', '/reset');
        try {
          for (const member of members) await during(world, openTab(world, member));
          await fc.asyncModelRun(() => ({ model: { tabs: 1, team }, real: world }), cmds);
          await settleAll(world);
          await checkInvariants(world, { final: true });
          if (process.env.MODEL_VERBOSE)
            console.log(
              `run ${world.run}${team ? ' (team)' : ''}: ${cmds.toString()} -> ${(await charged(world)).size} tasks made`,
            );
        } finally {
          for (const tab of [...world.tabs]) closeTab(world, tab);
          await backend.control('DELETE', '/faults');
          // Answers still on their way land before the next run's reset.
          await wait(null, 50);
        }
      },
    ),
    // MODEL_PATH and MODEL_REPLAY (with MODEL_SEED) replay the failing run fast-check printed, shrunk.
    {
      seed,
      numRuns: runs,
      ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH, endOnFailure: true } : {}),
    },
  );
  console.log(`${name}: ${runs} runs in ${Math.round((performance.now() - started) / 1000)} s`);
}
