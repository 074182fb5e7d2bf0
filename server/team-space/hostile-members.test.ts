import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { TEAM_DOC_VERSION } from '../../contract/team-doc';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { MeSchema } from '../../contract/me';
import { teamRoomOf } from '../../contract/team-room';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server';
import { clusterExtensions, clusterSettings } from './cluster';
import { authFrame, syncUpdateFrame } from './messages';
import { nestedTaskUpdate } from './nested-update';
import { createTeamSpace, type TeamSpace, type TeamSpaceOptions } from './team-space-server';
import { startPostgres, startRedis, type RunningService } from './test-services';

// The referee over the wire: hostile members of a team, with raw Hocuspocus clients (a provider and a
// Y.Doc of their own, or hand-made frames; no studio), against the real server on SQLite and on the
// Redis + PostgreSQL cluster (two nodes). Each forgery is refused with its reason, the room on the server
// is byte-for-byte what it was, and the honest member never sees it; beside each, the control: the same
// kind of write by its owner goes through (so the refusals are the rules at work, not a closed door).

let sandbox: RunningSandbox;
const keys: Record<string, string> = {};
let room: string;
let alice: string;
let bob: string;
const printed: string[] = [];

interface Node {
  teamSpace: TeamSpace;
  url: string;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A team space on an HTTP server of its own; `options` is asked again at each (re)start. */
async function startNode(options: () => Partial<TeamSpaceOptions>): Promise<Node> {
  const make = () =>
    createTeamSpace({ apiBaseUrl: sandbox.baseUrl, log: (l) => printed.push(l), ...options() });
  let current = make();
  const server: Server = createServer((_req, res) => res.end());
  server.on('upgrade', (req, socket, head) => {
    if (!current.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    get teamSpace() {
      return current;
    },
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sync`,
    async restart() {
      await current.close();
      current = make();
    },
    async close() {
      await current.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

interface Client {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  closes: Array<{ code: number; reason: string }>;
  synced: Promise<void>;
}
const open: Client[] = [];

function joinRoom(url: string, token: string, doc = new Y.Doc()): Client {
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket, maxAttempts: 1 });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: room, token, document: doc });
  provider.attach();
  const closes: Client['closes'] = [];
  provider.on('close', ({ event }: { event: { code: number; reason: string } }) =>
    closes.push({ code: event.code, reason: String(event.reason) }),
  );
  const synced = new Promise<void>((resolve) => provider.on('synced', () => resolve()));
  const client = { doc, provider, socket, closes, synced };
  open.push(client);
  return client;
}

function leave(c: Client) {
  c.provider.destroy();
  c.socket.destroy();
}

async function until(check: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** The room as the server holds it, encoded (what a restart would store). */
const serverState = (node: Node) => {
  const doc = node.teamSpace.hocuspocus.documents.get(room);
  return doc ? Y.encodeStateAsUpdate(doc) : new Uint8Array();
};

/**
 * A member joins with their own copy, makes `change`, and says what the server did: 'accepted' (it
 * acknowledged it and kept the socket) or the reason it closed the room's connection with.
 */
async function attempt(node: Node, token: string, change: (doc: Y.Doc) => void): Promise<string> {
  const c = joinRoom(node.url, token);
  await c.synced;
  c.doc.transact(() => change(c.doc));
  try {
    await until(() => c.closes.length > 0 || c.provider.unsyncedChanges === 0, 'an answer');
    // An acknowledgement may come before a close the server is still sending: a moment more.
    await new Promise((r) => setTimeout(r, 50));
    return c.closes[0]?.reason ?? 'accepted';
  } finally {
    leave(c);
  }
}

function vote(memberId: string, rowId = 'row_1') {
  return {
    id: `board_1|${rowId}`,
    boardId: 'board_1',
    rowId,
    memberId,
    at: 9,
    category: 'image',
    candidates: [],
    winner: null,
  };
}

const comment = (doc: Y.Doc) => doc.getMap('comments').get('c1') as Y.Map<unknown> | undefined;

/** The honest member Alice's records, written through the server. */
async function seed(node: Node): Promise<void> {
  const result = await attempt(node, keys.team!, (d) => {
    d.getMap('members').set(alice, { name: 'Alice', joinedAt: 1 });
    d.getMap('votes').set(`board_1|row_1|${alice}`, vote(alice));
    d.getMap('tasks').set('task_a', { taskId: 'task_a', by: alice, status: 'succeeded', createdAt: 5 });
    const c = new Y.Map<unknown>();
    c.set('id', 'c1');
    c.set('author', alice);
    c.set('body', 'Nice');
    c.set('createdAt', 4);
    d.getMap('comments').set('c1', c);
  });
  expect(result).toBe('accepted');
}

/** An Auth message, then a sync update carrying `update` (messages.ts's framing, as a raw client sends). */
const frames = (token: string, update: Uint8Array): Uint8Array[] => [
  authFrame(room, token),
  syncUpdateFrame(room, update),
];

/** Sends raw frames on a socket of its own; resolves with the reason the server closed with, or 'accepted'. */
async function raw(node: Node, messages: Uint8Array[]): Promise<string> {
  return (await rawExchange(node, messages)).outcome;
}

async function rawExchange(
  node: Node,
  messages: Uint8Array[],
): Promise<{ outcome: string; received: Buffer[] }> {
  const ws = new WebSocket(node.url);
  ws.on('error', () => undefined);
  const received: Buffer[] = [];
  ws.on('message', (d: Buffer) => received.push(d));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('close', () => reject(new Error('closed before open')));
  });
  ws.send(messages[0]!);
  // The Auth answer (type 2, "authenticated") before the update, as a provider waits for it.
  await until(() => received.some((m) => m.includes(Buffer.from([2, 2]))), 'authentication');
  for (const m of messages.slice(1)) ws.send(m);
  // Hocuspocus closes a room's connection with a Close message carrying the reason; an accepted update
  // gets none (it is acknowledged), so the wait for one ends after a while.
  const reasons = ['invalid-value', 'not-yours', 'unknown-field', 'out-of-order', 'server-only'];
  const reason = () => {
    const text = received.map((m) => m.toString('latin1')).join(' ');
    return reasons.find((r) => text.includes(r));
  };
  await until(() => reason() !== undefined || ws.readyState !== WebSocket.OPEN, 'a refusal', 1500).catch(
    () => undefined,
  );
  ws.terminate();
  return { outcome: reason() ?? 'accepted', received };
}

/** A task of Bob's whose `deep` is an array nested `depth` deep, from a client of its own. */
const deepUpdate = (depth: number) => nestedTaskUpdate(new Y.Doc(), 't_deep', bob, depth);

/** A fresh member's studio joins with Yjs's defaults and reads every root whole. */
async function freshReaderReads(node: Node): Promise<Record<string, unknown>> {
  const c = joinRoom(node.url, keys.team!);
  await c.synced;
  const read: Record<string, unknown> = {};
  for (const root of ['meta', 'members', 'tasks', 'votes', 'comments', 'boards', 'judgements']) {
    read[root] = JSON.parse(JSON.stringify(c.doc.getMap(root).toJSON()));
  }
  leave(c);
  return read;
}

beforeAll(async () => {
  for (const method of ['log', 'warn', 'error', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
  }
  sandbox = await startSandbox({ port: 0, taskMs: 100 });
  const list = (await (await fetch(`${sandbox.origin}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  for (const { name, key } of list) keys[name] = key;
  const me = async (key: string) =>
    MeSchema.parse(
      await (await fetch(`${sandbox.baseUrl}/me`, { headers: { Authorization: `Bearer ${key}` } })).json(),
    );
  const a = await me(keys.team!);
  const b = await me(keys.team2!);
  room = teamRoomOf(a);
  expect(teamRoomOf(b)).toBe(room);
  alice = a.key.id;
  bob = b.key.id;
});

afterAll(async () => {
  for (const c of open.splice(0)) leave(c);
  await sandbox?.close();
  vi.restoreAllMocks();
});

/** The whole suite, against one way of running the server. */
function hostileSuite(start: () => Promise<Node[]>, stop: () => Promise<void>) {
  let node: Node;
  let other: Node;
  let observers: Client[] = [];
  /** What the honest member sees of the room, on each node. */
  const seen = () => observers.map((o) => JSON.stringify(o.doc.toJSON()));
  beforeAll(async () => {
    const nodes = await start();
    node = nodes[0]!;
    other = nodes.at(-1)!;
    // Alice stays in the room on every node (the room stays loaded there, and she sees what arrives).
    observers = nodes.map((n) => joinRoom(n.url, keys.team!));
    await Promise.all(observers.map((o) => o.synced));
    await seed(node);
    await until(() => observers.every((o) => comment(o.doc)?.get('body') === 'Nice'), 'the seed everywhere');
  }, 60_000);
  afterAll(stop);

  const forgeries: Array<[string, (d: Y.Doc) => void]> = [
    [
      'a vote under another member’s id',
      (d) => d.getMap('votes').set(`board_1|row_2|${alice}`, vote(alice, 'row_2')),
    ],
    [
      'a vote under a made-up member id',
      (d) => d.getMap('votes').set('board_1|row_1|key_ghost', vote('key_ghost')),
    ],
    ['renaming another member', (d) => d.getMap('members').set(alice, { name: 'Mallory', joinedAt: 1 })],
    ['editing another member’s comment body', (d) => comment(d)!.set('body', 'I take it back')],
    ['deleting another member’s comment', (d) => d.getMap('comments').delete('c1')],
    [
      'reassigning a task’s “By”',
      (d) =>
        d.getMap('tasks').set('task_a', { taskId: 'task_a', by: bob, status: 'succeeded', createdAt: 5 }),
    ],
  ];
  for (const [what, forge] of forgeries) {
    it(`${what}: refused, the room unchanged on every node`, async () => {
      const before = serverState(node);
      const beforeOther = serverState(other);
      const sees = seen();
      expect(before.length).toBeGreaterThan(100);
      expect(await attempt(node, keys.team2!, forge)).toBe('not-yours');
      expect(serverState(node)).toEqual(before);
      expect(serverState(other)).toEqual(beforeOther);
      expect(seen()).toEqual(sees);
    });
  }

  it('schemaVersion 999: refused as the server’s own', async () => {
    const before = serverState(node);
    expect(await attempt(node, keys.team2!, (d) => d.getMap('meta').set('schemaVersion', 999))).toBe(
      'server-only',
    );
    expect(serverState(node)).toEqual(before);
  });

  it('the control: each member’s own writes go through and reach the other node', async () => {
    expect(
      await attempt(node, keys.team2!, (d) => d.getMap('votes').set(`board_1|row_1|${bob}`, vote(bob))),
    ).toBe('accepted');
    expect(
      await attempt(node, keys.team2!, (d) =>
        comment(d)!.set('resolution', { resolved: true, by: bob, at: 7 }),
      ),
    ).toBe('accepted');
    const read = await freshReaderReads(other);
    expect(Object.keys(read.votes as object).sort()).toEqual(
      [`board_1|row_1|${alice}`, `board_1|row_1|${bob}`].sort(),
    );
  });

  it('made-up member ids are never in the room, so no leaderboard can count them', async () => {
    const read = await freshReaderReads(node);
    for (const v of Object.values(read.votes as Record<string, { memberId: string }>))
      expect([alice, bob]).toContain(v.memberId);
    expect((read.members as Record<string, { name: string }>)[alice]?.name).toBe('Alice');
    expect((read.comments as Record<string, { body: string }>).c1?.body).toBe('Nice');
    expect((read.tasks as Record<string, { by: string }>).task_a?.by).toBe(alice);
  });

  for (const depth of [1_000, 3_000, 5_000, 10_000]) {
    it(`a value nested ${depth} deep: refused, and the room still loads for a fresh member`, async () => {
      const before = serverState(node);
      const sees = seen();
      expect(await raw(node, frames(keys.team2!, deepUpdate(depth)))).toBe('invalid-value');
      expect(serverState(node)).toEqual(before);
      expect(seen()).toEqual(sees);
      const read = await freshReaderReads(node);
      expect((read.tasks as Record<string, unknown>).t_deep).toBeUndefined();
    });
  }

  it('an update that builds on edits the server never got is held back, not refused: the socket stays, the server asks for what it lacks', async () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    doc.getMap('votes').set(`board_1|row_5|${bob}`, vote(bob, 'row_5'));
    doc.getMap('votes').set(`board_1|row_6|${bob}`, vote(bob, 'row_6'));
    const before = serverState(node);
    // The second alone: its first clock is past what the server holds of this client.
    const { outcome, received } = await rawExchange(node, frames(keys.team2!, updates[1]!));
    expect(outcome).toBe('accepted');
    expect(serverState(node)).toEqual(before);
    const name = Buffer.from([room.length, ...Buffer.from(room)]);
    const askedForMissing = received.some(
      (m) => m.subarray(0, name.length).equals(name) && m[name.length] === 0 && m[name.length + 1] === 0,
    );
    expect(askedForMissing, 'the server sent its sync step 1').toBe(true);
    // The two together (what the member's answer to that step 1 carries) are checked whole and applied.
    expect(await raw(node, frames(keys.team2!, Y.mergeUpdates(updates)))).toBe('accepted');
    await until(
      () =>
        node.teamSpace.hocuspocus.documents.get(room)?.getMap('votes').has(`board_1|row_6|${bob}`) ?? false,
      'both votes',
    );
  });

  it('the hand-made frames are real: at depth 3 the same update is accepted', async () => {
    expect(await raw(node, frames(keys.team2!, deepUpdate(3)))).toBe('accepted');
    await until(
      () => node.teamSpace.hocuspocus.documents.get(room)?.getMap('tasks').has('t_deep') ?? false,
      'the task',
    );
  });

  it('after a restart the room loads whole for a fresh member', async () => {
    for (const o of observers.splice(0)) leave(o);
    await node.restart();
    const read = await freshReaderReads(node);
    expect((read.comments as Record<string, { body: string }>).c1?.body).toBe('Nice');
    expect((read.meta as { schemaVersion: number }).schemaVersion).toBe(TEAM_DOC_VERSION);
  });

  it('fuzz: random updates from a hostile member never brick the room nor crash a reader', async () => {
    const roots = ['tasks', 'votes', 'boards', 'comments', 'meta', 'members', 'nope'];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          root: fc.constantFrom(...roots),
          key: fc.oneof(fc.constantFrom(alice, bob, 'c1', 'task_a'), fc.string({ maxLength: 6 })),
          kind: fc.constantFrom('value', 'map', 'array', 'delete'),
          value: fc.jsonValue({ maxDepth: 4 }),
        }),
        async (o) => {
          runs++;
          await attempt(node, keys.team2!, (d) => {
            const map = d.getMap(o.root);
            if (o.kind === 'delete') map.delete(o.key);
            else if (o.kind === 'map')
              map.set(
                o.key,
                new Y.Map([
                  ['author', bob],
                  ['x', o.value],
                ]),
              );
            else if (o.kind === 'array') map.set(o.key, Y.Array.from([o.value as object]));
            else map.set(o.key, o.value);
          });
        },
      ),
      { numRuns: 25, seed: 20261128 },
    );
    const read = await freshReaderReads(node);
    expect((read.comments as Record<string, { body: string }>).c1?.body).toBe('Nice');
    console.info(`[hostile fuzz] ${runs} runs`);
  }, 60_000);
}

describe('on SQLite (npm start)', () => {
  let dataDir: string;
  let node: Node | undefined;
  hostileSuite(
    async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'hostile-'));
      writeFileSync(join(dataDir, '.keep'), '');
      node = await startNode(() => ({ dataDir }));
      return [node];
    },
    async () => {
      await node?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  );
});

describe('on the Redis + PostgreSQL cluster (two nodes)', () => {
  let redis: RunningService | undefined;
  let postgres: RunningService | undefined;
  const nodes: Node[] = [];
  hostileSuite(
    async () => {
      redis = await startRedis();
      postgres = await startPostgres();
      const settings = clusterSettings({
        TEAM_SPACE_REDIS_URL: redis.url,
        TEAM_SPACE_DATABASE_URL: postgres.url,
      })!;
      for (let i = 0; i < 2; i++)
        nodes.push(await startNode(() => ({ extensions: clusterExtensions(settings) })));
      return nodes;
    },
    async () => {
      for (const n of nodes) await n.close();
      await redis?.stop();
      await postgres?.stop();
    },
  );
});
