import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/server';

// One listening sandbox per test file, reset before each test. Tests talk to it over real HTTP.

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Harness {
  origin: string;
  base: string;
  running: RunningSandbox;
  keys: Record<string, string>;
  /** Calls the API. `key` is a demo key name (e.g. 'personal') or a raw key string; null sends no auth. */
  api<T = any>(
    method: string,
    path: string,
    opts?: { key?: string | null; json?: unknown; body?: BodyInit; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  control<T = any>(method: string, path: string, json?: unknown): Promise<ApiResponse<T>>;
}

// Test responses are asserted field by field.
type Any = any;

export function useSandbox(options: SandboxOptions = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    h.running = await startSandbox({ port: 0, taskMs: 300, moderationMs: 500, ...options });
    h.origin = h.running.origin;
    h.base = h.running.baseUrl;
    const res = await fetch(`${h.origin}/__sandbox/keys`);
    const list = (await res.json()) as Array<{ name: string; key: string }>;
    h.keys = Object.fromEntries(list.map((k) => [k.name, k.key]));
    h.api = async (method, path, opts = {}) => {
      const keyOpt = opts.key === undefined ? 'personal' : opts.key;
      const headers: Record<string, string> = { ...opts.headers };
      if (keyOpt !== null) headers.Authorization = `Bearer ${h.keys[keyOpt] ?? keyOpt}`;
      let body = opts.body;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers['Content-Type'] ??= 'application/json';
      }
      const r = await fetch(`${h.base}${path}`, { method, headers, body });
      const text = await r.text();
      let parsed: Any = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: keep the text */
      }
      return { status: r.status, headers: r.headers, body: parsed };
    };
    h.control = async (method, path, json) => {
      const r = await fetch(`${h.origin}/__sandbox${path}`, {
        method,
        headers: json === undefined ? {} : { 'Content-Type': 'application/json' },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return { status: r.status, headers: r.headers, body: (await r.json()) as Any };
    };
  });
  beforeEach(async () => {
    await h.control('POST', '/reset');
  });
  afterAll(async () => {
    await h.running?.close();
  });
  return h;
}

/** Polls GET /tasks/{id} until a terminal status (tasks take ~300 ms in tests). */
export async function waitForTask(h: Harness, id: string, key = 'personal', timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.api('GET', `/tasks/${id}`, { key });
    if (['succeeded', 'failed', 'cancelled'].includes(r.body?.status)) return r;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${r.body?.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
