import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server';
import { clusterExtensions, clusterHistory, clusterSettings } from './cluster';
import { DEFAULT_TABLE, PostgresPersistence } from './persistence-postgres';
import { createTeamSpace } from './team-space-server';
import { sparePort, startPostgres, startRedis, type RunningService } from './test-services';

// The team space on several machines (docs/team-space.md): two nodes (server/team-space/node.ts, each its
// own process, as in production) sharing rooms through a real redis-server and storing into a real
// PostgreSQL, admitting keys by the real sandbox's GET /me. Clients are raw Hocuspocus providers in Node,
// through a tiny TCP load balancer (as nginx would be) or straight to one node.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE_ENTRY = 'server/team-space/node.ts';

let redis: RunningService | undefined;
let postgres: RunningService | undefined;
let sandbox: RunningSandbox | undefined;
let balancer: Balancer | undefined;
const nodes: TeamSpaceNode[] = [];
const clients: Client[] = [];
/** A team key of the sandbox, and the room its /me admits it to. */
let token: string;
let room: string;
const keysByName = new Map<string, string>();
/** The member id (GET /me's key.id) of each key a client connects with: what its edits name as `by`. */
const memberIds = new Map<string, string>();

/** GET /me of a key, and its member id remembered for the clients that connect with it. */
async function meOf(key: string): Promise<{ key: { id: string }; team?: { id: string } }> {
  const me = (await (
    await fetch(`${sandbox!.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { key: { id: string }; team?: { id: string } };
  memberIds.set(key, me.key.id);
  return me;
}

// ---- the nodes -------------------------------------------------------------------------------------

interface TeamSpaceNode {
  name: string;
  port: number;
  child: ChildProcess;
  /** What the node printed, for a failure's message. */
  output(): string;
  /** SIGKILL: the machine is gone, nothing runs after it (no store, no goodbye to Redis). */
  kill(): Promise<void>;
  /** SIGTERM: the node's own shutdown. */
  stop(): Promise<void>;
}

async function startNode(name: string): Promise<TeamSpaceNode> {
  const port = await sparePort();
  const child = spawn(process.execPath, ['--import', 'tsx', NODE_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      TEAM_SPACE_API_URL: sandbox!.baseUrl,
      TEAM_SPACE_REDIS_URL: redis!.url,
      TEAM_SPACE_DATABASE_URL: postgres!.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (s: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(s);
    await exited;
  };
  const node: TeamSpaceNode = {
    name,
    port,
    child,
    output: () => output,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
  nodes.push(node);
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`node ${name} exited (${child.exitCode}):\n${output}`);
      return output.includes('Team space node listening');
    },
    `node ${name} to listen`,
    15_000,
  );
  return node;
}

// ---- a load balancer -------------------------------------------------------------------------------

interface Landing {
  backend: string;
  at: number;
}

/**
 * A TCP load balancer in front of the nodes, as nginx's `upstream` would be: each new connection goes to
 * the next backend in turn, and a backend that refuses a connection is skipped from then on (passive
 * health check). It knows nothing of WebSockets or rooms: no sticky sessions.
 */
class Balancer {
  readonly landings: Landing[] = [];
  private readonly down = new Set<string>();
  private next = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  constructor(private readonly backends: TeamSpaceNode[]) {
    this.server = createServer((client) => {
      // A client that goes before its node is chosen must not throw in the test's process.
      client.on('error', () => client.destroy());
      this.route(client, 0);
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as { port: number }).port;
        resolve();
      }),
    );
  }

  private route(client: Socket, tried: number) {
    const live = this.backends.filter((b) => !this.down.has(b.name));
    if (live.length === 0 || tried >= this.backends.length) {
      client.destroy();
      return;
    }
    const backend = live[this.next++ % live.length]!;
    const upstream = connect(backend.port, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    // Refused (before 'connect'): that node is gone. The client's bytes are still unread: try the next.
    upstream.once('error', () => {
      this.down.add(backend.name);
      this.sockets.delete(upstream);
      this.route(client, tried + 1);
    });
    upstream.once('connect', () => {
      this.landings.push({ backend: backend.name, at: Date.now() });
      upstream.removeAllListeners('error');
      const end = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      for (const s of [client, upstream]) {
        s.on('error', end);
        s.on('close', end);
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// ---- clients ---------------------------------------------------------------------------------------

interface Client {
  name: string;
  /** The member id of the key it connected with: the server's referee takes only records it owns. */
  memberId: string;
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** The keys this client wrote into the `tasks` map. */
  wrote: string[];
  destroy(): void;
}

/** A raw provider in Node (not the studio), as the studio connects: the key as token, the room's name. */
function connectClient(name: string, port: number, as = { name: room, token }): Client {
  const memberId = memberIds.get(as.token);
  if (!memberId) throw new Error(`no member id for ${name}'s key: ask /me (meOf) first`);
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({
    url: `ws://127.0.0.1:${port}/sync`,
    WebSocketPolyfill: WebSocket,
    // Reconnect within a fifth of a second, so the test does not wait on the default 1 s back-off.
    delay: 50,
    minDelay: 50,
    maxDelay: 200,
    factor: 1.5,
    jitter: false,
  });
  const provider = new HocuspocusProvider({ websocketProvider: socket, ...as, document: doc });
  provider.attach();
  const client: Client = {
    name,
    memberId,
    doc,
    provider,
    socket,
    wrote: [],
    destroy: () => {
      // A socket still connecting when the test ends: ws reports its abort as an 'error' event, which
      // the provider no longer listens to once it is destroyed (an uncaught exception in the run).
      (socket.webSocket as unknown as WebSocket | null)?.on('error', () => undefined);
      provider.destroy();
      socket.destroy();
    },
  };
  clients.push(client);
  return client;
}

/**
 * One edit: a key of the room's `tasks` map (a root of the team document), unique to this client, holding
 * a task as the server's referee takes it (contract/team-doc.ts): its own id, `by` the member id of the
 * key the client connected with.
 */
function edit(client: Client, phase: string) {
  const key = `${client.name}-${phase}-${client.wrote.length}`;
  client.doc
    .getMap('tasks')
    .set(key, { taskId: key, by: client.memberId, status: 'queued', createdAt: Date.now(), phase });
  client.wrote.push(key);
}

const keysOf = (doc: Y.Doc) => new Set(doc.getMap('tasks').keys());
const missingFrom = (doc: Y.Doc, keys: string[]) => {
  const have = keysOf(doc);
  return keys.filter((k) => !have.has(k));
};

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const synced = (c: Client) => until(() => c.provider.isSynced, `${c.name} to sync`);

/** The room's row in PostgreSQL, as a document. */
async function storedDoc(name = room): Promise<Y.Doc | undefined> {
  const db = new pg.Client({ connectionString: postgres!.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ state: Buffer }>(`SELECT state FROM ${DEFAULT_TABLE} WHERE name = $1`, [
      name,
    ]);
    if (!rows[0]) return undefined;
    const doc = new Y.Doc();
    Y.applyUpdate(doc, new Uint8Array(rows[0].state));
    return doc;
  } finally {
    await db.end();
  }
}

// ---- setup -----------------------------------------------------------------------------------------

beforeAll(async () => {
  // Missing servers are an error (CI installs them): startRedis and startPostgres say what to install.
  // Those that did start are kept for afterAll to stop, whichever failed.
  const [r, p, s] = await Promise.allSettled([startRedis(), startPostgres(), startSandbox({ port: 0 })]);
  if (r.status === 'fulfilled') redis = r.value;
  if (p.status === 'fulfilled') postgres = p.value;
  if (s.status === 'fulfilled') sandbox = s.value;
  for (const started of [r, p, s]) if (started.status === 'rejected') throw started.reason;
  const keys = (await (await fetch(`${sandbox!.origin}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  for (const k of keys) keysByName.set(k.name, k.key);
  token = keysByName.get('team')!;
  const me = await meOf(token);
  expect(me.team, 'the sandbox’s `team` key is a team key').toBeDefined();
  room = `team:${me.team!.id}`;
  // C stays out of the balancer and holds no room until the end: it starts now so the test does not
  // wait for it later.
  await Promise.all([startNode('A'), startNode('B'), startNode('C')]);
}, 40_000);

afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(nodes.map((n) => n.kill()));
  await balancer?.close();
  await Promise.all([sandbox?.close(), redis?.stop(), postgres?.stop()]);
});

// What the nodes printed, when a test fails: why a room did not load or sync is there.
beforeEach(({ onTestFailed }) =>
  onTestFailed(() => {
    for (const n of nodes) console.error(`--- node ${n.name}\n${n.output()}`);
  }),
);

const node = (name: string) => nodes.find((n) => n.name === name)!;

describe('two team-space nodes, one Redis, one PostgreSQL', () => {
  it('an edit through node A reaches a client of node B, and back', async () => {
    const onA = connectClient('onA', node('A').port);
    const onB = connectClient('onB', node('B').port);
    // What a balancer's health check asks.
    const health = await fetch(`http://127.0.0.1:${node('A').port}/health`);
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);
    await Promise.all([synced(onA), synced(onB)]);

    edit(onA, 'direct');
    await until(() => missingFrom(onB.doc, onA.wrote).length === 0, 'A’s edit on B’s client');
    edit(onB, 'direct');
    await until(() => missingFrom(onA.doc, onB.wrote).length === 0, 'B’s edit on A’s client');

    onA.destroy();
    onB.destroy();
  });

  it('a node killed mid-edit loses nothing: its clients reconnect to the other, every edit everywhere', async () => {
    balancer = new Balancer([node('A'), node('B')]);
    await balancer.listen();
    // Round robin: the first client lands on one node, the second on the other.
    const x = connectClient('x', balancer.port);
    await synced(x);
    const y = connectClient('y', balancer.port);
    await synced(y);
    const [xOn, yOn] = balancer.landings.map((l) => l.backend);
    expect(xOn, 'the two clients are on different nodes').not.toBe(yOn);
    const victim = node(xOn!);

    // Both edit on a timer throughout: before, during and after the kill.
    let phase = 'before';
    const editing = setInterval(() => {
      edit(x, phase);
      edit(y, phase);
    }, 10);
    try {
      await until(() => x.wrote.length >= 20, 'edits before the kill');
      await until(() => missingFrom(y.doc, x.wrote.slice(0, 10)).length === 0, 'x’s edits through Redis');

      phase = 'during';
      const killedAt = Date.now();
      await victim.kill();
      // x is cut off; it reconnects through the balancer, which finds its node gone and sends it on.
      await until(
        () => balancer!.landings.some((l) => l.at >= killedAt && l.backend === yOn),
        'x to reconnect to the other node',
      );
      await synced(x);
      phase = 'after';
      const afterFrom = x.wrote.length;
      await until(() => x.wrote.length >= afterFrom + 20, 'edits after the reconnect');
    } finally {
      clearInterval(editing);
    }
    const all = [...x.wrote, ...y.wrote];
    expect(x.wrote.filter((k) => k.includes('-during-')).length, 'x edited while cut off').toBeGreaterThan(0);

    await until(
      () => missingFrom(x.doc, all).length === 0 && missingFrom(y.doc, all).length === 0,
      'every edit in both clients',
    );
    // (c) The same document, not only the same keys: equal state vectors and equal encoded states.
    expect(Y.encodeStateVector(x.doc)).toEqual(Y.encodeStateVector(y.doc));
    expect(Y.encodeStateAsUpdate(x.doc)).toEqual(Y.encodeStateAsUpdate(y.doc));

    // The survivor stores when the room's last client leaves.
    x.destroy();
    y.destroy();
    let stored: Y.Doc | undefined;
    const started = Date.now();
    while (!stored || missingFrom(stored, all).length > 0) {
      if (Date.now() - started > 10_000) {
        throw new Error(`PostgreSQL lacks ${stored ? missingFrom(stored, all).length : 'the room:'} edits`);
      }
      await new Promise((r) => setTimeout(r, 100));
      stored = await storedDoc();
    }
    expect(Y.encodeStateAsUpdate(stored)).toEqual(Y.encodeStateAsUpdate(x.doc));

    // A node that never held the room, alone (the survivor stopped, so Redis has no peer to hand it the
    // room): it loads the room from PostgreSQL, with every edit.
    await node(yOn!).stop();
    const z = connectClient('z', node('C').port);
    await synced(z);
    expect(missingFrom(z.doc, all)).toEqual([]);
    expect(Y.encodeStateAsUpdate(z.doc)).toEqual(Y.encodeStateAsUpdate(x.doc));
    z.destroy();
    // Its own steps wait up to 10 s each; on a loaded machine the whole may take longer than Vitest's 20 s.
  }, 45_000);

  it('the key is in nothing the nodes printed, nor in any file PostgreSQL or Redis wrote', async () => {
    // Everything PostgreSQL holds on disk now, WAL included.
    const db = new pg.Client({ connectionString: postgres!.url });
    await db.connect();
    await db.query('CHECKPOINT');
    await db.end();
    const written = [postgres!.dir, redis!.dir].flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name)),
    );
    // The search can see what was stored: the room's name is there.
    expect(
      written.some((file) => readFileSync(file).includes(room)),
      'the room in PostgreSQL’s files',
    ).toBe(true);
    for (const file of written) expect(readFileSync(file).includes(token), file).toBe(false);
    for (const n of nodes) expect(n.output().includes(token), `node ${n.name}'s output`).toBe(false);
  });
});

