import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxProcessEnv } from '../../node-shared/process-env';

/** The settings every sandbox process gets (from an environment that chose none). */
const SANDBOX_MALLOC_ENV = sandboxProcessEnv({});

// The sandbox runs with glibc malloc settings (node-shared/process-env.ts: two arenas and a fixed mmap
// threshold; without them its resident memory grew 150 to 280 MB an hour under a steady load). glibc reads
// them as a process starts, so what counts is the environment of the process that runs the sandbox: read
// here from /proc, on Linux.

/** The environment a running process was started with (Linux /proc). */
function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * The processes a relaunch started: whose parent is `pid`, whose command line runs `script` and whose
 * environment has the relaunch's mark (Linux /proc). The mark matters: a child the process is starting
 * (ffmpeg -version, tsx's esbuild) shows the parent's command line and environment between its fork and
 * its exec, and a busy machine catches it there (seen on CI).
 */
function relaunchesOf(pid: number, script: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The parent is the field after the state, which follows the command's closing parenthesis.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) return false;
        const runsScript = readFileSync(`/proc/${name}/cmdline`, 'utf8')
          .split('\0')
          .some((arg) => arg.endsWith(script));
        return runsScript && environOf(Number(name)).MEDIA_STUDIO_RELAUNCHED === '1';
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Resolves with the line a process printed that matches, rejects if it exits first. */
function printed(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = pattern.exec(out);
      if (m) resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) first: ${out}`)));
  });
}

/** This process's environment without the malloc settings, as a fresh shell has it. */
function withoutMallocEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(SANDBOX_MALLOC_ENV)) delete env[name];
  return env;
}

const exited = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

/**
 * The launcher started `entry` again as a child with the malloc settings (itself without them); stopped,
 * it exits cleanly and takes the child with it.
 */
async function expectRelaunchedAndStopped(launcher: ChildProcess, entry: string) {
  expect(environOf(launcher.pid!).MALLOC_ARENA_MAX).toBeUndefined();
  const [runner] = relaunchesOf(launcher.pid!, entry);
  expect(runner).toBeDefined();
  expect(environOf(runner!)).toMatchObject(SANDBOX_MALLOC_ENV);
  const code = new Promise((resolve) => launcher.once('exit', resolve));
  launcher.kill('SIGTERM');
  expect(await code).toBe(0);
  expect(exited(runner!)).toBe(true);
}

describe('the sandbox process environment', () => {
  it('adds two malloc arenas and a 128 KiB mmap threshold, each unless the environment already chose', () => {
    expect(sandboxProcessEnv({})).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(sandboxProcessEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(sandboxProcessEnv({ MALLOC_ARENA_MAX: '8', MALLOC_MMAP_THRESHOLD_: '0' })).toEqual({});
  });

  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it.runIf(process.platform === 'linux')(
    '`npm run sandbox` started without the malloc settings runs the sandbox in a process that has them, and both stop together',
    async () => {
      const launcher = spawn(process.execPath, ['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0'], {
        env: withoutMallocEnv(),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      started.push(launcher);
      const [, origin] = await printed(launcher, /Sandbox API at (http:\/\/[^/\s]+)\/v1/);
      expect((await fetch(`${origin}/__sandbox/keys`)).status).toBe(200);

      await expectRelaunchedAndStopped(launcher, 'sandbox/src/cli.ts');
    },
    30_000,
  );

  it.runIf(process.platform === 'linux')(
    'a sandbox given the malloc settings (as every launcher gives them) runs in the process that was started',
    async () => {
      const launcher = spawn(process.execPath, ['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0'], {
        env: { ...process.env, MALLOC_ARENA_MAX: '3', MALLOC_MMAP_THRESHOLD_: '65536' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      started.push(launcher);
      await printed(launcher, /Sandbox API at /);
      expect(relaunchesOf(launcher.pid!, 'sandbox/src/cli.ts')).toEqual([]);
      expect(environOf(launcher.pid!).MALLOC_ARENA_MAX).toBe('3');
      launcher.kill('SIGTERM');
    },
    30_000,
  );

  it.runIf(process.platform === 'linux')(
    '`npm start` started without the malloc settings runs the studio and its sandbox in a process that has them',
    async () => {
      // A built studio of one page is enough: server/start.ts only needs dist/index.html to start.
      const dir = mkdtempSync(join(tmpdir(), 'start-relaunch-'));
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>Media Studio</title>');
      try {
        const launcher = spawn(
          process.execPath,
          ['--import', import.meta.resolve('tsx'), resolve('server/start.ts')],
          {
            cwd: dir,
            env: { ...withoutMallocEnv(), PORT: '0', SANDBOX_PORT: '0', TEAM_SPACE: 'off' },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        started.push(launcher);
        const [, sandboxUrl] = await printed(launcher, /sandbox API at (http:\/\/[^/\s]+)\/v1/);
        expect((await fetch(`${sandboxUrl}/__sandbox/keys`)).status).toBe(200);
        await expectRelaunchedAndStopped(launcher, 'server/start.ts');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
