import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server';
import { DEFAULT_TABLE } from './persistence-postgres';
import { SQLITE_FILE } from './persistence-sqlite';
import { startPostgres, startRedis, type RunningService } from './test-services';

// An edit the server has acknowledged to its author (Hocuspocus's SyncStatus, which brings the provider's
// unsyncedChanges back to 0) survives the server's death by SIGKILL well within the store's 2 s debounce
// (write-ahead-log.ts): for the embedded SQLite server and for a cluster node (Redis + PostgreSQL). Each
// server is a process of its own (durability-server.fixture.ts), killed with SIGKILL, and a new one on the
// same data loads the room for a new client. The controls run the same steps with the log turned off and
// see the edit lost: what the other tests see is the log's doing, not a store that happened to run.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = 'server/team-space/durability-server.fixture.ts';

let sandbox: RunningSandbox | undefined;
let redis: RunningService | undefined;
let postgres: RunningService | undefined;
let token: string;
let room: string;
/** The member the key is: the `by` of the tasks it writes (the server refuses another's). */
let memberId: string;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  const [s, r, p] = await Promise.allSettled([startSandbox({ port: 0 }), startRedis(), startPostgres()]);
  if (s.status === 'fulfilled') sandbox = s.value;
  if (r.status === 'fulfilled') redis = r.value;
  if (p.status === 'fulfilled') postgres = p.value;
  for (const started of [s, r, p]) if (started.status === 'rejected') throw started.reason;
  const keys = (await (await fetch(`${sandbox!.origin}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  token = keys.find((k) => k.name === 'team')!.key;
  const me = (await (
    await fetch(`${sandbox!.baseUrl}/me`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { team: { id: string }; key: { id: string } };
  room = `team:${me.team.id}`;
  memberId = me.key.id;
}, 40_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), redis?.stop(), postgres?.stop()]);
});

// ---- servers ---------------------------------------------------------------------------------------

interface Server {
  port: number;
  output(): string;
  /** SIGKILL, and its exit awaited: nothing of the process runs after it (no store, no close). */
  kill(): Promise<void>;
}

const printed: string[] = [];
beforeEach(({ onTestFailed }) => {
  printed.length = 0;
  onTestFailed(() => console.error(printed.join('\n')));
});

/** Where one test's servers keep their documents: a SQLite data folder, or a PostgreSQL database. */
type Store = { kind: 'sqlite'; dataDir: string } | { kind: 'cluster'; databaseUrl: string };

let databases = 0;
async function freshStore(kind: Store['kind']): Promise<Store> {
  if (kind === 'sqlite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'team-space-durability-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return { kind, dataDir };
  }
  // A database of its own per test, so one test's rows and states are not the next one's.
  const name = `durability_${++databases}`;
  const admin = new pg.Client({ connectionString: postgres!.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return { kind, databaseUrl: postgres!.url.replace(/\/[^/]*$/, `/${name}`) };
}

async function startServer(store: Store, log: 'on' | 'off'): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    cwd: ROOT,
    env: {
      ...process.env,
      TEAM_SPACE_API_URL: sandbox!.baseUrl,
      DURABILITY_LOG: log,
      DURABILITY_STORE: store.kind,
      ...(store.kind === 'sqlite'
        ? { TEAM_SPACE_DATA: store.dataDir }
        : { TEAM_SPACE_REDIS_URL: redis!.url, TEAM_SPACE_DATABASE_URL: store.databaseUrl }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    printed.push(`--- server (${store.kind}, log ${log})\n${output}`);
  };
  cleanups.push(kill);
  await until(() => {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    return /listening \d+/.test(output);
  }, 'the server to listen');
  return { port: Number(/listening (\d+)/.exec(output)![1]), output: () => output, kill };
}

// ---- clients ---------------------------------------------------------------------------------------

interface Client {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** SyncStatus messages that said "applied" since the client was first synced. */
  acks(): number;
  /** Whether its socket has closed. */
  closed(): boolean;
  destroy(): void;
}

/** A raw provider in Node, as the studio connects; one attempt, no reconnection (nothing is sent again). */
async function connect(port: number): Promise<Client> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({
    url: `ws://127.0.0.1:${port}/sync`,
    WebSocketPolyfill: WebSocket,
    maxAttempts: 1,
  });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: room, token, document: doc });
  let acks = 0;
  let last = 0;
  provider.on('unsyncedChanges', ({ number }: { number: number }) => {
    if (number < last) acks += last - number;
    last = number;
  });
  let closed = false;
  provider.on('close', () => (closed = true));
  provider.attach();
  const client: Client = {
    doc,
    provider,
    acks: () => acks,
    closed: () => closed,
    destroy: () => {
      provider.destroy();
      socket.destroy();
    },
  };
  cleanups.push(client.destroy);
  await until(() => provider.isSynced && provider.unsyncedChanges === 0, 'the client to sync');
  acks = 0;
  return client;
}

