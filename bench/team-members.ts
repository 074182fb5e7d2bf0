import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { MeSchema } from '../contract/me';
import { memberIdOf, teamRoomOf } from '../contract/team-room';
import { TeamBoards } from '../src/model/compare/team-boards';
import { TeamComments } from '../src/model/team/team-comments';
import { TeamMembers } from '../src/model/team/team-members';
import { TeamSpace } from '../src/model/team/team-space';
import { TeamTasks } from '../src/model/team/team-tasks';

// Headless members for the team bench (bench/team-bench.ts): each one as the studio makes it
// (src/model/team/team-session.ts), minus IndexedDB and React: its own Y.Doc and TeamSpace, the studio's
// stores over it (TeamMembers, TeamBoards, TeamTasks, TeamComments), and a HocuspocusProvider with a
// socket of its own (`ws` as the WebSocket: this is Node). And the team-space server as a child process
// (bench/team-node.ts).

export interface Member {
  name: string;
  space: TeamSpace;
  members: TeamMembers;
  boards: TeamBoards;
  tasks: TeamTasks;
  comments: TeamComments;
  provider: HocuspocusProvider;
  /** Whether everything this member wrote has reached the server (the provider's own count). */
  caughtUp(): boolean;
  leave(): void;
}

export interface Identity {
  token: string;
  memberId: string;
  room: string;
}

/** Who a key is, and its room, as the studio learns them (GET /me, contract/team-room.ts). */
export async function identityOf(apiBaseUrl: string, token: string): Promise<Identity> {
  const me = MeSchema.parse(
    await (await fetch(`${apiBaseUrl}/me`, { headers: { Authorization: `Bearer ${token}` } })).json(),
  );
  return { token, memberId: memberIdOf(me), room: teamRoomOf(me) };
}

/** A member joins: connected, admitted and synced with the room (or an error saying why not). */
export async function joinMember(
  url: string,
  who: Identity,
  name: string,
  timeoutMs = 60_000,
): Promise<Member> {
  const space = new TeamSpace(new Y.Doc(), who.memberId);
  const members = new TeamMembers(space);
  const boards = new TeamBoards(space);
  const tasks = new TeamTasks(space);
  const comments = new TeamComments(space);
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: who.room,
    document: space.doc,
    awareness: space.awareness,
    token: who.token,
  });
  provider.attach();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not synced in ${timeoutMs} ms`)), timeoutMs);
    provider.on('synced', () => {
      clearTimeout(timer);
      resolve();
    });
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
      clearTimeout(timer);
      reject(new Error(`${name}: refused (${reason})`));
    });
  });
  // As TeamSession.start does once the server's copy is in (the server migrated the room as it loaded it,
  // server/team-space/authority.ts): the name.
  members.setName(name);
  return {
    name,
    space,
    members,
    boards,
    tasks,
    comments,
    provider,
    caughtUp: () => !provider.hasUnsyncedChanges,
    leave: () => {
      for (const store of [boards, comments, tasks, members]) store.destroy();
      provider.destroy();
      socket.destroy();
      space.destroy();
      space.doc.destroy();
    },
  };
}

export interface TeamNode {
  /** ws://127.0.0.1:<port>/sync */
  url: string;
  http: string;
  pid: number;
  stats(): Promise<NodeStats>;
  /** Starts a new phase: the peak RSS and the slow readers counted from now. */
  resetStats(): Promise<void>;
  /** How long each of the referee's checks took (ms) since the last call. */
  reviews(): Promise<number[]>;
  /** Applies an update to a room as the server itself writes (not refereed): a seed. */
  apply(room: string, update: Uint8Array): Promise<void>;
  stop(): Promise<void>;
}

export interface NodeStats {
  cpuUserUs: number;
  cpuSystemUs: number;
  rss: number;
  /** The highest RSS sampled since the last resetStats (or the start). */
  peakRss: number;
  heapUsed: number;
  /** Sockets closed as slow readers since the last resetStats. */
  slowReaders: number;
  documents: number;
  connections: number;
}

/** Connections on one machine: the bench's members all come from 127.0.0.1, some 50 on two keys. */
const BENCH_LIMITS = {
  TEAM_SPACE_MAX_CONNECTIONS_PER_KEY: '500',
  TEAM_SPACE_MAX_CONNECTIONS_PER_ADDRESS: '1000',
};

/**
 * The team-space server in a child process of its own (`node --import tsx`, so the pid is the server's
 * own and not a wrapper's), SQLite in a temp folder unless `env` names a cluster (Redis + PostgreSQL).
 */
export async function startTeamNode(apiBaseUrl: string, env: Record<string, string> = {}): Promise<TeamNode> {
  const dataDir = mkdtempSync(join(tmpdir(), 'team-bench-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/team-node.ts'],
    {
      env: {
        ...process.env,
        ...BENCH_LIMITS,
        TEAM_SPACE_API_URL: apiBaseUrl,
        TEAM_SPACE_DATA: dataDir,
        PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`team-node exited (${code}): ${out}`)));
  });
  const http = `http://127.0.0.1:${port}`;
  return {
    url: `ws://127.0.0.1:${port}/sync`,
    http,
    pid: child.pid!,
    stats: async () => (await (await fetch(`${http}/stats`)).json()) as NodeStats,
    resetStats: async () => {
      await fetch(`${http}/stats/reset`, { method: 'POST' });
    },
    reviews: async () => (await (await fetch(`${http}/reviews`)).json()) as number[],
    apply: async (room, update) => {
      const res = await fetch(`${http}/apply?room=${encodeURIComponent(room)}`, {
        method: 'POST',
        body: Buffer.from(update),
      });
      if (!res.ok) throw new Error(`team-node /apply: ${res.status} ${await res.text()}`);
    },
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check()` holds; answers how long it took, or throws after `ms`. */
export async function until(check: () => boolean, what: string, ms = 60_000): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
  return performance.now() - start;
}

/** The q-quantile (nearest rank) of `xs`. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}
