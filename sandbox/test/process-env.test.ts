import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_MALLOC_ARENA_MAX, sandboxProcessEnv } from '../src/process-env';

// The sandbox runs with two malloc arenas (src/process-env.ts: without it its resident memory grew about
// 100 MB an hour under a steady load). glibc reads MALLOC_ARENA_MAX as a process starts, so what counts
// is the environment of the process that runs the sandbox: read here from /proc, on Linux.

/** The environment a running process was started with (Linux /proc). */
export function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** The processes whose parent is `pid` and whose command line runs `script` (Linux /proc). */
export function childrenOf(pid: number, script: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The parent is the field after the state, which follows the command's closing parenthesis.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .filter((name) =>
      readFileSync(`/proc/${name}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => arg.endsWith(script)),
    )
    .map(Number);
}

/** Resolves with the line a process printed that matches, rejects if it exits first. */
export function printed(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
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

const exited = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe('the sandbox process environment', () => {
  it('adds two malloc arenas unless the environment already chose a number', () => {
    expect(SANDBOX_MALLOC_ARENA_MAX).toBe('2');
    expect(sandboxProcessEnv({})).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(sandboxProcessEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({});
  });

  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it.runIf(process.platform === 'linux')(
    '`npm run sandbox` started without MALLOC_ARENA_MAX runs the sandbox in a process that has it, and both stop together',
    async () => {
      const env = { ...process.env };
      delete env.MALLOC_ARENA_MAX;
      const launcher = spawn(process.execPath, ['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0'], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      started.push(launcher);
      const [, origin] = await printed(launcher, /Sandbox API at (http:\/\/[^/\s]+)\/v1/);
      expect((await fetch(`${origin}/__sandbox/keys`)).status).toBe(200);

      expect(environOf(launcher.pid!).MALLOC_ARENA_MAX).toBeUndefined();
      const [runner] = childrenOf(launcher.pid!, 'sandbox/src/cli.ts');
      expect(runner).toBeDefined();
      expect(environOf(runner!).MALLOC_ARENA_MAX).toBe('2');

      const code = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM');
      expect(await code).toBe(0);
      expect(exited(runner!)).toBe(true);
    },
    30_000,
  );

  it.runIf(process.platform === 'linux')(
    'a sandbox given MALLOC_ARENA_MAX (as every launcher gives it) runs in the process that was started',
    async () => {
      const launcher = spawn(process.execPath, ['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0'], {
        env: { ...process.env, MALLOC_ARENA_MAX: '3' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      started.push(launcher);
      await printed(launcher, /Sandbox API at /);
      expect(childrenOf(launcher.pid!, 'sandbox/src/cli.ts')).toEqual([]);
      expect(environOf(launcher.pid!).MALLOC_ARENA_MAX).toBe('3');
      launcher.kill('SIGTERM');
    },
    30_000,
  );
});
