import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { TEAM_DOC_VERSION } from '../../contract/team-doc';
import type { HistoryPage } from '../../contract/team-history';
import { CHANGE_REFUSALS, teamRoomOf } from '../../contract/team-room';
import { MeSchema, type Me } from '../../contract/me';
import { MAX_STATE_VECTOR_BYTES, STATE_PIECE_BYTES, unframePieces } from '../../contract/team-state';
import { preloadRoom } from '../../src/model/team/team-preload';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server';
import { createStudioServer, studioSettings } from '../studio-server';
import { createTeamSpace, type TeamSpace, type TeamSpaceOptions } from './team-space-server';

// The team-space server as `npm start` runs it: on /sync of a listening studio server, checking keys
// against a real sandbox, persisting to SQLite in a temporary data folder. Clients are raw Hocuspocus
// providers in Node (the `ws` package as their WebSocket), as a hostile client would be.

let sandbox: RunningSandbox;
/** The sandbox's demo keys, by name. */
const keys: Record<string, string> = {};
/** GET /me of each good key, by name. */
const me: Record<string, Me> = {};
let dist: string;
/** Every line any logger or console printed while the tests ran. */
const printed: string[] = [];

interface Stack {
  teamSpace: TeamSpace;
  server: Server;
  url: string;
  dataDir: string;
  /** Replaces the team space behind the same server (a restart), same data folder unless told. */
  restart(options?: Partial<TeamSpaceOptions>): Promise<void>;
  close(): Promise<void>;
}
const stacks: Stack[] = [];

