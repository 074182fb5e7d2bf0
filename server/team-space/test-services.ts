import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

// Real redis-server and PostgreSQL for the team space's cluster test (docs/deploying.md): a real redis-server
// and a real PostgreSQL started by the test, from Debian's packages, each in a temp folder of its own, on a
// spare port, gone after stop(). .ci/run installs the packages; a machine without them gets an error that
// says what to install, never a skipped test.

export interface RunningService {
  /** redis://… or postgres://…, for TEAM_SPACE_REDIS_URL / TEAM_SPACE_DATABASE_URL. */
  url: string;
  port: number;
  /** The server's folder: every file it writes is under it. */
  dir: string;
  /** Stops the server and deletes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Children still running, killed at exit whatever happens (a failed test must not leave a postgres behind). */
const running = new Set<ChildProcess>();
const tempDirs = new Set<string>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A port nobody listens on right now (the kernel's pick, released for the server to take). */
export function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function missing(what: string, pkg: string): Error {
  return new Error(
    `${what} not found: the team space's cluster test needs Debian's ${pkg} (apt-get install -y ${pkg}; .ci/run installs it).`,
  );
}

/** The first path that exists on PATH for a command, or undefined. */
function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

/**
 * Waits until the child prints a line matching `ready`, or fails with what it printed if it exits first
 * or takes longer than `timeoutMs`.
 */
function waitForLine(child: ChildProcess, ready: RegExp, what: string, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) done();
    };
    const onExit = (code: number | null) =>
      done(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    const timer = setTimeout(
      () => done(new Error(`${what} not ready after ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}

/** Stops a child with `signal`, then SIGKILL if it has not exited after `graceMs`. */
function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

function service(
  url: string,
  port: number,
  child: ChildProcess,
  dir: string,
  signal: NodeJS.Signals,
): RunningService {
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    dir,
    stop: () =>
      (stopping ??= stopChild(child, signal).then(() => {
        running.delete(child);
        rmSync(dir, { recursive: true, force: true });
        tempDirs.delete(dir);
      })),
  };
}

/** A redis-server on 127.0.0.1 and a spare port, without persistence (no RDB, no AOF), in a temp folder. */
export async function startRedis(): Promise<RunningService> {
  const binary = onPath('redis-server');
  if (!binary) throw missing('redis-server', 'redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'team-space-redis-'));
  tempDirs.add(dir);
  const port = await sparePort();
  // Settings on the command line, so the machine's /etc/redis/redis.conf (a daemon on 6379) plays no part.
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  await waitForLine(child, /Ready to accept connections/i, 'redis-server');
  return service(`redis://127.0.0.1:${port}`, port, child, dir, 'SIGTERM');
}

/** The newest PostgreSQL's bin folder from Debian's postgresql (/usr/lib/postgresql/<major>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length > 0) return join(root, majors[0]!, 'bin');
  // Elsewhere (a developer's machine with PostgreSQL on PATH).
  const initdb = onPath('initdb');
  if (initdb && onPath('postgres')) return join(initdb, '..');
  throw missing('PostgreSQL (initdb, postgres)', 'postgresql');
}

/** uid and gid of a user in /etc/passwd. */
function userIds(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

/**
 * PostgreSQL refuses to run as root, and CI runs as root: then its binaries run as the `postgres` user
 * (Debian's package creates it; `nobody` otherwise), owning the temp folder. As anyone else, as that user.
 */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const user = userIds('postgres') ?? userIds('nobody');
  if (!user)
    throw new Error('PostgreSQL cannot run as root and neither a postgres nor a nobody user exists.');
  return user;
}

/**
 * A PostgreSQL cluster made by initdb in a temp folder, its server on 127.0.0.1 and a spare port (its unix
 * socket in the same folder, not /var/run), trust authentication for the superuser `postgres`, and one
 * database `team_space`. Durability is off (fsync): the test checks what the team space writes, not the disk.
 */
export async function startPostgres(): Promise<RunningService> {
  const bin = postgresBin();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'team-space-postgres-'));
  tempDirs.add(dir);
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  if (user) {
    for (const path of [dir, sockets]) chownSync(path, user.uid, user.gid);
  }
  const asUser = { ...(user ?? {}), cwd: dir, env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' } };

  const initdb = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
    { ...asUser, encoding: 'utf8' },
  );
  if (initdb.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
    throw new Error(
      `initdb failed (${initdb.status ?? initdb.error?.message}):\n${initdb.stdout}${initdb.stderr}`,
    );
  }

  const port = await sparePort();
  // The postgres binary itself rather than pg_ctl: its pid is ours, so stop() and a crash kill exactly it.
  const child = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      sockets,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'synchronous_commit=off',
    ],
    { ...asUser, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  await waitForLine(child, /database system is ready to accept connections/, 'postgres');

  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query('CREATE DATABASE team_space');
  } finally {
    await client.end();
  }
  // SIGINT is PostgreSQL's fast shutdown: clients are disconnected rather than waited for.
  return service(`postgres://postgres@127.0.0.1:${port}/team_space`, port, child, dir, 'SIGINT');
}
