import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ERROR_TYPES as CONTRACT_ERROR_TYPES } from '../../contract/error';
import { UPLOAD_CONTENT_TYPES } from '../../contract/upload';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/server';

// What every HTTP test of the sandbox starts from: a listening sandbox (one per test file, reset before
// each test, or one a test starts itself), clients for the API and the control API that talk real HTTP,
// the demo keys, and the checks and names of the spec that the tests share.

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Client {
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

/** The client of the sandbox a test file shares (useSandbox). */
export type Harness = Client;

// Test responses are asserted field by field.
type Any = any;

/** The body as JSON when it is JSON, else its text. */
function parseBody(text: string): Any {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: keep the text
  }
}

/** Fetches and reads the answer: status, headers, the body (JSON or text) and the raw text. */
export async function fetchParsed(url: string, init: RequestInit = {}) {
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: parseBody(text), text };
}

/** Clients for a running sandbox (useSandbox's, or one a test starts with startSandbox). */
export async function clientFor(running: RunningSandbox): Promise<Client> {
  const origin = running.origin;
  const base = running.baseUrl;
  const list = (await (await fetch(`${origin}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  const keys = Object.fromEntries(list.map((k) => [k.name, k.key]));
  return {
    origin,
    base,
    running,
    keys,
    api: async (method, path, opts = {}) => {
      const keyOpt = opts.key === undefined ? 'personal' : opts.key;
      const headers: Record<string, string> = { ...opts.headers };
      if (keyOpt !== null) headers.Authorization = `Bearer ${keys[keyOpt] ?? keyOpt}`;
      let body = opts.body;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers['Content-Type'] ??= 'application/json';
      }
      const {
        status,
        headers: answered,
        body: parsed,
      } = await fetchParsed(`${base}${path}`, {
        method,
        headers,
        body,
      });
      return { status, headers: answered, body: parsed };
    },
    control: async (method, path, json) => {
      const r = await fetch(`${origin}/__sandbox${path}`, {
        method,
        headers: json === undefined ? {} : { 'Content-Type': 'application/json' },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return { status: r.status, headers: r.headers, body: (await r.json()) as Any };
    },
  };
}

/** One listening sandbox for the test file (port 0, tasks of 300 ms), reset before each test. */
export function useSandbox(options: SandboxOptions = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    const running = await startSandbox({ port: 0, taskMs: 300, moderationMs: 500, ...options });
    Object.assign(h, await clientFor(running));
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
export async function waitForTask(h: Client, id: string, key = 'personal', timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.api('GET', `/tasks/${id}`, { key });
    if (['succeeded', 'failed', 'cancelled'].includes(r.body?.status)) return r;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${r.body?.status}`);
    await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every demo key of the README, by name. */
export const DEMO_KEY_NAMES = [
  'personal',
  'personal2',
  'team',
  'team2',
  'capped',
  'broke',
  'expiring',
  'arrears',
  'expired',
  'revoked',
  'banned',
  'unbound',
];

/** api-notes §4 POST /uploads: the accepted Content-Types, and api-notes §7's five error types (the contract's). */
export const UPLOAD_TYPES: readonly string[] = UPLOAD_CONTENT_TYPES;
export const ERROR_TYPES: readonly string[] = CONTRACT_ERROR_TYPES;

/** api-notes §7: {error: {message, type, code, param?, ...extra}} as JSON, and nothing else at the top. */
export function expectErrorShape(r: ApiResponse, where = '') {
  expect(r.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(r.body, where).toBeTypeOf('object');
  expect(Object.keys(r.body), where).toEqual(['error']);
  const e = r.body.error;
  expect(e, where).toBeTypeOf('object');
  expect(typeof e.message, where).toBe('string');
  expect(e.message.length, where).toBeGreaterThan(0);
  expect(typeof e.code, where).toBe('string');
  expect(e.code, where).toMatch(/^[a-z0-9_]+$/);
  expect(ERROR_TYPES, `${where}: type ${e.type}`).toContain(e.type);
  if ('param' in e) expect(typeof e.param, where).toBe('string');
}

/** An error answer: its status, the api-notes §7 shape, and its code and type where given. */
export function expectError(
  r: ApiResponse,
  status: number,
  code?: string,
  type?: string,
  where = `${status} ${code ?? ''}`,
) {
  expect(r.status, `${where}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(status);
  expectErrorShape(r, where);
  if (code) expect(r.body.error.code, where).toBe(code);
  if (type) expect(r.body.error.type, where).toBe(type);
}

/** A raw-path image task that needs only a prompt (found through the catalog, not hard-coded). */
export async function promptOnlyTask(h: Client, prompt = 'a paper boat on a pond', key = 'personal') {
  const r = await h.api('GET', '/models?type=image&subtype=default', { key });
  expect(r.status).toBe(200);
  const m = r.body.models.find((x: any) => !x.params.some((p: any) => p.required && p.id !== 'prompt'));
  expect(m, 'an image/default model that needs only a prompt').toBeDefined();
  return { interfaceId: m.id as string, versionId: m.versions[0].id as string, params: { prompt } };
}