async function startStack(options: Partial<TeamSpaceOptions> = {}): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'team-space-'));
  const make = (more: Partial<TeamSpaceOptions> = {}) =>
    createTeamSpace({
      apiBaseUrl: sandbox.baseUrl,
      dataDir,
      log: (line) => printed.push(line),
      ...options,
      ...more,
    });
  let current = make();
  const settings = studioSettings({}, { origin: 'http://127.0.0.1:4173', sandbox });
  const server = createStudioServer(settings, dist, {
    teamSpace: {
      handleUpgrade: (req, socket, head) => current.handleUpgrade(req, socket, head),
      handleRequest: (req, res) => current.handleRequest(req, res),
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const stack: Stack = {
    get teamSpace() {
      return current;
    },
    server,
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sync`,
    dataDir,
    async restart(more) {
      await current.close();
      current = make(more);
    },
    async close() {
      await current.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  stacks.push(stack);
  return stack;
}

interface Client {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** 'authenticated', or the reason of the refusal. */
  outcome: Promise<string>;
  synced: Promise<void>;
  /** Close events the provider saw (the socket's, and the document's close message). */
  closes: Array<{ code: number; reason: string }>;
}
const clients: Client[] = [];

function connect(url: string, token: string, name: string): Client {
  const doc = new Y.Doc();
  // One attempt, no reconnection loop: each test says what it expects of a single connection.
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket, maxAttempts: 1 });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name, token, document: doc });
  provider.attach();
  const closes: Client['closes'] = [];
  provider.on('close', ({ event }: { event: { code: number; reason: string } }) =>
    closes.push({ code: event.code, reason: String(event.reason) }),
  );
  const outcome = new Promise<string>((resolve) => {
    provider.on('authenticated', () => resolve('authenticated'));
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => resolve(reason));
  });
  const synced = new Promise<void>((resolve) => provider.on('synced', () => resolve()));
  const client = { doc, provider, socket, outcome, synced, closes };
  clients.push(client);
  return client;
}

function disconnect(client: Client) {
  client.provider.destroy();
  client.socket.destroy();
}

/** Resolves when `check()` holds; fails the test after `ms`. */
async function until(check: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A task record as the server's referee takes it (authority.ts, against contract/team-doc.ts): under its own
 * id, `by` the member id of the key that writes it (the key's id from GET /me). These tests are about rooms,
 * storage and limits, not the referee: every edit they make is one it accepts, so what refuses one is the
 * rule the test is about.
 */
const task = (memberId: string, taskId: string, more: Record<string, unknown> = {}) => ({
  taskId,
  by: memberId,
  status: 'queued',
  createdAt: 1,
  ...more,
});

/** One small edit a member owns: a task under `key` carrying `text`. */
function note(doc: Y.Doc, memberId: string, key: string, text: string) {
  doc.getMap('tasks').set(key, task(memberId, key, { note: text }));
}
const noteOf = (doc: Y.Doc, key: string) =>
  (doc.getMap('tasks').get(key) as { note?: unknown } | undefined)?.note;

/** Lines printed since `from` in which the referee refused a change (not-yours, invalid-value, share-full…). */
const refereeRefusals = (from: number) =>
  printed.slice(from).filter((l) => CHANGE_REFUSALS.some((reason) => l.includes(`reason=${reason}`)));

const getMe = async (key: string) =>
  MeSchema.parse(
    await (await fetch(`${sandbox.baseUrl}/me`, { headers: { Authorization: `Bearer ${key}` } })).json(),
  );

beforeAll(async () => {
  // Kept, not shown: Hocuspocus prints a stack for each garbage message the hostile tests send.
  for (const method of ['log', 'warn', 'error', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
    });
  }
  sandbox = await startSandbox({ port: 0, taskMs: 100 });
  const list = (await (await fetch(`${sandbox.origin}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  for (const { name, key } of list) keys[name] = key;
  for (const name of ['team', 'team2', 'personal', 'personal2', 'expiring'])
    me[name] = await getMe(keys[name]!);
  dist = mkdtempSync(join(tmpdir(), 'studio-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Media Studio</title>');
});

afterEach(() => {
  for (const c of clients.splice(0)) disconnect(c);
});

afterAll(async () => {
  for (const c of clients.splice(0)) disconnect(c);
  for (const s of stacks.splice(0)) {
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
  await sandbox?.close();
  rmSync(dist, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('who gets in', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });

  it('team and team2 land in the same room, the team’s; personal and personal2 in rooms of their own key', async () => {
    expect(teamRoomOf(me.team!)).toBe(`team:${me.team!.team!.id}`);
    expect(teamRoomOf(me.team2!)).toBe(teamRoomOf(me.team!));
    expect(teamRoomOf(me.personal!)).toBe(`key:${me.personal!.key.id}`);
    expect(teamRoomOf(me.personal2!)).not.toBe(teamRoomOf(me.personal!));
    for (const name of ['team', 'team2', 'personal', 'personal2']) {
      const c = connect(stack.url, keys[name]!, teamRoomOf(me[name]!));
      expect(await c.outcome, name).toBe('authenticated');
      await c.synced;
    }
    const rooms = [...stack.teamSpace.hocuspocus.documents.keys()].sort();
    expect(rooms).toEqual([teamRoomOf(me.team!), teamRoomOf(me.personal!), teamRoomOf(me.personal2!)].sort());
  });

  it('each refused key is refused with its reason', async () => {
    const cases: Array<[string, string]> = [
      [keys.revoked!, 'key-invalid'],
      [keys.expired!, 'key-invalid'],
      [keys.banned!, 'account-banned'],
      [keys.unbound!, 'key-unbound'],
      // Malformed: refused without asking the API; well-formed but unknown: the API's 401.
      ['not a key', 'key-invalid'],
      ['', 'key-invalid'],
      [`gm_live_${'x'.repeat(32)}`, 'key-invalid'],
    ];
    for (const [token, reason] of cases) {
      const c = connect(stack.url, token, 'team:team_studio');
      expect(await c.outcome, reason).toBe(reason);
    }
  });

  it('a key naming any room but its own is refused: a personal key cannot enter the team’s room', async () => {
    const attempts: Array<[string, string]> = [
      ['personal', teamRoomOf(me.team!)],
      ['personal', teamRoomOf(me.personal2!)],
      ['team', teamRoomOf(me.personal!)],
      ['team', `${teamRoomOf(me.team!)} `],
      ['team', 'team:other_team'],
    ];
    for (const [name, room] of attempts) {
      const c = connect(stack.url, keys[name]!, room);
      expect(await c.outcome, `${name} -> ${room}`).toBe('wrong-room');
    }
    expect(stack.teamSpace.hocuspocus.documents.has('team:other_team')).toBe(false);
  });

  it('a reconnect storm asks /me once per key, not once per socket', async () => {
    const storm = await startStack();
    const before = (await fetchRequests()).filter((r) => r.path === '/v1/me').length;
    const all = Array.from({ length: 10 }, () => connect(storm.url, keys.team2!, teamRoomOf(me.team2!)));
    for (const c of all) expect(await c.outcome).toBe('authenticated');
    const after = (await fetchRequests()).filter((r) => r.path === '/v1/me').length;
    expect(after - before).toBe(1);
  });
});

async function fetchRequests() {
  return (await (await fetch(`${sandbox.origin}/__sandbox/requests`)).json()) as Array<{ path: string }>;
}

describe('rooms', () => {
  it('an edit reaches the other members of the room, and never another room', async () => {
    const stack = await startStack();
    const a = connect(stack.url, keys.team!, teamRoomOf(me.team!));
    const b = connect(stack.url, keys.team2!, teamRoomOf(me.team2!));
    const p = connect(stack.url, keys.personal!, teamRoomOf(me.personal!));
    await Promise.all([a.synced, b.synced, p.synced]);
    const fromServer: Uint8Array[] = [];
    p.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin === p.provider) fromServer.push(u);
    });
    note(a.doc, me.team!.key.id, 'b1', 'from team');
    await until(() => noteOf(b.doc, 'b1') === 'from team', 'team2 to see team’s edit');
    note(p.doc, me.personal!.key.id, 'p1', 'from personal');
    await until(
      () =>
        stack.teamSpace.hocuspocus.documents.get(teamRoomOf(me.personal!))?.getMap('tasks').has('p1') ===
        true,
      'the personal edit at the server',
    );
    // Give a stray broadcast every chance to arrive.
    await new Promise((r) => setTimeout(r, 200));
    expect(b.doc.getMap('tasks').has('p1')).toBe(false);
    expect(a.doc.getMap('tasks').has('p1')).toBe(false);
    expect(p.doc.getMap('tasks').has('b1')).toBe(false);
    expect(fromServer, 'nothing reached the personal room from the team’s').toEqual([]);
  });
});

describe('presence', () => {
  it('every awareness state carries the member id of the connection that sent it, whatever it claims', async () => {
    const stack = await startStack();
    const a = connect(stack.url, keys.team!, teamRoomOf(me.team!));
    const b = connect(stack.url, keys.team2!, teamRoomOf(me.team2!));
    await Promise.all([a.synced, b.synced]);
    a.provider.setAwarenessField('memberId', me.team2!.key.id);
    a.provider.setAwarenessField('name', 'Impostor');
    const stateOfA = () => b.provider.awareness!.getStates().get(a.doc.clientID);
    await until(() => stateOfA()?.name === 'Impostor', 'a’s presence at b');
    expect(stateOfA()?.memberId).toBe(me.team!.key.id);
  });
});

describe('what the server keeps', () => {
  it('a restart keeps the documents; no key is in any file it wrote, nor in any log line', async () => {
    const stack = await startStack();
    const a = connect(stack.url, keys.team!, teamRoomOf(me.team!));
    const p = connect(stack.url, keys.personal!, teamRoomOf(me.personal!));
    await Promise.all([a.synced, p.synced]);
    a.doc.getMap('tasks').set('task_1', task(me.team!.key.id, 'task_1', { model: 'flux' }));
    p.doc.getMap('tasks').set('task_2', task(me.personal!.key.id, 'task_2', { model: 'kling' }));
    await until(
      () =>
        stack.teamSpace.hocuspocus.documents.get(teamRoomOf(me.team!))?.getMap('tasks').has('task_1') ===
        true,
      'the edit at the server',
    );
    disconnect(a);
    disconnect(p);
    await stack.restart();

    const b = connect(stack.url, keys.team2!, teamRoomOf(me.team2!));
    await b.synced;
    expect(b.doc.getMap('tasks').toJSON()).toEqual({
      task_1: task(me.team!.key.id, 'task_1', { model: 'flux' }),
    });
    const p2 = connect(stack.url, keys.personal2!, teamRoomOf(me.personal2!));
    await p2.synced;
    expect(p2.doc.getMap('tasks').size, 'personal2 has a room of its own').toBe(0);
    disconnect(b);
    disconnect(p2);
    await stack.restart();

    const files = filesUnder(stack.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const [name, key] of Object.entries(keys)) {
        expect(bytes.includes(Buffer.from(key)), `${name}'s key in ${file}`).toBe(false);
      }
    }
    expect(
      printed.some((l) => l.includes('connect member=')),
      'the log was captured',
    ).toBe(true);
    for (const line of printed) {
      for (const [name, key] of Object.entries(keys))
        expect(line.includes(key), `${name}'s key in "${line}"`).toBe(false);
    }
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('a restart with members connected', () => {
  it('stores the last edit before it goes, and tells the members why they were closed', async () => {
    const stack = await startStack();
    const a = connect(stack.url, keys.team!, teamRoomOf(me.team!));
    await a.synced;
    note(a.doc, me.team!.key.id, 'last', 'edit just before the restart');
    await until(
      () =>
        stack.teamSpace.hocuspocus.documents.get(teamRoomOf(me.team!))?.getMap('tasks').has('last') === true,
      'the edit at the server',
    );
    await stack.restart();
    expect(a.closes).toContainEqual({ code: 1001, reason: 'server-closing' });
    const b = connect(stack.url, keys.team2!, teamRoomOf(me.team2!));
    await b.synced;
    expect(noteOf(b.doc, 'last')).toBe('edit just before the restart');
  });
});

describe('keys checked again', () => {
  it('a key that expires while connected is disconnected at the next check, with its reason', async () => {
    const stack = await startStack({ recheckMs: 200 });
    const c = connect(stack.url, keys.expiring!, teamRoomOf(me.expiring!));
    expect(await c.outcome).toBe('authenticated');
    await c.synced;
    // The `expiring` key expires 3 days after the sandbox started: its clock moves 4 days on.
    const res = await fetch(`${sandbox.origin}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 4 * 86_400_000 }),
    });
    expect(res.ok).toBe(true);
    try {
      // The room's close message first (the provider reports it as 1000), then the socket's close.
      await until(() => c.closes.some((e) => e.code === 4401), 'the disconnection', 5000);
      expect(c.closes).toEqual([
        { code: 1000, reason: 'key-invalid' },
        { code: 4401, reason: 'key-invalid' },
      ]);
      expect(printed).toContainEqual(
        `ended member=${me.expiring!.key.id} room=${teamRoomOf(me.expiring!)} reason=key-invalid`,
      );
    } finally {
      await fetch(`${sandbox.origin}/__sandbox/reset`, { method: 'POST' });
    }
  });

  it('while the API cannot be reached, nobody is put out; a key it then refuses is', async () => {
    let answer: 'me' | 'down' | 'revoked' = 'me';
    const fake = createServer((req, res) => {
      if (answer === 'down') return req.socket.destroy();
      if (answer === 'revoked') {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            error: { type: 'authentication_error', code: 'invalid_token', message: 'revoked' },
          }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(me.team));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const stack = await startStack({
        apiBaseUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`,
        recheckMs: 60_000,
      });
      const c = connect(stack.url, keys.team!, teamRoomOf(me.team!));
      expect(await c.outcome).toBe('authenticated');
      answer = 'down';
      await stack.teamSpace.recheck();
      await new Promise((r) => setTimeout(r, 100));
      expect(c.closes).toEqual([]);
      expect(c.provider.isAuthenticated).toBe(true);
      // Meanwhile a member admitted a moment ago gets back in; a key never seen is told to wait.
      expect(await connect(stack.url, keys.team!, teamRoomOf(me.team!)).outcome).toBe('authenticated');
      expect(await connect(stack.url, keys.personal!, teamRoomOf(me.personal!)).outcome).toBe(
        'api-unavailable',
      );
      answer = 'revoked';
      const refusedAgain = new Promise<string>((resolve) =>
        c.provider.on('authenticationFailed', ({ reason }: { reason: string }) => resolve(reason)),
      );
      await stack.teamSpace.recheck();
      await until(
        () => c.closes.some((e) => e.code === 4401 && e.reason === 'key-invalid'),
        'the disconnection',
      );
      // The provider reconnects by itself, and is refused with the same reason.
      expect(await refusedAgain).toBe('key-invalid');
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });
});

describe('a hostile client', () => {
  const limits = { maxMessageBytes: 64 * 1024, maxDocumentBytes: 256 * 1024 };

  it('an oversized message is refused and the room is untouched', async () => {
    // A document limit whose quarter (each member's share, contract/team-doc.ts) holds the huge value, and
    // the value within the contract's bounds (a JSON value of at most 128 KiB): were the message let in,
    // the referee would take it, so the message limit is the only rule that refuses it.
    const stack = await startStack({ limits: { ...limits, maxDocumentBytes: 512 * 1024 } });
    const room = teamRoomOf(me.team!);
    const good = connect(stack.url, keys.team2!, room);
    const bad = connect(stack.url, keys.team!, room);
    await Promise.all([good.synced, bad.synced]);
    const seen = printed.length;
    note(good.doc, me.team2!.key.id, 'b1', 'kept');
    await until(() => noteOf(bad.doc, 'b1') === 'kept', 'the first edit everywhere');
    note(bad.doc, me.team!.key.id, 'huge', 'x'.repeat(100 * 1024));
    await until(() => bad.closes.some((e) => e.reason === 'message-too-big'), 'the refusal');
    expect(bad.closes).toContainEqual({ code: 1009, reason: 'message-too-big' });
    expect(
      printed.slice(seen).some((l) => /^refused a message of \d+ bytes reason=message-too-big$/.test(l)),
    ).toBe(true);
    expect(refereeRefusals(seen), 'the referee never saw it').toEqual([]);
    disconnect(bad);
    const server = stack.teamSpace.hocuspocus.documents.get(room)!;
    expect(server.getMap('tasks').has('huge')).toBe(false);
    // The room goes on: the other member still syncs, and ends with the server's state.
    note(good.doc, me.team2!.key.id, 'b2', 'after');
    await until(() => noteOf(server, 'b2') === 'after', 'a later edit at the server');
    expect(Y.encodeStateAsUpdate(server)).toEqual(Y.encodeStateAsUpdate(good.doc));
    expect(good.doc.getMap('tasks').has('huge')).toBe(false);
  });

  it('updates that would grow the document past its limit are refused, the room untouched', async () => {
    const stack = await startStack({ limits });
    const room = teamRoomOf(me.team!);
    const good = connect(stack.url, keys.team2!, room);
    const bad = connect(stack.url, keys.team!, room);
    await Promise.all([good.synced, bad.synced]);
    const server = () => stack.teamSpace.hocuspocus.documents.get(room)!;
    // One member's records may take a quarter of the room (its share), and the sandbox's team has two
    // keys: the room's other records are those of members not connected now (five of 43 KiB, 215 KiB of
    // the 256), put into the server's copy as a load from storage would. Then the bad member's edits of
    // 16 KiB: each under the message limit and within the contract's bounds, the three it sends within
    // its share (64 KiB), and the third past the document's limit together with the room.
    server().transact(() => {
      for (let n = 1; n <= 5; n++)
        server()
          .getMap('tasks')
          .set(`former_${n}`, task(`key_former_${n}`, `former_${n}`, { note: 'f'.repeat(43 * 1024) }));
    });
    await until(
      () => good.doc.getMap('tasks').size === 5 && bad.doc.getMap('tasks').size === 5,
      'the room’s records at both members',
    );
    const seen = printed.length;
    let sent = 0;
    for (let i = 0; i < 8 && !bad.closes.length; i++) {
      note(bad.doc, me.team!.key.id, `t${i}`, `${i}`.repeat(16 * 1024));
      sent++;
      await new Promise((r) => setTimeout(r, 50));
    }
    await until(() => bad.closes.some((e) => e.reason === 'document-too-big'), 'the refusal');
    expect(printed.slice(seen)).toContain(
      `refused member=${me.team!.key.id} room=${room} reason=document-too-big`,
    );
    expect(refereeRefusals(seen), 'the referee refused none of them').toEqual([]);
    disconnect(bad);
    const size = Y.encodeStateAsUpdate(server()).byteLength;
    expect(size).toBeLessThanOrEqual(limits.maxDocumentBytes);
    const kept = [...server().getMap('tasks').keys()].filter((k) => /^t\d$/.test(k));
    expect(kept.length).toBeLessThan(sent);
    note(good.doc, me.team2!.key.id, 'b', 'still syncing');
    await until(() => noteOf(server(), 'b') === 'still syncing', 'a later edit');
    await until(
      () => Buffer.from(Y.encodeStateAsUpdate(server())).equals(Buffer.from(Y.encodeStateAsUpdate(good.doc))),
      'the member and the server to hold the same document',
    );
  });

  it('garbage bytes end only the socket that sent them; the server goes on', async () => {
    const stack = await startStack();
    const garbage = [
      Buffer.from([]),
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      Buffer.from('not binary at all'),
      Buffer.from([4, 0x74, 0x65, 0x61, 0x6d, 0, 0, 200, 1, 2, 3]),
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
    ];
    for (const bytes of garbage) {
      const ws = new WebSocket(stack.url);
      await new Promise((r) => ws.once('open', r));
      ws.send(bytes);
      ws.send(bytes.toString('latin1'));
      await new Promise((r) => setTimeout(r, 30));
      ws.terminate();
    }
    // And from an authenticated member, after its room is open.
    const bad = connect(stack.url, keys.team!, teamRoomOf(me.team!));
    await bad.synced;
    const raw = (bad.socket as unknown as { webSocket: WebSocket }).webSocket;
    const name = Buffer.from(teamRoomOf(me.team!));
    raw.send(
      Buffer.concat([Buffer.from([name.length]), name, Buffer.from([0, 2, 0xff, 0xff, 0xff, 0x7f, 1])]),
    );
    raw.send(Buffer.concat([Buffer.from([name.length]), name, Buffer.from([0, 2, 5, 1, 2, 3, 4, 5])]));
    raw.send(Buffer.concat([Buffer.from([name.length]), name, Buffer.from([1, 3, 9, 9, 9])]));
    raw.send(Buffer.concat([Buffer.from([name.length]), name, Buffer.from([8])]));
    await new Promise((r) => setTimeout(r, 200));
    const good = connect(stack.url, keys.team2!, teamRoomOf(me.team2!));
    expect(await good.outcome).toBe('authenticated');
    await good.synced;
  });

  it('a flood of connections from one key, or from one address, is refused beyond the limit', async () => {
    const stack = await startStack({ limits: { maxConnectionsPerKey: 3, maxConnectionsPerAddress: 8 } });
    const room = teamRoomOf(me.team!);
    const byKey = Array.from({ length: 5 }, () => connect(stack.url, keys.team!, room));
    const outcomes = await Promise.all(byKey.map((c) => c.outcome));
    expect(outcomes.filter((o) => o === 'authenticated')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'too-many-connections')).toHaveLength(2);
    // Another key of the team still gets in.
    const other = connect(stack.url, keys.team2!, room);
    expect(await other.outcome).toBe('authenticated');
    // A connection that ends gives its place back.
    const seen = printed.length;
    disconnect(byKey[outcomes.indexOf('authenticated')]!);
    await until(() => printed.slice(seen).some((l) => l.startsWith('disconnect member=')), 'the disconnect');
    const again = connect(stack.url, keys.team!, room);
    expect(await again.outcome).toBe('authenticated');
    // 6 sockets are open from this address; 2 more fit, then each is closed with the reason.
    const closes = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<{ code: number; reason: string } | 'open'>((resolve) => {
            const ws = new WebSocket(stack.url);
            ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
            ws.on('open', () => setTimeout(() => resolve('open'), 1000));
          }),
      ),
    );
    expect(closes.filter((c) => c === 'open')).toHaveLength(2);
    expect(closes.filter((c) => c !== 'open')).toEqual([
      { code: 4429, reason: 'too-many-connections' },
      { code: 4429, reason: 'too-many-connections' },
    ]);
  });
});

