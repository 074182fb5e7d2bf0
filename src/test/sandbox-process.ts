import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

// Test-only: the real sandbox (`npm run sandbox`, sandbox/src/cli.ts) as a child process, for studio tests
// that run the studio's own API client against it. Not started in the test's process: Vitest's unit
// project runs under happy-dom, whose Request and Headers the sandbox's HTTP server (@hono/node-server)
// would then build its requests with, and every POST fails with 500. The test's page origin is allowed,
// as `npm start` allows the studio's; the control API (sandbox/README.md) is reached over HTTP.

export interface SandboxProcess {
  origin: string;
  baseUrl: string;
  /** A call to the control API (/__sandbox/...), its JSON answer. */
  control: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
  /** The value of a demo key by its name (GET /__sandbox/keys). */
  key: (name: string) => Promise<string>;
  stop: () => Promise<void>;
}

export async function startSandboxProcess({
  taskMs = 300,
  allowOrigin,
}: {
  taskMs?: number;
  allowOrigin: string;
}): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0', '--allow-origin', allowOrigin],
    {
      cwd: resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        SANDBOX_TASK_MS: String(taskMs),
        SANDBOX_RATE_LIMITS: 'off',
        // The sandbox's malloc settings (node-shared/process-env.ts), so it does not start itself again.
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '131072',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const origin = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Sandbox API at (http:\/\/[^/\s]+)\/v1/.exec(out);
      if (m) done(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`the sandbox exited (${code}) before it listened: ${out}`)));
  });
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${origin}/__sandbox${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} /__sandbox${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    origin,
    baseUrl: `${origin}/v1`,
    control,
    key: async (name) => {
      const keys = await control<{ name: string; key: string }[]>('GET', '/keys');
      const found = keys.find((k) => k.name === name);
      if (!found) throw new Error(`no demo key ${name}`);
      return found.key;
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
