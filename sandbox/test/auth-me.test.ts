import { describe, expect, it } from 'vitest';
import { makeImage } from './fixtures';
import { DEMO_KEY_NAMES, expectError, useSandbox, type ApiResponse, type Harness } from './harness';

// api-notes §5 (authentication), api-notes §2 "Key (as returned by GET /me)", and the demo keys of sandbox/README.md.

const h = useSandbox();

const DAY = 86_400_000;
/** Keys that GET /me answers with 200. */
const WORKING_KEYS = DEMO_KEY_NAMES.filter((n) => !['expired', 'revoked', 'banned'].includes(n));

async function uploadPng(hh: Harness, key: string) {
  return hh.api('POST', '/uploads', {
    key,
    body: new Uint8Array(await makeImage({ width: 64, height: 48 })),
    headers: { 'Content-Type': 'image/png' },
  });
}

interface PricedTask {
  body: { interfaceId: string; versionId: string; params: Record<string, unknown> };
  price: number;
}

/** Raw-path image tasks that need only a prompt, priced by POST /quote, cheapest first. */
async function imageTasks(hh: Harness): Promise<PricedTask[]> {
  const list = await hh.api('GET', '/models?type=image&subtype=default');
  expect(list.status).toBe(200);
  const out: PricedTask[] = [];
  for (const m of list.body.models) {
    const otherRequired = m.params.filter((p: any) => p.required && p.id !== 'prompt');
    if (otherRequired.length) continue;
    for (const v of m.versions) {
      const body = {
        interfaceId: m.id,
        versionId: v.id,
        params: { prompt: 'a red bicycle leaning on a wall' },
      };
      const q = await hh.api('POST', '/quote', { json: body });
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      out.push({ body, price: q.body.credits });
    }
  }
  out.sort((a, b) => a.price - b.price);
  expect(out.length).toBeGreaterThan(0);
  return out;
}

async function sandboxNow(hh: Harness): Promise<number> {
  const r = await hh.control('GET', '/clock');
  return Date.parse(r.body.now);
}

function deepKeys(value: unknown, acc: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => deepKeys(v, acc));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      acc.push(k);
      deepKeys(v, acc);
    }
  }
  return acc;
}

/** One call to every endpoint of api-notes §4, with valid-looking input, for a given key. */
async function everyEndpoint(hh: Harness, key: string | null): Promise<Array<[string, ApiResponse]>> {
  const taskBody = {
    interfaceId: 'lumen-canvas',
    versionId: 'lumen-canvas-v2',
    params: { prompt: 'a lighthouse at dusk' },
  };
  const calls: Array<[string, () => Promise<ApiResponse>]> = [
    ['GET /me', () => hh.api('GET', '/me', { key })],
    ['GET /models', () => hh.api('GET', '/models?type=image&subtype=default', { key })],
    ['GET /ai-tools', () => hh.api('GET', '/ai-tools', { key })],
    ['GET /ai-tools/{slug}', () => hh.api('GET', '/ai-tools/remove-background', { key })],
    ['GET /templates', () => hh.api('GET', '/templates', { key })],
    ['GET /templates/{slug}', () => hh.api('GET', '/templates/neon-city-poster', { key })],
    ['POST /quote', () => hh.api('POST', '/quote', { key, json: taskBody })],
    ['POST /tasks', () => hh.api('POST', '/tasks', { key, json: taskBody })],
    ['GET /tasks/{id}', () => hh.api('GET', '/tasks/task_doesnotexist', { key })],
    [
      'POST /uploads',
      async () =>
        hh.api('POST', '/uploads', {
          key,
          body: new Uint8Array(await makeImage({ width: 64, height: 48 })),
          headers: { 'Content-Type': 'image/png' },
        }),
    ],
    ['GET /uploads/{id}', () => hh.api('GET', '/uploads/upl_doesnotexist', { key })],
    [
      'POST /describe-image',
      () =>
        hh.api('POST', '/describe-image', { key, json: { imageUrl: `${hh.origin}/cdn/uploads/none.png` } }),
    ],
  ];
  const out: Array<[string, ApiResponse]> = [];
  for (const [name, call] of calls) out.push([name, await call()]);
  return out;
}