describe('a team’s history past the live window (history at scale)', () => {
  const DAY = 86_400_000;
  const old = Date.now() - 60 * DAY;
  /** A finished task as a studio shares it, made `ageDays` ago. */
  const finished = (memberId: string, n: number, ageDays: number, prompt = `a fox number ${n}`) =>
    task(memberId, `t${n}`, {
      status: n % 10 === 0 ? 'failed' : 'succeeded',
      createdAt: Date.now() - ageDays * DAY + n,
      creditsCharged: 2,
      request: { interfaceId: 'img', params: { prompt } },
      meta: { title: 'Image Model', mediaType: 'image' },
      outputs: [],
    });
  const history = (stack: Stack, route: string, key?: string, init: RequestInit = {}) =>
    fetch(stack.url.replace(/^ws/, 'http').replace(/\/sync$/, '') + route, {
      ...init,
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...init.headers },
    });
  const counts = (doc: Y.Doc) => ({
    tasks: doc.getMap('tasks').size,
    comments: doc.getMap('comments').size,
    votes: doc.getMap('votes').size,
    judgements: doc.getMap('judgements').size,
  });

  it('a room at the old 32 MB limit is split as it loads: every task, comment and vote counted before and after', async () => {
    // The room as a server of the previous version kept it: one document, every task in it, version 1.
    const stack = await startStack({ history: false, limits: { maxDocumentBytes: 64 * 1024 * 1024 } });
    const room = teamRoomOf(me.team!);
    const ada = me.team!.key.id;
    const bob = me.team2!.key.id;
    const direct = await stack.teamSpace.hocuspocus.openDirectConnection(room);
    const prompt = 'p'.repeat(2_000);
    let total = 0;
    await direct.transact((doc) => {
      doc.getMap('meta').set('schemaVersion', 1);
      for (let n = 0; n < 16_000; n++) {
        const by = n % 3 ? ada : bob;
        const record = finished(by, n, n >= 14_500 ? 1 : 400 - n / 40, `${prompt} ${n}`);
        // The last few are still running: they stay in the document whatever their age.
        doc.getMap('tasks').set(`t${n}`, n >= 15_990 ? { ...record, status: 'running' } : record);
        total++;
      }
      for (let n = 0; n < 300; n++) {
        const c = new Y.Map<unknown>();
        doc.getMap('comments').set(`c${n}`, c);
        for (const [k, v] of Object.entries({
          id: `c${n}`,
          target: { kind: 'output', outputKey: `t${n}#0` },
          parentId: null,
          author: ada,
          body: `comment ${n}`,
          mentions: [],
          createdAt: old,
          deleted: false,
        }))
          c.set(k, v);
        doc.getMap('votes').set(`b|r${n}|${bob}`, {
          id: `v${n}`,
          boardId: 'b',
          rowId: `r${n}`,
          memberId: bob,
          at: old,
          winner: 'x',
          candidates: [],
          category: 'image',
        });
        doc.getMap('judgements').set(`${ada}|t${n}#0`, { starred: true, rating: 4, updatedAt: old });
      }
    });
    const before = counts(stack.teamSpace.hocuspocus.documents.get(room)!);
    expect(Y.encodeStateAsUpdate(stack.teamSpace.hocuspocus.documents.get(room)!).byteLength).toBeGreaterThan(
      32 * 1024 * 1024,
    );
    await direct.disconnect();
    await until(
      () => stack.teamSpace.hocuspocus.getDocumentsCount() === 0,
      'the room to be stored and unloaded',
      20_000,
    );

    // This version loads it.
    const seen = printed.length;
    await stack.restart({ history: undefined, limits: {} });
    const member = connect(stack.url, keys.team!, room);
    await member.synced;
    expect(printed.slice(seen)).toContain(`migrated room=${JSON.stringify(room)} 1 -> ${TEAM_DOC_VERSION}`);
    const after = counts(member.doc);
    const store = stack.teamSpace.historyStore()!;
    expect(after.tasks + (await store.count(room))).toBe(total);
    expect(after.tasks).toBe(1_000 + 10);
    expect(member.doc.getMap('meta').get('schemaVersion')).toBe(TEAM_DOC_VERSION);
    // The document a member downloads is a fraction of what it was.
    expect(Y.encodeStateAsUpdate(member.doc).byteLength).toBeLessThan(4 * 1024 * 1024);
    // Each task is in exactly one place: none of those left in the document is in the store.
    const live = new Set(member.doc.getMap('tasks').keys());
    let page = await store.page(room, { limit: 500 });
    let stored = 0;
    const attached = { comments: 0, judgements: 0 };
    for (;;) {
      for (const t of page.tasks) expect(live.has((t as { taskId: string }).taskId)).toBe(false);
      stored += page.tasks.length;
      for (const a of page.attached) {
        attached.comments += Object.keys(a.comments).length;
        attached.judgements += Object.keys(a.judgements).length;
      }
      if (!page.next) break;
      page = await store.page(room, { limit: 500, before: page.next });
    }
    expect(stored + live.size).toBe(total);
    // The comments and stars of the moved tasks (all quiet) went with them; the votes stay.
    expect(attached).toEqual({ comments: 300, judgements: 300 });
    expect(after).toEqual({ tasks: after.tasks, comments: 0, judgements: 0, votes: before.votes });
    const months = await store.months(room);
    expect(months.reduce((n, m) => n + m.tasks, 0)).toBe(stored);
  }, 120_000);

  it('members read the history in pages with their key in a header, only their own room’s', async () => {
    const stack = await startStack();
    const room = teamRoomOf(me.team!);
    const member = connect(stack.url, keys.team!, room);
    await member.synced;
    const server = stack.teamSpace.hocuspocus.documents.get(room)!;
    server.transact(() => {
      for (let n = 1; n <= 30; n++)
        server
          .getMap('tasks')
          .set(`t${n}`, finished(me.team!.key.id, n, 30, n === 7 ? 'a whale at dusk' : undefined));
    });
    // The member (through the referee) starred and commented on t7 weeks ago: both go with it.
    const said = Date.now() - 20 * DAY;
    const starKey = `${me.team!.key.id}|t7#0`;
    member.doc.transact(() => {
      member.doc.getMap('judgements').set(starKey, { starred: true, rating: 5, updatedAt: said });
      const c = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({
        id: 'c1',
        target: { kind: 'output', outputKey: 't7#0' },
        parentId: null,
        author: me.team!.key.id,
        body: 'the one',
        mentions: [],
        createdAt: said,
      }))
        c.set(k, v);
      member.doc.getMap('comments').set('c1', c);
    });
    await until(() => server.getMap('comments').has('c1'), 'the comment to reach the server');
    expect(await stack.teamSpace.archiveNow(room)).toBe(30);
    await until(() => !member.doc.getMap('comments').has('c1'), 'the comment to leave the room');
    expect(member.doc.getMap('judgements').size).toBe(0);
    await until(
      () => member.doc.getMap('meta').get('archivedBefore') !== undefined,
      'the move to reach the member',
    );
    expect(member.doc.getMap('tasks').size).toBe(0);
    expect(member.doc.getMap('meta').get('archivedBefore')).toBe(server.getMap('meta').get('archivedBefore'));

    const first = await history(stack, '/sync/history?limit=20', keys.team2);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const body = (await first.json()) as { tasks: Array<{ taskId: string }>; next: string };
    expect(body.tasks.map((t) => t.taskId)).toEqual(Array.from({ length: 20 }, (_, i) => `t${30 - i}`));
    const second = (await (
      await history(stack, `/sync/history?limit=20&before=${encodeURIComponent(body.next)}`, keys.team)
    ).json()) as { tasks: unknown[]; next: null };
    expect(second.tasks).toHaveLength(10);
    expect(second.next).toBeNull();
    const search = (await (await history(stack, '/sync/history?q=WHALE%20dusk', keys.team)).json()) as {
      tasks: Array<{ taskId: string }>;
    };
    expect(search.tasks.map((t) => t.taskId)).toEqual(['t7']);
    expect((search as unknown as HistoryPage).attached).toEqual([
      {
        taskId: 't7',
        judgements: { [starKey]: { starred: true, rating: 5, updatedAt: said } },
        comments: { c1: expect.objectContaining({ id: 'c1', body: 'the one', author: me.team!.key.id }) },
      },
    ]);
    const months = (await (await history(stack, '/sync/history/months', keys.team)).json()) as {
      months: Array<{ tasks: number }>;
    };
    expect(months.months.reduce((n, m) => n + m.tasks, 0)).toBe(30);
    // Another key's room is its own: a personal key sees none of the team's.
    expect(
      ((await (await history(stack, '/sync/history', keys.personal)).json()) as { tasks: unknown[] }).tasks,
    ).toEqual([]);
    // No key, a key in the URL, a key the API refuses: nothing.
    expect((await history(stack, '/sync/history')).status).toBe(401);
    expect((await history(stack, `/sync/history?token=${keys.team}&key=${keys.team}`)).status).toBe(401);
    expect((await history(stack, '/sync/history', 'ms_live_000000000000000000000000')).status).toBe(401);
    expect((await history(stack, '/sync/history?limit=100000', keys.team)).status).toBe(400);
    expect((await history(stack, '/sync/history', keys.team, { method: 'POST' })).status).toBe(405);
    // The key is in no log line.
    for (const key of Object.values(keys)) expect(printed.join('\n')).not.toContain(key);
  });

  it('a key that floods the history reads is answered 429 past its budget; another key still reads', async () => {
    const stack = await startStack({
      limits: { historyReadsPerKeyBurst: 3, historyReadsPerKeyPerMinute: 1 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await history(stack, '/sync/history?q=fox', keys.team)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await history(stack, '/sync/history', keys.team2)).status).toBe(200);
  });

  it('a room at its limit moves its finished tasks out instead of refusing the next edit', async () => {
    const limits = { maxMessageBytes: 64 * 1024, maxDocumentBytes: 256 * 1024 };
    const run = async (history: false | undefined) => {
      const stack = await startStack({ limits, history });
      const room = teamRoomOf(me.team!);
      const member = connect(stack.url, keys.team!, room);
      await member.synced;
      const server = stack.teamSpace.hocuspocus.documents.get(room)!;
      // Members not connected now finished these long ago: 215 KiB of the room's 256.
      server.transact(() => {
        for (let n = 1; n <= 5; n++)
          server.getMap('tasks').set(`former_${n}`, {
            ...task(`key_former_${n}`, `former_${n}`, { note: 'f'.repeat(43 * 1024) }),
            status: 'succeeded',
            createdAt: old,
          });
      });
      await until(() => member.doc.getMap('tasks').size === 5, 'the room’s records at the member');
      for (let i = 0; i < 3 && !member.closes.length; i++) {
        note(member.doc, me.team!.key.id, `t${i}`, `${i}`.repeat(16 * 1024));
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 300));
      return { stack, member, server, room };
    };
    // The control: without the store, the third edit is refused.
    const control = await run(false);
    expect(control.member.closes.some((e) => e.reason === 'document-too-big')).toBe(true);
    disconnect(control.member);

    const { stack, member, server, room } = await run(undefined);
    expect(member.closes).toEqual([]);
    expect(['t0', 't1', 't2'].every((k) => noteOf(server, k) !== undefined)).toBe(true);
    expect(await stack.teamSpace.historyStore()!.count(room)).toBe(5);
    expect(Y.encodeStateAsUpdate(server).byteLength).toBeLessThanOrEqual(limits.maxDocumentBytes);
  });
});

