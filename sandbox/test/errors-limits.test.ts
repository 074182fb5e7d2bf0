import { describe, expect, it } from 'vitest';
import { advance, makeImage } from './fixtures';
import {
  expectError,
  expectErrorShape,
  promptOnlyTask,
  useSandbox,
  type ApiResponse,
  type Harness,
} from './harness';

// api-notes §7 (one error shape, five type values), api-notes §8 (per-key 60-second rate limits, with the README's
// decisions: GET /tasks/{id} 60, fixed windows, Retry-After = whole seconds left) and the README's CORS.

// The studio's origin (as npm start passes it); the API answers it, and no other page (origins.test.ts).
const h = useSandbox({ allowedOrigins: ['http://127.0.0.1:5173'] });

const ORIGIN = 'http://localhost:5173';
const ELSEWHERE = 'http://elsewhere.example';

let videoCache: Uint8Array<ArrayBuffer> | undefined;
/** A real MP4: a video cover of the template catalog, fetched from the sandbox's CDN. */
async function sampleVideo(hh: Harness): Promise<Uint8Array<ArrayBuffer>> {
  if (videoCache) return videoCache;
  const list = await hh.api('GET', '/templates?type=video', { key: 'team2' });
  for (const t of list.body.templates) {
    const r = await fetch(t.coverUrl);
    const bytes = new Uint8Array(await r.arrayBuffer());
    if (r.ok && (r.headers.get('content-type') ?? '').startsWith('video/mp4')) return (videoCache = bytes);
  }
  throw new Error('no MP4 template cover to upload');
}

async function upload(hh: Harness, key: string) {
  return hh.api('POST', '/uploads', {
    key,
    body: new Uint8Array(await makeImage({ width: 64, height: 48 })),
    headers: { 'Content-Type': 'image/png' },
  });
}

function expectRateLimited(r: ApiResponse, where: string) {
  expectError(r, 429, 'rate_limited', 'rate_limit_error', where);
  const ra = r.headers.get('retry-after');
  expect(ra, `${where}: Retry-After`).toMatch(/^\d+$/);
  expect(Number(ra), where).toBeGreaterThanOrEqual(1);
  expect(Number(ra), where).toBeLessThanOrEqual(60);
  return Number(ra);
}

interface LimitCase {
  endpoint: string;
  limit: number;
  ok: number[];
  setup?: (key: string) => Promise<unknown>;
  call: (key: string, ctx: any, i: number) => Promise<ApiResponse>;
}

