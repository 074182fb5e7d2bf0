import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaWorks } from './core/media-works';
import { Sandbox } from './core/sandbox';
import { createApp } from './http/app';

// The sandbox in the caller's process, for studio tests that drive it on a clock of their own (the
// connection runtime's model test runs thousands of runs on fake timers): the real core and the real
// HTTP routes (every status, fault and control call), answered by the app's fetch instead of a socket.
// A fault that drops the connection makes the fetch fail as a browser's does. Media work goes through a
// port that makes a few bytes per output (no sharp, no ffmpeg): these tests count tasks, not pixels.
// With the studio's one other public entry (public-catalog.ts), the only sandbox module the studio's
// tests may import (eslint.config.js).

export interface InProcessSandbox {
  /** The API's base, e.g. http://sandbox.test/v1: the host is never resolved, fetch below answers it. */
  baseUrl: string;
  /** fetch for the sandbox's origin only: the app answers in this process. */
  fetch: typeof fetch;
  /** A call to the control API (/__sandbox/...), its JSON answer. */
  control: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
  key: (name: string) => Promise<string>;
  /**
   * The pool a key runs in (its account's): how many places it has and how many hold a task at the
   * sandbox's now (tasks made and not yet ended; a task cancelled while waiting takes none).
   */
  pool: (keyName: string) => { size: number; busy: number };
  stop: () => void;
}

const ORIGIN = 'http://sandbox.test';

/** Outputs of a few bytes: what the routes serve is the sandbox's, what is in them is not looked at. */
const fewBytes: MediaWorks = {
  render: async (spec) => ({
    bytes: Buffer.from(`made:${spec.kind}:${spec.prompt ?? ''}`),
    contentType: 'image/jpeg',
  }),
  renderLogo: async (_seed, text) => ({ bytes: Buffer.from(`logo:${text}`), contentType: 'image/png' }),
  verifyUpload: async () => ({ ok: true, probe: { width: 4, height: 3 } }),
  inspectSource: async () => ({ width: 4, height: 3, opaque: true }),
  sampleImage: async () => ({ width: 4, height: 3, pixels: null }),
};

export function startInProcessSandbox({ taskMs }: { taskMs: number }): InProcessSandbox {
  const mediaDir = mkdtempSync(join(tmpdir(), 'sandbox-in-process-'));
  const sb = new Sandbox({
    publicUrl: ORIGIN,
    taskMs,
    moderationMs: taskMs,
    rateLimits: false,
    mediaDir,
    works: fewBytes,
  });
  const app = createApp(sb);
  const answer = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (new URL(request.url).origin !== ORIGIN) throw new TypeError(`not the sandbox: ${request.url}`);
    let dropped = false;
    const socket = { destroy: () => void (dropped = true) };
    const response = await app.fetch(request, { incoming: { socket } });
    if (dropped) throw new TypeError('Failed to fetch');
    return response;
  };
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await answer(`${ORIGIN}/__sandbox${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} /__sandbox${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    baseUrl: `${ORIGIN}/v1`,
    fetch: answer as typeof fetch,
    control,
    key: async (name) => {
      const found = sb.demoKeys().find((k) => k.name === name);
      if (!found) throw new Error(`no demo key ${name}`);
      return found.key;
    },
    pool: (keyName) => {
      const key = sb.authenticate(`Bearer ${sb.demoKeys().find((k) => k.name === keyName)!.key}`);
      const now = sb.clock.now();
      const { tasks } = sb.snapshot();
      const busy = tasks.filter(
        (t) => t.poolId === key.accountId && t.endAt > now && t.startAt < t.endAt,
      ).length;
      return { size: sb.accounts.account(key).concurrency, busy };
    },
    stop: () => rmSync(mediaDir, { recursive: true, force: true }),
  };
}