describe('authentication (api-notes §5)', () => {
  it('a request without Authorization gets 401 missing_token on every endpoint', async () => {
    for (const [name, r] of await everyEndpoint(h, null)) {
      expect(r.status, name).toBe(401);
      expectError(r, 401, 'missing_token', 'authentication_error');
    }
  });

  it('malformed key values get 401 invalid_token', async () => {
    const malformed = [
      'not-a-key',
      'gm_live_short',
      `gm_live_${'a'.repeat(33)}`,
      `gm_test_${'a'.repeat(32)}`,
      `gm_${'a'.repeat(32)}`,
      'gm_live_' + '!'.repeat(32),
      h.keys.personal!.slice(0, -1), // truncated real key
      h.keys.personal!.toUpperCase(),
    ];
    for (const value of malformed) {
      const r = await h.api('GET', '/me', { key: value });
      expectError(r, 401, 'invalid_token', 'authentication_error');
      expect(JSON.stringify(r.body)).not.toContain(value);
    }
  });

  it('a well-formed but unknown key gets 401 invalid_token everywhere, and the key is not echoed', async () => {
    const personal = h.keys.personal!;
    const last = personal.at(-1) === 'A' ? 'B' : 'A';
    const unknown = personal.slice(0, -1) + last;
    expect(unknown).toMatch(/^gm_live_\S{32}$/);
    for (const [name, r] of await everyEndpoint(h, unknown)) {
      expect(r.status, name).toBe(401);
      expectError(r, 401, 'invalid_token', 'authentication_error');
      expect(JSON.stringify(r.body), name).not.toContain(unknown);
    }
  });

  it('a header that is not a Bearer credential is refused with 401', async () => {
    for (const header of [`Basic ${h.keys.personal}`, `Token ${h.keys.personal}`, 'Bearer', 'Bearer    ']) {
      const r = await h.api('GET', '/me', { key: null, headers: { Authorization: header } });
      expect(r.status, header).toBe(401);
      expect(['missing_token', 'invalid_token']).toContain(r.body.error.code);
      expect(r.body.error.type).toBe('authentication_error');
    }
  });

  it('every demo key has the spec form: prefix gm_, then live_, then 32 characters, all distinct', async () => {
    const values = DEMO_KEY_NAMES.map((n) => h.keys[n]);
    for (const [i, v] of values.entries()) {
      expect(v, DEMO_KEY_NAMES[i]).toBeDefined();
      expect(v, DEMO_KEY_NAMES[i]).toMatch(/^gm_live_[^\s]{32}$/);
    }
    expect(new Set(values).size).toBe(values.length);
  });

  it('demo keys are stable across a reset', async () => {
    await h.control('POST', '/reset');
    const r = await h.control('GET', '/keys');
    const after = Object.fromEntries(r.body.map((k: any) => [k.name, k.key]));
    for (const n of DEMO_KEY_NAMES) expect(after[n], n).toBe(h.keys[n]);
  });

  it('expired and revoked keys get 401 invalid_token on every endpoint', async () => {
    for (const name of ['expired', 'revoked']) {
      for (const [endpoint, r] of await everyEndpoint(h, name)) {
        expect(r.status, `${name} ${endpoint}`).toBe(401);
        expectError(r, 401, 'invalid_token', 'authentication_error');
      }
    }
  });

  it('a banned owner gets 403 account_banned on every endpoint, GET /me included', async () => {
    for (const [endpoint, r] of await everyEndpoint(h, 'banned')) {
      expect(r.status, endpoint).toBe(403);
      expectError(r, 403, 'account_banned', 'permission_error');
    }
  });
});