describe('the PostgreSQL store', () => {
  it('a node that closes while another node is storing the room still stores its last edit', async () => {
    // In this process, so one node's store can be made slow: node B's takes 800 ms (Hocuspocus's Redis
    // extension would have A skip its store meanwhile; cluster.ts). Its own room (a personal key's), so
    // the rooms of the tests above play no part.
    const personal = keysByName.get('personal')!;
    const me = await meOf(personal);
    const personalRoom = `key:${me.key.id}`;
    const settings = clusterSettings({
      TEAM_SPACE_REDIS_URL: redis!.url,
      TEAM_SPACE_DATABASE_URL: postgres!.url,
    })!;
    const started: Array<{ port: number; close(): Promise<void> }> = [];
    const inProcessNode = async (saveDelayMs: number) => {
      const extensions = clusterExtensions(settings);
      const store = extensions.find((e) => e instanceof PostgresPersistence)!;
      const save = store.save.bind(store);
      store.save = async (name, state) => {
        await new Promise((r) => setTimeout(r, saveDelayMs));
        return save(name, state);
      };
      const teamSpace = createTeamSpace({ apiBaseUrl: sandbox!.baseUrl, extensions, log: () => undefined });
      const http = createHttpServer();
      http.on('upgrade', (req, socket, head) => {
        if (!teamSpace.handleUpgrade(req, socket, head)) socket.destroy();
      });
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      const node = {
        port: (http.address() as { port: number }).port,
        close: async () => {
          await teamSpace.close();
          http.close();
        },
      };
      started.push(node);
      return node;
    };
    try {
      const [fast, slow] = await Promise.all([inProcessNode(0), inProcessNode(800)]);
      const a = connectClient('a', fast.port, { name: personalRoom, token: personal });
      const b = connectClient('b', slow.port, { name: personalRoom, token: personal });
      await Promise.all([synced(a), synced(b)]);
      edit(b, 'first');
      // Hocuspocus stores 2 s after a room's last edit: B's store starts then, and lasts 800 ms.
      await new Promise((r) => setTimeout(r, 2_200));
      // Meanwhile, A's member edits and leaves at once: A stores on that last disconnect.
      edit(a, 'last');
      a.destroy();
      // B's member leaves after A's edit has reached B through Redis.
      await until(() => missingFrom(b.doc, a.wrote).length === 0, 'A’s last edit on B');
      b.destroy();
    } finally {
      // Each node stores what it still has to, and unloads.
      await Promise.all(started.map((n) => n.close()));
    }
    const stored = await storedDoc(personalRoom);
    expect(stored && missingFrom(stored, ['a-last-0', 'b-first-0'])).toEqual([]);
  }, 30_000);

  it('two nodes moving one room’s old tasks at once: each task once in PostgreSQL, gone from every copy, read from either node', async () => {
    const personal = keysByName.get('personal2')!;
    const me = await meOf(personal);
    const ownRoom = `key:${me.key.id}`;
    const settings = clusterSettings({
      TEAM_SPACE_REDIS_URL: redis!.url,
      TEAM_SPACE_DATABASE_URL: postgres!.url,
    })!;
    const nodesHere: Array<{
      port: number;
      teamSpace: ReturnType<typeof createTeamSpace>;
      close(): Promise<void>;
    }> = [];
    const inProcessNode = async () => {
      const extensions = clusterExtensions(settings);
      // The timer is left to the test: both nodes are told to move at the same moment.
      const teamSpace = createTeamSpace({
        apiBaseUrl: sandbox!.baseUrl,
        extensions,
        history: clusterHistory(extensions),
        archive: { everyMs: 3_600_000 },
        log: () => undefined,
      });
      const http = createHttpServer((req, res) => {
        void teamSpace.handleRequest(req, res).then((answered) => answered || res.writeHead(404).end());
      });
      http.on('upgrade', (req, socket, head) => {
        if (!teamSpace.handleUpgrade(req, socket, head)) socket.destroy();
      });
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      const node = {
        port: (http.address() as { port: number }).port,
        teamSpace,
        close: async () => {
          await teamSpace.close();
          http.close();
        },
      };
      nodesHere.push(node);
      return node;
    };
    try {
      const [one, two] = await Promise.all([inProcessNode(), inProcessNode()]);
      const a = connectClient('a', one.port, { name: ownRoom, token: personal });
      const b = connectClient('b', two.port, { name: ownRoom, token: personal });
      await Promise.all([synced(a), synced(b)]);
      const longAgo = Date.now() - 30 * 86_400_000;
      a.doc.transact(() => {
        for (let n = 0; n < 50; n++)
          a.doc.getMap('tasks').set(`old-${n}`, {
            taskId: `old-${n}`,
            by: a.memberId,
            status: 'succeeded',
            createdAt: longAgo + n,
            creditsCharged: 1,
          });
      });
      edit(a, 'recent');
      await until(() => b.doc.getMap('tasks').size === 51, 'the tasks at both nodes');
      await Promise.all([one.teamSpace.archiveNow(ownRoom), two.teamSpace.archiveNow(ownRoom)]);
      await until(
        () => a.doc.getMap('tasks').size === 1 && b.doc.getMap('tasks').size === 1,
        'the move at every copy',
      );
      const store = one.teamSpace.historyStore()!;
      expect(await store.count(ownRoom)).toBe(50);
      expect((await store.months(ownRoom)).reduce((n, m) => n + m.tasks, 0)).toBe(50);
      const read = async (port: number) =>
        (await (
          await fetch(`http://127.0.0.1:${port}/sync/history?limit=500`, {
            headers: { authorization: `Bearer ${personal}` },
          })
        ).json()) as { tasks: unknown[] };
      expect((await read(one.port)).tasks).toHaveLength(50);
      expect((await read(two.port)).tasks).toHaveLength(50);
    } finally {
      for (const node of nodesHere) await node.close();
    }
  });

  it('keeps what every node stored: a node a moment behind does not overwrite an edit it has not seen', async () => {
    // Two nodes' stores, each with its own pool, as two machines would be.
    const one = new PostgresPersistence({ connectionString: postgres!.url, table: 'store_test' });
    const two = new PostgresPersistence({ connectionString: postgres!.url, table: 'store_test' });
    try {
      // Tasks as the team document holds them (contract/team-doc.ts); t1's first version is a large one.
      const task = (taskId: string, status: string, more: Record<string, unknown> = {}) => ({
        taskId,
        by: 'key_a',
        status,
        createdAt: 1,
        ...more,
      });
      const base = new Y.Doc();
      base.getMap('tasks').set('t1', task('t1', 'queued', { prompt: 'queued '.repeat(500) }));
      const onOne = new Y.Doc();
      Y.applyUpdate(onOne, Y.encodeStateAsUpdate(base));
      onOne.getMap('tasks').set('t1', task('t1', 'done'));
      const onTwo = new Y.Doc();
      Y.applyUpdate(onTwo, Y.encodeStateAsUpdate(base));
      onTwo.getMap('tasks').set('t2', task('t2', 'queued'));

      // Both create the table at once on their first store.
      await Promise.all([
        one.save('room', Y.encodeStateAsUpdate(base)),
        two.save('room', Y.encodeStateAsUpdate(base)),
      ]);
      await one.save('room', Y.encodeStateAsUpdate(onOne));
      // Node two has not seen t1 done; its store comes last.
      await two.save('room', Y.encodeStateAsUpdate(onTwo));

      const row = (await one.load('room'))!;
      const stored = new Y.Doc();
      Y.applyUpdate(stored, row);
      expect(stored.getMap('tasks').toJSON()).toEqual({ t1: task('t1', 'done'), t2: task('t2', 'queued') });
      // The replaced value is garbage-collected, not kept in the row.
      expect(row.length).toBeLessThan(500);
      expect(await two.load('no-such-room')).toBeNull();
    } finally {
      await Promise.all([one.onDestroy(), two.onDestroy()]);
    }
  });
});