/** One edit: a task of this member's, as the document's contract has it (contract/team-doc.ts). */
const edit = (client: Client, taskId: string) =>
  client.doc.getMap('tasks').set(taskId, { taskId, by: memberId, status: 'queued', createdAt: Date.now() });

const acknowledged = (client: Client) =>
  until(() => client.provider.unsyncedChanges === 0, 'the server to acknowledge the edit');

/** The room's tasks as a new client of a new server on the same data loads them. */
async function reload(store: Store, log: 'on' | 'off'): Promise<Set<string>> {
  const server = await startServer(store, log);
  const reader = await connect(server.port);
  return new Set(reader.doc.getMap('tasks').keys());
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// ---- what is stored --------------------------------------------------------------------------------

interface Stored {
  /** The room's stored state as a document (undefined: never stored). */
  state: Y.Doc | undefined;
  /** The room's rows in the write-ahead log. */
  logRows: number;
}

/** better-sqlite3 as far as this test uses it (its types are not installed). */
interface SqliteDatabase {
  prepare(source: string): { get(...params: unknown[]): unknown };
  close(): void;
}
/**
 * Every better-sqlite3 object this test makes, held until the process ends: one collected by V8 aborts
 * the process under Node 24.19+ (persistence-sqlite.ts, heldUntilExit).
 */
const heldUntilExit: object[] = [];

async function stored(store: Store): Promise<Stored> {
  const toDoc = (state: Uint8Array | undefined) => {
    if (!state) return undefined;
    const doc = new Y.Doc();
    Y.applyUpdate(doc, state);
    return doc;
  };
  if (store.kind === 'sqlite') {
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (
      file: string,
      options: object,
    ) => SqliteDatabase;
    const db = new Database(join(store.dataDir, SQLITE_FILE), {});
    heldUntilExit.push(db);
    try {
      const state = db.prepare('SELECT data FROM documents WHERE name = ?');
      const rows = db.prepare('SELECT count(*) AS n FROM document_log WHERE name = ?');
      heldUntilExit.push(state, rows);
      const row = state.get(room) as { data: Uint8Array } | undefined;
      return { state: toDoc(row?.data), logRows: (rows.get(room) as { n: number }).n };
    } finally {
      db.close();
    }
  }
  const db = new pg.Client({ connectionString: store.databaseUrl });
  await db.connect();
  try {
    const state = await db.query<{ state: Buffer }>(`SELECT state FROM ${DEFAULT_TABLE} WHERE name = $1`, [
      room,
    ]);
    const rows = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${DEFAULT_TABLE}_log WHERE name = $1`,
      [room],
    );
    return { state: toDoc(state.rows[0] && new Uint8Array(state.rows[0].state)), logRows: rows.rows[0]!.n };
  } finally {
    await db.end();
  }
}

const keysOf = (doc: Y.Doc | undefined) => new Set(doc ? doc.getMap('tasks').keys() : []);

// ---- the tests -------------------------------------------------------------------------------------

for (const kind of ['sqlite', 'cluster'] as const) {
  const what = kind === 'sqlite' ? 'the SQLite server' : 'a cluster node (Redis + PostgreSQL)';

  describe(`${what} killed with SIGKILL`, () => {
    it('keeps an edit it acknowledged just before', async () => {
      const store = await freshStore(kind);
      const server = await startServer(store, 'on');
      const author = await connect(server.port);
      edit(author, 'acknowledged');
      await acknowledged(author);
      await server.kill();
      expect([...(await reload(store, 'on'))]).toEqual(['acknowledged']);
    });

    it('control: with the log off, the same acknowledged edit is lost', async () => {
      const store = await freshStore(kind);
      const server = await startServer(store, 'off');
      const author = await connect(server.port);
      edit(author, 'acknowledged');
      await acknowledged(author);
      await server.kill();
      expect([...(await reload(store, 'off'))]).toEqual([]);
    });

    for (const log of ['on', 'off'] as const) {
      it(
        log === 'on'
          ? 'keeps every edit it acknowledged of a burst killed in the middle'
          : 'control: with the log off, the acknowledged edits of the burst are lost',
        async () => {
          const store = await freshStore(kind);
          const server = await startServer(store, log);
          const author = await connect(server.port);
          const burst = 1_000;
          for (let i = 0; i < burst; i++) edit(author, `burst-${i}`);
          await until(() => author.acks() >= 50, 'the first 50 edits acknowledged');
          await server.kill();
          // Acknowledgements already on their way when the process died count too: wait for the close.
          await until(author.closed, 'the socket to close');
          const acked = author.acks();
          author.destroy();
          expect(acked, 'the kill fell in the middle of the burst').toBeLessThan(burst);
          const loaded = await reload(store, log);
          // Acknowledgements come in the order the edits were sent (one socket, handled in order).
          const lost = Array.from({ length: acked }, (_, i) => `burst-${i}`).filter((k) => !loaded.has(k));
          if (log === 'on') expect(lost).toEqual([]);
          else expect(lost.length).toBe(acked);
        },
      );
    }

    it('trims the log after a store; a restart loads the stored state and the newer rows together', async () => {
      const store = await freshStore(kind);
      const server = await startServer(store, 'on');
      const author = await connect(server.port);
      for (let i = 0; i < 50; i++) edit(author, `stored-${i}`);
      await acknowledged(author);
      expect((await stored(store)).logRows, 'one row per acknowledged update').toBe(50);
      // Hocuspocus stores 2 s after the room's last edit; then the rows that state holds are deleted.
      let now = await stored(store);
      const storedBy = Date.now() + 8_000;
      while (!(now.state && keysOf(now.state).size === 50 && now.logRows === 0) && Date.now() < storedBy) {
        await new Promise((r) => setTimeout(r, 200));
        now = await stored(store);
      }
      expect(keysOf(now.state).size, 'the stored state').toBe(50);
      expect(now.logRows, 'the rows left after the store').toBe(0);

      edit(author, 'logged-only');
      await acknowledged(author);
      await server.kill();
      const killed = await stored(store);
      expect(keysOf(killed.state).has('logged-only'), 'the newest edit is not in the stored state').toBe(
        false,
      );
      expect(killed.logRows, 'it is in the log').toBe(1);

      const loaded = await reload(store, 'on');
      expect(loaded.size).toBe(51);
      expect(loaded.has('logged-only')).toBe(true);
      // The room, loaded with a row, is stored again at once and the row trimmed.
      let after = await stored(store);
      const compactedBy = Date.now() + 5_000;
      while (after.logRows > 0 && Date.now() < compactedBy) {
        await new Promise((r) => setTimeout(r, 100));
        after = await stored(store);
      }
      expect(after.logRows).toBe(0);
      expect(keysOf(after.state).has('logged-only')).toBe(true);
    });
  });
}