describe('GET /me (api-notes §2 "Key")', () => {
  it('returns exactly the spec fields for a personal key', async () => {
    const r = await h.api('GET', '/me');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const b = r.body;
    expect(Object.keys(b).sort()).toEqual(['key', 'limits', 'project', 'user']);
    expect(Object.keys(b.key).sort()).toEqual(
      [
        'createdAt',
        'creditsRemainingToday',
        'creditsSpentToday',
        'dailyCreditCap',
        'expiresAt',
        'id',
        'label',
        'prefix',
      ].sort(),
    );
    expect(typeof b.key.id).toBe('string');
    expect(b.key.id.length).toBeGreaterThan(0);
    expect(typeof b.key.label).toBe('string');
    expect(typeof b.key.prefix).toBe('string');
    expect(b.key.prefix.length).toBeGreaterThan(0);
    expect(b.key.prefix.length).toBeLessThan(h.keys.personal!.length);
    expect(h.keys.personal!.startsWith(b.key.prefix)).toBe(true);
    expect(new Date(b.key.createdAt).toISOString()).toBe(b.key.createdAt);
    expect(Date.parse(b.key.createdAt)).toBeLessThanOrEqual(await sandboxNow(h));
    expect(b.key.expiresAt).toBeNull();
    expect(b.key.dailyCreditCap).toBeNull();
    expect(b.key.creditsSpentToday).toBe(0);
    expect(b.key.creditsRemainingToday).toBeNull();

    expect(Object.keys(b.user)).toEqual(['creditBalance']);
    expect(b.user.creditBalance).toBe(5000);
    expect(typeof b.project.id).toBe('string');
    expect(typeof b.project.name).toBe('string');
    if ('bound' in b.project) expect(b.project.bound).toBe(true);
    for (const k of Object.keys(b.project)) expect(['id', 'name', 'bound']).toContain(k);

    expect(Object.keys(b.limits).sort()).toEqual(['tasksPerMin', 'uploadPollPerMin', 'uploadsPerMin']);
    // api-notes §8: POST /tasks 60, POST /uploads 30, GET /uploads/{id} 120.
    expect(b.limits).toEqual({ tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 120 });
  });

  it('never shows a full key, a user id, an e-mail or a name, for any key', async () => {
    const allKeys = DEMO_KEY_NAMES.map((n) => h.keys[n]!);
    const forbidden = [
      'email',
      'e-mail',
      'userId',
      'user_id',
      'userName',
      'username',
      'ownerId',
      'owner',
      'firstName',
    ];
    for (const name of WORKING_KEYS) {
      const r = await h.api('GET', '/me', { key: name });
      expect(r.status, name).toBe(200);
      const text = JSON.stringify(r.body);
      for (const k of allKeys) {
        expect(text, `${name} shows a full key`).not.toContain(k);
        expect(text, `${name} shows a key's secret part`).not.toContain(k.slice(-32));
      }
      const keys = deepKeys(r.body);
      for (const f of forbidden) expect(keys, `${name} has ${f}`).not.toContain(f);
      expect(text).not.toMatch(/@[a-z0-9-]+\.[a-z]/i); // no e-mail address
      if (r.body.user) {
        expect(Object.keys(r.body.user), name).toEqual(['creditBalance']);
        expect(r.body.team, name).toBeUndefined();
      } else {
        expect(r.body.team, `${name}: exactly one of user and team`).toBeDefined();
      }
    }
  });

  it('does not list the other keys of the same user', async () => {
    const me = await h.api('GET', '/me', { key: 'personal' });
    const other = await h.api('GET', '/me', { key: 'personal2' });
    expect(me.status).toBe(200);
    expect(other.status).toBe(200);
    expect(me.body.key.id).not.toBe(other.body.key.id);
    expect(me.body.key.prefix).not.toBe(other.body.key.prefix);
    const text = JSON.stringify(me.body);
    expect(text).not.toContain(other.body.key.id);
    expect(text).not.toContain(other.body.key.prefix);
    expect(text).not.toContain(other.body.key.label);
  });

  it('team keys show team {id, creditBalance} and no user; team and team2 share one balance', async () => {
    const [t1, t2] = [
      await h.api('GET', '/me', { key: 'team' }),
      await h.api('GET', '/me', { key: 'team2' }),
    ];
    for (const r of [t1, t2]) {
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['key', 'limits', 'project', 'team']);
      expect(r.body.user).toBeUndefined();
      expect(Object.keys(r.body.team).sort()).toEqual(['creditBalance', 'id']);
      expect(typeof r.body.team.id).toBe('string');
      expect(r.body.team.creditBalance).toBe(20000);
    }
    expect(t1.body.team.id).toBe(t2.body.team.id);
    expect(t1.body.key.id).not.toBe(t2.body.key.id);

    const [cheap] = await imageTasks(h);
    const sub = await h.api('POST', '/tasks', { key: 'team', json: cheap!.body });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const after2 = await h.api('GET', '/me', { key: 'team2' });
    expect(after2.body.team.creditBalance).toBe(20000 - cheap!.price);
    const after1 = await h.api('GET', '/me', { key: 'team' });
    expect(after1.body.team.creditBalance).toBe(20000 - cheap!.price);
    // Spent today is per key.
    expect(after1.body.key.creditsSpentToday).toBe(cheap!.price);
    expect(after2.body.key.creditsSpentToday).toBe(0);
    // The personal balance is untouched.
    expect((await h.api('GET', '/me', { key: 'personal' })).body.user.creditBalance).toBe(5000);
  });

  it("personal and personal2 share the user balance but not today's spend or tasks", async () => {
    const [cheap] = await imageTasks(h);
    const sub = await h.api('POST', '/tasks', { key: 'personal', json: cheap!.body });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const p2 = await h.api('GET', '/me', { key: 'personal2' });
    expect(p2.status).toBe(200);
    expect(p2.body.user.creditBalance).toBe(5000 - cheap!.price);
    expect(p2.body.key.creditsSpentToday).toBe(0);
    const p1 = await h.api('GET', '/me', { key: 'personal' });
    expect(p1.body.key.creditsSpentToday).toBe(cheap!.price);
    // api-notes §5 item 9: keys see only their own tasks.
    const other = await h.api('GET', `/tasks/${sub.body.taskId}`, { key: 'personal2' });
    expectError(other, 404, 'unknown_task', 'invalid_request_error');
    expect((await h.api('GET', `/tasks/${sub.body.taskId}`, { key: 'personal' })).status).toBe(200);
  });

  describe('with runs of a minute', () => {
    // A sandbox of its own whose tasks run a minute: the submissions, however slow on a busy machine,
    // all land well inside the first run, so the pool is observed whatever real time passes.
    const s = useSandbox({ taskMs: 60_000 });
    it('concurrency: personal and personal2 share 3 running slots, the team pool has 5, other users are separate', async () => {
      const [cheap] = await imageTasks(s);
      const submitAll = (keys: string[]) =>
        Promise.all(
          keys.map(async (key) => {
            const r = await s.api('POST', '/tasks', { key, json: cheap!.body });
            expect(r.status, JSON.stringify(r.body)).toBe(200);
            return { key, id: r.body.taskId as string };
          }),
        );
      const userTasks = await submitAll(['personal', 'personal', 'personal2', 'personal2']);
      const otherUser = await submitAll(['capped']);
      const teamTasks = await submitAll(['team', 'team2', 'team', 'team2', 'team', 'team2']);

      // Let everything finish on the sandbox clock, then see how long each took from submit to completion.
      await s.control('POST', '/clock', { advanceMs: 300_000 });
      const timing = (tasks: Array<{ key: string; id: string }>) =>
        Promise.all(
          tasks.map(async ({ key, id }) => {
            const r = await s.api('GET', `/tasks/${id}`, { key });
            expect(r.body.status).toBe('succeeded');
            const created = Date.parse(r.body.createdAt);
            return { created, took: Date.parse(r.body.completedAt) - created };
          }),
        );
      const user = await timing(userTasks);
      const team = await timing(teamTasks);
      const [other] = await timing(otherUser);
      // A task that gets a slot at once always takes the same time; one that waited for a slot takes longer.
      const base = Math.min(...user.map((t) => t.took), ...team.map((t) => t.took), other!.took);
      const waited = (xs: Array<{ took: number }>) => xs.filter((t) => t.took > base + 20).length;
      const spread = (xs: Array<{ created: number }>) =>
        Math.max(...xs.map((t) => t.created)) - Math.min(...xs.map((t) => t.created));
      expect(spread(user), 'submissions too slow to observe the pool').toBeLessThan(10_000);
      expect(spread(team), 'submissions too slow to observe the pool').toBeLessThan(10_000);

      expect(waited(user), 'the user runs 3 at once across personal and personal2').toBe(1);
      expect(waited(team), 'the team pool runs 5 at once across team and team2').toBe(1);
      expect(other!.took, 'another user has its own slots').toBeLessThanOrEqual(base + 20);
      // FIFO: the one that waited is the last submitted.
      for (const pool of [user, team]) {
        const last = pool.reduce((a, b) => (b.created > a.created ? b : a));
        expect(last.took).toBeGreaterThan(base + 20);
      }
    });
  });

  it('unbound: GET /me shows project {id:null, name:null, bound:false}; landing calls get 403 token_project_unbound', async () => {
    const me = await h.api('GET', '/me', { key: 'unbound' });
    expect(me.status).toBe(200);
    expect(me.body.project).toEqual({ id: null, name: null, bound: false });
    expect(me.body.user).toBeDefined();

    // Non-landing calls work.
    expect((await h.api('GET', '/models?type=image&subtype=default', { key: 'unbound' })).status).toBe(200);
    const [cheap] = await imageTasks(h);
    expect((await h.api('POST', '/quote', { key: 'unbound', json: cheap!.body })).status).toBe(200);

    const before = me.body.user.creditBalance;
    const task = await h.api('POST', '/tasks', { key: 'unbound', json: cheap!.body });
    expectError(task, 403, 'token_project_unbound', 'permission_error');
    const up = await uploadPng(h, 'unbound');
    expectError(up, 403, 'token_project_unbound', 'permission_error');
    // describe-image with a genuinely hosted image (uploaded by a bound key): refused for the project alone.
    const hosted = await uploadPng(h, 'personal');
    expect(hosted.status).toBe(200);
    const desc = await h.api('POST', '/describe-image', {
      key: 'unbound',
      json: { imageUrl: hosted.body.url },
    });
    expectError(desc, 403, 'token_project_unbound', 'permission_error');
    // Nothing was charged.
    const after = await h.api('GET', '/me', { key: 'unbound' });
    expect(after.body.user.creditBalance).toBe(before);
    expect(after.body.key.creditsSpentToday).toBe(0);
  });

  it('broke: balance 0, and a task submit gets 402 insufficient_credits with balance and credits', async () => {
    const me = await h.api('GET', '/me', { key: 'broke' });
    expect(me.status).toBe(200);
    expect(me.body.user.creditBalance).toBe(0);
    const [cheap] = await imageTasks(h);
    const r = await h.api('POST', '/tasks', { key: 'broke', json: cheap!.body });
    expectError(r, 402, 'insufficient_credits', 'invalid_request_error');
    expect(r.body.error.balance).toBe(0);
    expect(r.body.error.credits).toBe(cheap!.price);
    expect((await h.api('GET', '/me', { key: 'broke' })).body.user.creditBalance).toBe(0);
  });

  it('arrears: GET /me, /models and /quote work; charging calls get 402 arrears', async () => {
    const me = await h.api('GET', '/me', { key: 'arrears' });
    expect(me.status).toBe(200);
    expect(me.body.user).toBeDefined();
    expect((await h.api('GET', '/models?type=image&subtype=default', { key: 'arrears' })).status).toBe(200);
    const [cheap] = await imageTasks(h);
    expect((await h.api('POST', '/quote', { key: 'arrears', json: cheap!.body })).status).toBe(200);
    const task = await h.api('POST', '/tasks', { key: 'arrears', json: cheap!.body });
    expectError(task, 402, 'arrears', 'invalid_request_error');

    const up = await uploadPng(h, 'arrears');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const desc = await h.api('POST', '/describe-image', { key: 'arrears', json: { imageUrl: up.body.url } });
    expectError(desc, 402, 'arrears', 'invalid_request_error');
    const after = await h.api('GET', '/me', { key: 'arrears' });
    expect(after.body.user.creditBalance).toBe(me.body.user.creditBalance);
  });

  it('capped: a 50-credit daily cap, 402 token_daily_cap_exceeded past it, 429 token_daily_cap_reached at it, reset at UTC midnight', async () => {
    const me = await h.api('GET', '/me', { key: 'capped' });
    expect(me.status).toBe(200);
    expect(me.body.key.dailyCreditCap).toBe(50);
    expect(me.body.key.creditsSpentToday).toBe(0);
    expect(me.body.key.creditsRemainingToday).toBe(50);
    expect(me.body.user).toBeDefined();
    // Another user: not the personal balance.
    const personal = await h.api('GET', '/me', { key: 'personal' });
    expect(me.body.key.id).not.toBe(personal.body.key.id);

    // Stay clear of UTC midnight while spending.
    const now = await sandboxNow(h);
    if (DAY - (now % DAY) < 120_000)
      await h.control('POST', '/clock', { advanceMs: DAY - (now % DAY) + 1000 });

    const tasks = await imageTasks(h);
    const cheap = tasks[0]!;
    const pricier = tasks.find((t) => t.price > cheap.price);
    expect(pricier, 'need two image tasks of different price').toBeDefined();
    expect(pricier!.price).toBeLessThanOrEqual(50);

    let remaining = 50;
    const submit = (t: PricedTask) => h.api('POST', '/tasks', { key: 'capped', json: t.body });
    while (remaining >= pricier!.price) {
      const r = await submit(cheap);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      remaining -= cheap.price;
    }
    if (remaining > 0) {
      const r = await submit(pricier!);
      expectError(r, 402, 'token_daily_cap_exceeded', 'invalid_request_error');
      expect(r.body.error.cap).toBe(50);
      expect(r.body.error.spent).toBe(50 - remaining);
    }
    while (remaining >= cheap.price) {
      const r = await submit(cheap);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      remaining -= cheap.price;
    }
    const mid = await h.api('GET', '/me', { key: 'capped' });
    expect(mid.body.key.creditsSpentToday).toBe(50 - remaining);
    expect(mid.body.key.creditsRemainingToday).toBe(remaining);
    expect(mid.body.user.creditBalance).toBe(me.body.user.creditBalance - (50 - remaining));

    const last = await submit(cheap);
    if (remaining === 0) {
      expectError(last, 429, 'token_daily_cap_reached', 'rate_limit_error');
      const retryAfter = last.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(86_400);
    } else {
      expectError(last, 402, 'token_daily_cap_exceeded', 'invalid_request_error');
    }

    // UTC midnight resets the day's spend.
    const t = await sandboxNow(h);
    await h.control('POST', '/clock', { advanceMs: DAY - (t % DAY) + 1000 });
    const next = await h.api('GET', '/me', { key: 'capped' });
    expect(next.body.key.creditsSpentToday).toBe(0);
    expect(next.body.key.creditsRemainingToday).toBe(50);
    expect((await submit(cheap)).status).toBe(200);
  });

  it('expiring: expiresAt is about 3 days ahead; the key works after 2 days and is 401 invalid_token after 4', async () => {
    const me = await h.api('GET', '/me', { key: 'expiring' });
    expect(me.status).toBe(200);
    expect(typeof me.body.key.expiresAt).toBe('string');
    expect(new Date(me.body.key.expiresAt).toISOString()).toBe(me.body.key.expiresAt);
    const now = await sandboxNow(h);
    const left = Date.parse(me.body.key.expiresAt) - now;
    expect(left).toBeGreaterThan(2 * DAY);
    expect(left).toBeLessThanOrEqual(3 * DAY + 60_000);

    await h.control('POST', '/clock', { advanceMs: 2 * DAY });
    expect((await h.api('GET', '/me', { key: 'expiring' })).status).toBe(200);

    await h.control('POST', '/clock', { advanceMs: 2 * DAY });
    expectError(await h.api('GET', '/me', { key: 'expiring' }), 401, 'invalid_token', 'authentication_error');
    expectError(
      await h.api('GET', '/models?type=image&subtype=default', { key: 'expiring' }),
      401,
      'invalid_token',
      'authentication_error',
    );
    // Keys without an expiry still work.
    expect((await h.api('GET', '/me', { key: 'personal' })).status).toBe(200);
  });

  it('the expired key reports nothing about itself', async () => {
    const r = await h.api('GET', '/me', { key: 'expired' });
    expectError(r, 401, 'invalid_token', 'authentication_error');
    expect(r.body.key).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain(h.keys.expired!);
  });
});