describe('the cluster’s settings', () => {
  it('read TEAM_SPACE_REDIS_URL and TEAM_SPACE_DATABASE_URL, both or neither', () => {
    const db = 'postgres://team:secret@db.internal:5432/team_space';
    expect(clusterSettings({})).toBeUndefined();
    expect(
      clusterSettings({ TEAM_SPACE_REDIS_URL: 'redis://cache.internal', TEAM_SPACE_DATABASE_URL: db }),
    ).toEqual({
      redis: { host: 'cache.internal', port: 6379, tls: false },
      databaseUrl: db,
    });
    expect(
      clusterSettings({
        TEAM_SPACE_REDIS_URL: 'rediss://app:p%40ss@[::1]:6380/2',
        TEAM_SPACE_DATABASE_URL: db,
      })!.redis,
    ).toEqual({ host: '::1', port: 6380, username: 'app', password: 'p@ss', db: 2, tls: true });
    expect(() => clusterSettings({ TEAM_SPACE_REDIS_URL: 'redis://cache.internal' })).toThrow(/go together/);
    expect(() => clusterSettings({ TEAM_SPACE_DATABASE_URL: db })).toThrow(/go together/);
    expect(() =>
      clusterSettings({ TEAM_SPACE_REDIS_URL: 'cache:6379', TEAM_SPACE_DATABASE_URL: db }),
    ).toThrow(/TEAM_SPACE_REDIS_URL/);
    expect(() =>
      clusterSettings({ TEAM_SPACE_REDIS_URL: 'redis://cache', TEAM_SPACE_DATABASE_URL: 'mysql://db/x' }),
    ).toThrow(/TEAM_SPACE_DATABASE_URL/);
  });
});