const cases: LimitCase[] = [
  {
    endpoint: 'POST /tasks',
    limit: 60,
    ok: [200],
    // [cancel]: a real, accepted task that renders nothing (README trigger).
    setup: async () => promptOnlyTask(h, 'a paper boat [cancel]'),
    call: (key, body) => h.api('POST', '/tasks', { key, json: body }),
  },
  {
    endpoint: 'GET /tasks/{id}',
    limit: 60,
    ok: [200],
    setup: async (key) => {
      const r = await h.api('POST', '/tasks', { key, json: await promptOnlyTask(h, 'a kite [cancel]') });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.taskId;
    },
    call: (key, id) => h.api('GET', `/tasks/${id}`, { key }),
  },
  {
    endpoint: 'POST /uploads',
    limit: 30,
    ok: [200],
    call: (key) => upload(h, key),
  },
  {
    endpoint: 'GET /uploads/{id}',
    limit: 120,
    // A video upload: 202 processing until moderation ends, then 200 ready.
    ok: [200, 202],
    setup: async (key) => {
      const r = await h.api('POST', '/uploads', {
        key,
        body: await sampleVideo(h),
        headers: { 'Content-Type': 'video/mp4' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(typeof r.body.uploadId).toBe('string');
      return r.body.uploadId;
    },
    call: (key, id) => h.api('GET', `/uploads/${id}`, { key }),
  },
  {
    endpoint: 'GET /me',
    limit: 120,
    ok: [200],
    call: (key) => h.api('GET', '/me', { key }),
  },
  {
    endpoint: 'POST /quote',
    limit: 120,
    ok: [200],
    setup: async () => promptOnlyTask(h),
    call: (key, body) => h.api('POST', '/quote', { key, json: body }),
  },
  {
    endpoint: 'GET /ai-tools and /ai-tools/{slug} (one bucket)',
    limit: 120,
    ok: [200],
    setup: async () => (await h.api('GET', '/ai-tools', { key: 'team' })).body.aiTools[0].slug,
    call: (key, slug, i) => h.api('GET', i % 2 ? `/ai-tools/${slug}` : '/ai-tools', { key }),
  },
  {
    endpoint: 'GET /templates and /templates/{slug} (one bucket)',
    limit: 120,
    ok: [200],
    setup: async () => (await h.api('GET', '/templates', { key: 'team' })).body.templates[0].slug,
    call: (key, slug, i) => h.api('GET', i % 2 ? `/templates/${slug}` : '/templates', { key }),
  },
  {
    endpoint: 'POST /describe-image',
    limit: 10,
    ok: [200],
    setup: async (key) => {
      const r = await upload(h, key);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.url;
    },
    call: (key, imageUrl) => h.api('POST', '/describe-image', { key, json: { imageUrl } }),
  },
];

describe('error shape (api-notes §7)', () => {
  it('an unknown route is a 404 in the spec shape', async () => {
    for (const path of ['/nope', '/tasks', '/model', '/v1/me', '/me/extra']) {
      const r = await h.api('GET', path);
      expect(r.status, path).toBe(404);
      expectErrorShape(r, `GET ${path}`);
      expect(r.body.error.type, path).toBe('invalid_request_error');
    }
    // Outside /v1 as well.
    const r = await fetch(`${h.origin}/v2/me`, { headers: { Authorization: `Bearer ${h.keys.personal}` } });
    expect(r.status).toBe(404);
    expectErrorShape({ status: r.status, headers: r.headers, body: await r.json() }, 'GET /v2/me');
  });

  it('malformed or empty JSON on POST /tasks, /quote and /describe-image is 400 invalid_payload', async () => {
    for (const path of ['/tasks', '/quote', '/describe-image']) {
      for (const body of ['{"interfaceId": ', 'not json', '']) {
        const r = await h.api('POST', path, { body, headers: { 'Content-Type': 'application/json' } });
        expectError(
          r,
          400,
          'invalid_payload',
          'invalid_request_error',
          `POST ${path} ${JSON.stringify(body)}`,
        );
      }
    }
    // Nothing was charged.
    expect((await h.api('GET', '/me')).body.user.creditBalance).toBe(5000);
  });

  it('a wrong method is a 404 or 405 in the spec shape', async () => {
    for (const [method, path] of [
      ['PUT', '/me'],
      ['DELETE', '/tasks/task_x'],
      ['PATCH', '/models?type=image&subtype=default'],
      ['POST', '/me'],
      ['GET', '/quote'],
      ['PUT', '/tasks'],
    ] as const) {
      const r = await h.api(method, path, method === 'GET' ? {} : { json: {} });
      expect([404, 405], `${method} ${path}`).toContain(r.status);
      expectErrorShape(r, `${method} ${path}`);
      expect(r.body.error.type).toBe('invalid_request_error');
    }
  });

  it('each refusal has the spec shape and the README type for its status', async () => {
    const body = await promptOnlyTask(h);
    const up = await upload(h, 'personal');
    expect(up.status).toBe(200);
    const checks: Array<[string, Promise<ApiResponse>, number, string, string]> = [
      ['no key', h.api('GET', '/me', { key: null }), 401, 'missing_token', 'authentication_error'],
      ['bad key', h.api('GET', '/me', { key: 'gm_live_nope' }), 401, 'invalid_token', 'authentication_error'],
      ['banned', h.api('GET', '/me', { key: 'banned' }), 403, 'account_banned', 'permission_error'],
      [
        'unbound',
        h.api('POST', '/tasks', { key: 'unbound', json: body }),
        403,
        'token_project_unbound',
        'permission_error',
      ],
      [
        'arrears',
        h.api('POST', '/tasks', { key: 'arrears', json: body }),
        402,
        'arrears',
        'invalid_request_error',
      ],
      [
        'two selectors',
        h.api('POST', '/tasks', { json: { ...body, aiTool: 'remove-background' } }),
        400,
        'invalid_payload',
        'invalid_request_error',
      ],
      [
        'empty Idempotency-Key',
        h.api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': '' } }),
        400,
        'invalid_idempotency_key',
        'invalid_request_error',
      ],
      [
        'Idempotency-Key of 257 characters',
        h.api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': 'x'.repeat(257) } }),
        400,
        'invalid_idempotency_key',
        'invalid_request_error',
      ],
      [
        'unknown model',
        h.api('POST', '/tasks', { json: { ...body, interfaceId: 'no-such-model' } }),
        404,
        'unknown_model',
        'invalid_request_error',
      ],
      ['unknown task', h.api('GET', '/tasks/task_nope'), 404, 'unknown_task', 'invalid_request_error'],
      ['unknown upload', h.api('GET', '/uploads/upl_nope'), 404, 'unknown_upload', 'invalid_request_error'],
      ['invalid type', h.api('GET', '/templates?type=audio'), 400, 'invalid_type', 'invalid_request_error'],
      [
        'blocked prompt',
        h.api('POST', '/tasks', { json: { ...body, params: { prompt: 'x [blocked]' } } }),
        422,
        'moderation_blocked',
        'invalid_request_error',
      ],
      [
        'external imageUrl',
        h.api('POST', '/describe-image', { json: { imageUrl: 'https://example.com/a.png' } }),
        400,
        'invalid_payload',
        'invalid_request_error',
      ],
      [
        'off-list upload type',
        h.api('POST', '/uploads', { body: 'hello', headers: { 'Content-Type': 'text/plain' } }),
        400,
        'invalid_payload',
        'invalid_request_error',
      ],
    ];
    for (const [what, p, status, code, type] of checks) expectError(await p, status, code, type, what);
  });

  it('an off-list upload Content-Type lists the allowed values in the error', async () => {
    const r = await h.api('POST', '/uploads', { body: 'hello', headers: { 'Content-Type': 'text/plain' } });
    expectError(r, 400, 'invalid_payload', 'invalid_request_error');
    const text = JSON.stringify(r.body.error);
    for (const t of ['image/png', 'image/jpeg', 'audio/mpeg', 'video/mp4', 'video/quicktime'])
      expect(text).toContain(t);
  });

  it('an injected 5xx has the spec shape and type api_error', async () => {
    await h.control('POST', '/faults', { method: 'GET', path: '/v1/me', status: 503 });
    const r = await h.api('GET', '/me');
    expect(r.status).toBe(503);
    expectErrorShape(r, 'injected 503');
    expect(r.body.error.type).toBe('api_error');
  });
});

describe('rate limits (api-notes §8, per key, 60-second windows)', () => {
  for (const c of cases) {
    it(`${c.endpoint}: ${c.limit} per minute, then 429 rate_limited with Retry-After; per key; a new window after 60 s`, async () => {
      const ctxA = c.setup ? await c.setup('personal') : undefined;
      const ctxB = c.setup ? await c.setup('personal2') : undefined;
      for (let i = 0; i < c.limit; i++) {
        const r = await c.call('personal', ctxA, i);
        expect(
          c.ok,
          `${c.endpoint} call ${i + 1}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`,
        ).toContain(r.status);
      }
      expectRateLimited(await c.call('personal', ctxA, c.limit), `${c.endpoint} call ${c.limit + 1}`);
      expectRateLimited(await c.call('personal', ctxA, c.limit + 1), `${c.endpoint} call ${c.limit + 2}`);
      // Another key of the same user is not affected.
      const other = await c.call('personal2', ctxB, 0);
      expect(c.ok, `personal2: ${other.status} ${JSON.stringify(other.body).slice(0, 300)}`).toContain(
        other.status,
      );
      // A new window after 60 s.
      await advance(h, 60_000);
      const again = await c.call('personal', ctxA, 0);
      expect(c.ok, `after 60 s: ${again.status} ${JSON.stringify(again.body).slice(0, 300)}`).toContain(
        again.status,
      );
    });
  }

  it('GET /models has no fixed limit: 200 calls in a minute all succeed', async () => {
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const rs = await Promise.all(
        Array.from({ length: 20 }, () => h.api('GET', '/models?type=video&subtype=text-ref')),
      );
      statuses.push(...rs.map((r) => r.status));
    }
    expect(statuses).toHaveLength(200);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('Retry-After is the whole seconds left in a fixed window that opens at the first request', async () => {
    // The window opens somewhere in [t0, t1] (real time); the sandbox clock is real time plus what we advanced.
    const t0 = Date.now();
    expect((await h.api('GET', '/me')).status).toBe(200);
    const t1 = Date.now();
    for (let i = 1; i < 120; i++) expect((await h.api('GET', '/me')).status).toBe(200);
    let advanced = 0;
    const check = async (what: string) => {
      const sent = Date.now();
      const r = await h.api('GET', '/me');
      const got = Date.now();
      const retryAfter = expectRateLimited(r, what);
      // Seconds left: between (t0 + 60 s - got - advanced) and (t1 + 60 s - sent - advanced), rounded up.
      expect(retryAfter, what).toBeGreaterThanOrEqual(Math.ceil((t0 + 60_000 - got - advanced) / 1000));
      expect(retryAfter, what).toBeLessThanOrEqual(Math.ceil((t1 + 60_000 - sent - advanced) / 1000));
      return retryAfter;
    };
    expect(await check('at once')).toBeGreaterThanOrEqual(55);
    await advance(h, 20_000);
    advanced += 20_000;
    const later = await check('after 20 s');
    expect(later).toBeLessThanOrEqual(40);
    expect(later).toBeGreaterThanOrEqual(35);
    // To about 5 s before the window ends: still limited, a few seconds left (5 s of slack for a busy machine).
    const step = 55_000 - advanced - (Date.now() - t1);
    await advance(h, step);
    advanced += step;
    const last = await check('near the end');
    expect(last).toBeGreaterThanOrEqual(1);
    expect(last).toBeLessThanOrEqual(6);
    // Retry-After is whole seconds rounded up: the window is over once that much has passed.
    await advance(h, last * 1000);
    expect((await h.api('GET', '/me')).status).toBe(200);
  });

  it('templates have their own bucket, separate from ai-tools, and both are separate from /me', async () => {
    const tool = (await h.api('GET', '/ai-tools')).body.aiTools[0].slug;
    for (let i = 1; i < 120; i++) {
      const r = await h.api('GET', i % 2 ? `/ai-tools/${tool}` : '/ai-tools');
      expect(r.status).toBe(200);
    }
    expectRateLimited(await h.api('GET', '/ai-tools'), 'GET /ai-tools');
    expectRateLimited(await h.api('GET', `/ai-tools/${tool}`), 'GET /ai-tools/{slug}');
    const templates = await h.api('GET', '/templates');
    expect(templates.status).toBe(200);
    const slug = templates.body.templates[0].slug;
    expect((await h.api('GET', `/templates/${slug}`)).status).toBe(200);
    expect((await h.api('GET', '/me')).status).toBe(200);
    for (let i = 2; i < 120; i++) expect((await h.api('GET', '/templates')).status).toBe(200);
    expectRateLimited(await h.api('GET', `/templates/${slug}`), 'GET /templates/{slug}');
    expect((await h.api('GET', '/models?type=image&subtype=default')).status).toBe(200);
  });

  it('a 429 still carries CORS headers so a browser can read Retry-After', async () => {
    for (let i = 0; i < 120; i++) await h.api('GET', '/me');
    const r = await fetch(`${h.base}/me`, {
      headers: { Authorization: `Bearer ${h.keys.personal}`, Origin: ORIGIN },
    });
    expect(r.status).toBe(429);
    await r.json();
    expect(r.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect((r.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('retry-after');
  });
});

describe('CORS (README)', () => {
  it('a preflight for POST /tasks with Authorization, Content-Type and Idempotency-Key is allowed', async () => {
    const r = await fetch(`${h.base}/tasks`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
      },
    });
    await r.arrayBuffer();
    expect([200, 204]).toContain(r.status);
    expect(r.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const methods = (r.headers.get('access-control-allow-methods') ?? '').toUpperCase().split(/\s*,\s*/);
    expect(methods).toContain('POST');
    const allowed = (r.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'content-type', 'idempotency-key'])
      expect(allowed).toContain(header);
    // A preflight is not a request: it needs no key and creates nothing.
    const log = await h.control('GET', '/requests');
    expect(log.body.filter((e: any) => e.method === 'OPTIONS')).toEqual([]);
  });

  it('preflights for GET /me and POST /uploads are allowed too', async () => {
    for (const [path, method, headers] of [
      ['/me', 'GET', 'authorization'],
      ['/uploads', 'POST', 'authorization,content-type'],
      ['/tasks/task_x', 'GET', 'authorization'],
    ]) {
      const r = await fetch(`${h.base}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: ORIGIN,
          'Access-Control-Request-Method': method!,
          'Access-Control-Request-Headers': headers!,
        },
      });
      await r.arrayBuffer();
      expect([200, 204], path).toContain(r.status);
      expect(r.headers.get('access-control-allow-origin'), path).toBe(ORIGIN);
      expect((r.headers.get('access-control-allow-methods') ?? '').toUpperCase(), path).toContain(method);
    }
  });

  it("API responses, errors included, allow the studio's origin and expose Retry-After", async () => {
    for (const [path, key] of [
      ['/me', h.keys.personal],
      ['/me', undefined],
      ['/nope', h.keys.personal],
    ]) {
      const r = await fetch(`${h.base}${path}`, {
        headers: { Origin: ORIGIN, ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      });
      await r.arrayBuffer();
      expect(r.headers.get('access-control-allow-origin'), `${path} ${r.status}`).toBe(ORIGIN);
      const exposed = (r.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(exposed, `${path} ${r.status}`).toContain('retry-after');
    }
  });

  it('catalog media (a media 404 included) allows any origin; the control API does not (see origins.test.ts)', async () => {
    const r = await fetch(`${h.origin}/cdn/catalog/brands/does-not-exist.png`, {
      headers: { Origin: ELSEWHERE },
    });
    await r.arrayBuffer();
    expect(r.status).toBe(404);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const control = await fetch(`${h.origin}/__sandbox/keys`, { headers: { Origin: ELSEWHERE } });
    await control.arrayBuffer();
    expect(control.status).toBe(403);
    expect(control.headers.get('access-control-allow-origin')).toBeNull();
  });
});