describe('joining in pieces: the room read over HTTP before the socket syncs', () => {
  const post = (stack: Stack, body: BodyInit | null, key?: string, route = '/sync/state', method = 'POST') =>
    fetch(stack.url.replace(/^ws/, 'http').replace(/\/sync$/, '') + route, {
      method,
      headers: key ? { Authorization: `Bearer ${key}` } : {},
      ...(body === null ? {} : { body }),
    });
  /** A room of 600 tasks a member shared, with prompts of some length: some 100 KB. */
  const roomOf600 = async (stack: Stack) => {
    const room = teamRoomOf(me.team!);
    const member = connect(stack.url, keys.team!, room);
    await member.synced;
    const server = stack.teamSpace.hocuspocus.documents.get(room)!;
    server.transact(() => {
      for (let n = 0; n < 600; n++)
        server.getMap('tasks').set(
          `t${n}`,
          task(me.team!.key.id, `t${n}`, {
            request: {
              interfaceId: 'img',
              params: { prompt: `a lighthouse at dusk, number ${n} of the series` },
            },
          }),
        );
    });
    return { room, member, server };
  };

  it('a member reads the room in pieces with their key in a header, applies them a task each, and the socket then sends almost nothing', async () => {
    const stack = await startStack();
    const { room, server } = await roomOf600(stack);
    const whole = Y.encodeStateAsUpdate(server).byteLength;
    expect(whole).toBeGreaterThan(3 * STATE_PIECE_BYTES);

    const answer = await post(
      stack,
      new Blob([Y.encodeStateVector(new Y.Doc()) as Uint8Array<ArrayBuffer>]),
      keys.team2,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const pieces = unframePieces(new Uint8Array(await answer.arrayBuffer()));
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    for (const p of pieces.slice(0, -1)) expect(p.byteLength).toBeLessThan(STATE_PIECE_BYTES + 1024);

    // The studio's own preload against this server: one piece per task, the key only in the header.
    const doc = new Y.Doc();
    const seen: string[] = [];
    let tasksRun = 0;
    const applied = await preloadRoom(doc, {
      baseUrl: stack.url.replace(/^ws/, 'http'),
      token: () => keys.team!,
      stopped: () => false,
      fetch: (url, init) => {
        seen.push(String(url));
        return fetch(url, init);
      },
      nextTask: async () => void (tasksRun += 1),
    });
    expect(applied).toBe(pieces.length);
    expect(tasksRun).toBe(pieces.length);
    expect(seen.join(' ')).not.toContain(keys.team!);
    expect(doc.getMap('tasks').toJSON()).toEqual(server.getMap('tasks').toJSON());

    // Then the socket: the server's answer to the copy's state is small, not the room again.
    const sizes: number[] = [];
    class Recording extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.on('message', (data: Buffer) => sizes.push(data.byteLength));
      }
    }
    const socket = new HocuspocusProviderWebsocket({
      url: stack.url,
      WebSocketPolyfill: Recording,
      maxAttempts: 1,
    });
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: room,
      token: keys.team!,
      document: doc,
    });
    provider.attach();
    await new Promise<void>((resolve) => provider.on('synced', () => resolve()));
    expect(Math.max(...sizes)).toBeLessThan(1024);
    // The control: a copy that did not preload is sent the whole room over the socket.
    const fresh = connect(stack.url, keys.team!, room);
    await fresh.synced;
    expect(Y.encodeStateAsUpdate(fresh.doc).byteLength).toBeGreaterThan(whole / 2);
    provider.destroy();
    socket.destroy();
  });

  it('a copy that holds part of the room is sent only the rest', async () => {
    const stack = await startStack();
    const { server } = await roomOf600(stack);
    const part = new Y.Doc();
    Y.applyUpdate(part, Y.encodeStateAsUpdate(server));
    server.transact(() => server.getMap('tasks').set('t_late', task(me.team!.key.id, 't_late')));
    const answer = await post(
      stack,
      new Blob([Y.encodeStateVector(part) as Uint8Array<ArrayBuffer>]),
      keys.team,
    );
    const pieces = unframePieces(new Uint8Array(await answer.arrayBuffer()));
    expect(pieces.reduce((n, p) => n + p.byteLength, 0)).toBeLessThan(1024);
    for (const p of pieces) Y.applyUpdate(part, p);
    expect(part.getMap('tasks').has('t_late')).toBe(true);
  });

  it('the room read is the key’s own, and a read without a key, with a body too large or not a state vector is refused', async () => {
    const stack = await startStack();
    const { member } = await roomOf600(stack);
    const empty = () => new Blob([Y.encodeStateVector(new Y.Doc()) as Uint8Array<ArrayBuffer>]);
    // A personal key reads its own room, which holds none of the team's tasks.
    const personal = new Y.Doc();
    const mine = await post(stack, empty(), keys.personal);
    expect(mine.status).toBe(200);
    for (const p of unframePieces(new Uint8Array(await mine.arrayBuffer()))) Y.applyUpdate(personal, p);
    expect(personal.getMap('tasks').size).toBe(0);
    expect((await post(stack, empty())).status).toBe(401);
    expect((await post(stack, empty(), undefined, `/sync/state?token=${keys.team}`)).status).toBe(401);
    expect((await post(stack, empty(), 'ms_live_000000000000000000000000')).status).toBe(401);
    expect((await post(stack, null, keys.team, '/sync/state', 'GET')).status).toBe(405);
    expect(
      (await post(stack, new Blob([new Uint8Array(MAX_STATE_VECTOR_BYTES + 1)]), keys.team)).status,
    ).toBe(413);
    // Claims five writers and holds none.
    expect((await post(stack, new Blob([new Uint8Array([5])]), keys.team)).status).toBe(400);
    expect(member.closes).toEqual([]);
    for (const key of Object.values(keys)) expect(printed.join('\n')).not.toContain(key);
  });

  it('a room nobody is in is loaded for the read (and held for the socket that follows)', async () => {
    const stack = await startStack();
    const { room, member } = await roomOf600(stack);
    disconnect(member);
    await until(() => !stack.teamSpace.hocuspocus.documents.has(room), 'the room to be unloaded', 10_000);
    const answer = await post(
      stack,
      new Blob([Y.encodeStateVector(new Y.Doc()) as Uint8Array<ArrayBuffer>]),
      keys.team,
    );
    const doc = new Y.Doc();
    for (const p of unframePieces(new Uint8Array(await answer.arrayBuffer()))) Y.applyUpdate(doc, p);
    expect(doc.getMap('tasks').size).toBe(600);
    expect(stack.teamSpace.hocuspocus.documents.has(room)).toBe(true);
  });
});
