import { describe, expect, it } from 'vitest';
import { balance } from './fixtures';
import {
  DEMO_KEY_NAMES,
  expectError,
  promptOnlyTask,
  sleep,
  useSandbox,
  waitForTask,
  type ApiResponse,
  type Harness,
} from './harness';

// The sandbox-only control API under /__sandbox/ (product-notes §4 and the README's control table):
// keys, reset, faults, clock, request log, outage.

const h = useSandbox();

const PRODUCT_KEY_NAMES = [
  'personal',
  'team',
  'capped',
  'broke',
  'arrears',
  'expired',
  'revoked',
  'banned',
  'unbound',
];

const expectErrorShape = (r: ApiResponse, status: number, type: string) =>
  expectError(r, status, undefined, type);

/** A raw-path image task needing only a prompt, and its price from POST /quote. */
async function pricedTask(hh: Harness, prompt = 'a teapot on a windowsill') {
  const body = await promptOnlyTask(hh, prompt, 'team2');
  const q = await hh.api('POST', '/quote', { key: 'team2', json: body });
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  expect(q.body.credits).toBeGreaterThan(0);
  return { body, price: q.body.credits as number };
}

async function addFault(hh: Harness, fault: Record<string, unknown>): Promise<string> {
  const r = await hh.control('POST', '/faults', fault);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(typeof r.body.id).toBe('string');
  return r.body.id;
}

function connectionError(err: unknown): string {
  const e = err as { cause?: { code?: string; cause?: { code?: string } }; code?: string };
  return e?.cause?.code ?? e?.cause?.cause?.code ?? e?.code ?? String(err);
}

describe('GET /__sandbox/keys', () => {
  it('lists the demo keys as [{name, key, label, kind, description}] with every documented name', async () => {
    const r = await fetch(`${h.origin}/__sandbox/keys`); // no Authorization needed
    expect(r.status).toBe(200);
    const list = (await r.json()) as any[];
    expect(Array.isArray(list)).toBe(true);
    const names = list.map((k) => k.name);
    for (const n of PRODUCT_KEY_NAMES) expect(names, n).toContain(n);
    for (const n of DEMO_KEY_NAMES) expect(names, n).toContain(n);
    expect(new Set(names).size).toBe(names.length);
    for (const k of list) {
      expect(typeof k.name).toBe('string');
      expect(k.key, k.name).toMatch(/^gm_live_\S{32}$/);
      expect(typeof k.label, k.name).toBe('string');
      expect(typeof k.description, k.name).toBe('string');
      expect(['personal', 'team'], k.name).toContain(k.kind);
    }
    const kind = Object.fromEntries(list.map((k) => [k.name, k.kind]));
    expect(kind.team).toBe('team');
    expect(kind.team2).toBe('team');
    expect(kind.personal).toBe('personal');
    expect(kind.capped).toBe('personal');
    // The listed keys are the ones the API accepts.
    expect((await h.api('GET', '/me', { key: list.find((k) => k.name === 'personal').key })).status).toBe(
      200,
    );
  });
});

describe('POST /__sandbox/reset', () => {
  it('restores balances and forgets tasks, idempotency keys, faults, clock offset, rate windows and the log', async () => {
    const { body, price } = await pricedTask(h);
    const task = await h.api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': 'reset-test' } });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    expect(await balance(h)).toBe(5000 - price);
    const teamTask = await h.api('POST', '/tasks', { key: 'team', json: body });
    expect(teamTask.status).toBe(200);
    await addFault(h, { path: '/v1/nothing-matches-this', status: 500 });
    await h.control('POST', '/clock', { advanceMs: 5 * 3_600_000 });
    for (let i = 0; i < 120; i++) await h.api('GET', '/me', { key: 'personal2' });
    expect((await h.api('GET', '/me', { key: 'personal2' })).status).toBe(429);

    const reset = await h.control('POST', '/reset');
    expect(reset.status).toBe(200);

    const log = await h.control('GET', '/requests');
    expect(log.body).toEqual([]);
    expect((await h.control('GET', '/faults')).body).toEqual([]);
    const clock = await h.control('GET', '/clock');
    expect(Math.abs(Date.parse(clock.body.now) - Date.now())).toBeLessThan(10_000);

    expect(await balance(h)).toBe(5000);
    expect(await balance(h, 'team')).toBe(20000);
    expect((await h.api('GET', '/me')).body.key.creditsSpentToday).toBe(0);
    const gone = await h.api('GET', `/tasks/${task.body.taskId}`);
    expectErrorShape(gone, 404, 'invalid_request_error');
    expect(gone.body.error.code).toBe('unknown_task');
    expect((await h.api('GET', `/tasks/${teamTask.body.taskId}`, { key: 'team' })).body.error.code).toBe(
      'unknown_task',
    );
    // The Idempotency-Key is forgotten: the same key makes a new task.
    const again = await h.api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': 'reset-test' } });
    expect(again.status).toBe(200);
    expect(again.body.idempotent).toBeUndefined();
    expect(again.body.taskId).not.toBe(task.body.taskId);
    // The rate window is new.
    expect((await h.api('GET', '/me', { key: 'personal2' })).status).toBe(200);
  });
});

describe('POST /__sandbox/faults', () => {
  it('{status: 503, count: 2} on POST /tasks gives two 503s then success, charging once', async () => {
    const { body, price } = await pricedTask(h);
    await addFault(h, { method: 'POST', path: '/v1/tasks', status: 503, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await h.api('POST', '/tasks', { json: body });
      expectErrorShape(r, 503, 'api_error');
    }
    expect(await balance(h)).toBe(5000);
    const ok = await h.api('POST', '/tasks', { json: body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status).toBe('queued');
    expect(await balance(h)).toBe(5000 - price);
    expect((await h.control('GET', '/faults')).body).toEqual([]);
  });

  it('{status: 429, retryAfter: 7} answers 429 with Retry-After: 7 and creates nothing', async () => {
    const { body } = await pricedTask(h);
    await addFault(h, { path: '/v1/tasks', status: 429, retryAfter: 7 });
    const r = await h.api('POST', '/tasks', { json: body });
    expectErrorShape(r, 429, 'rate_limit_error');
    expect(r.headers.get('retry-after')).toBe('7');
    expect(await balance(h)).toBe(5000);
    // count defaults to 1.
    expect((await h.api('POST', '/tasks', { json: body })).status).toBe(200);
  });

  it('{status, body} answers with the given body', async () => {
    const custom = { error: { message: 'custom', type: 'api_error', code: 'upstream_down' } };
    await addFault(h, { path: '/v1/me', status: 502, body: custom });
    const r = await h.api('GET', '/me');
    expect(r.status).toBe(502);
    expect(r.body).toEqual(custom);
  });

  it('{delayMs: 300} delays the answer, which is otherwise normal', async () => {
    await addFault(h, { path: '/v1/me', delayMs: 300 });
    const t0 = performance.now();
    const r = await h.api('GET', '/me');
    const slow = performance.now() - t0;
    expect(r.status).toBe(200);
    expect(r.body.user.creditBalance).toBe(5000);
    expect(slow).toBeGreaterThanOrEqual(290); // a delay is never shorter; no upper bound (a busy machine)
    // Used up: the next call is not delayed by it.
    expect((await h.control('GET', '/faults')).body).toEqual([]);
    expect((await h.api('GET', '/me')).status).toBe(200);
  });

  it("{drop: 'before'} makes fetch reject and nothing happens: no task, no charge", async () => {
    const { body } = await pricedTask(h);
    await addFault(h, { method: 'POST', path: '/v1/tasks', drop: 'before' });
    const err = await h
      .api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': 'drop-before' } })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err, 'fetch must reject').toBeInstanceOf(Error);
    expect(await balance(h)).toBe(5000);
    expect((await h.api('GET', '/me')).body.key.creditsSpentToday).toBe(0);
    // The retry with the same key is a first attempt: a new task, not an idempotent replay.
    const retry = await h.api('POST', '/tasks', {
      json: body,
      headers: { 'Idempotency-Key': 'drop-before' },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.idempotent).toBeUndefined();
  });

  it("{drop: 'after'} makes fetch reject but the task exists and was charged; the idempotent retry finds it", async () => {
    const { body, price } = await pricedTask(h);
    await addFault(h, { method: 'POST', path: '/v1/tasks', drop: 'after' });
    const err = await h
      .api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': 'drop-after' } })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err, 'fetch must reject').toBeInstanceOf(Error);
    expect(await balance(h)).toBe(5000 - price);

    const retry = await h.api('POST', '/tasks', { json: body, headers: { 'Idempotency-Key': 'drop-after' } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.idempotent).toBe(true);
    expect(typeof retry.body.taskId).toBe('string');
    const retry2 = await h.api('POST', '/tasks', {
      json: body,
      headers: { 'Idempotency-Key': 'drop-after' },
    });
    expect(retry2.body.idempotent).toBe(true);
    expect(retry2.body.taskId).toBe(retry.body.taskId);
    expect(await balance(h)).toBe(5000 - price);

    const done = await waitForTask(h, retry.body.taskId);
    expect(done.body.status).toBe('succeeded');
    expect(done.body.creditsCharged).toBe(price);
    expect(await balance(h)).toBe(5000 - price);
  });

  it('a refusal by the rules (402, the daily cap) waits while a repeat of a key that made a task gets its task; a 503 does not', async () => {
    const { body, price } = await pricedTask(h);
    const headers = { 'Idempotency-Key': 'made-once' };
    const made = await h.api('POST', '/tasks', { json: body, headers });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await addFault(h, { method: 'POST', path: '/v1/tasks', status: 402 });
    await addFault(h, {
      method: 'POST',
      path: '/v1/tasks',
      status: 429,
      body: { error: { type: 'rate_limit_error', code: 'token_daily_cap_reached', message: 'cap' } },
    });
    // api-v1 §4 rule 7 comes before any rule that refuses: the repeat is answered with its task.
    const repeat = await h.api('POST', '/tasks', { json: body, headers });
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
    expect(repeat.body).toMatchObject({ taskId: made.body.taskId, idempotent: true });
    expect((await h.control('GET', '/faults')).body).toHaveLength(2);
    // A new key meets both refusals, in order; nothing more is charged.
    const fresh = { 'Idempotency-Key': 'new-one' };
    expect((await h.api('POST', '/tasks', { json: body, headers: fresh })).status).toBe(402);
    expect((await h.api('POST', '/tasks', { json: body, headers: fresh })).status).toBe(429);
    expect(await balance(h)).toBe(5000 - price);
    // A 503 stands for the service failing before it reads the key: a repeat meets it too.
    await addFault(h, { method: 'POST', path: '/v1/tasks', status: 503 });
    expect((await h.api('POST', '/tasks', { json: body, headers })).status).toBe(503);
    expect((await h.control('GET', '/faults')).body).toEqual([]);
  });

  it('a path glob /v1/tasks/* hits only GET /tasks/{id}; an exact path only that path', async () => {
    const { body } = await pricedTask(h);
    await addFault(h, { path: '/v1/tasks/*', status: 500 });
    const created = await h.api('POST', '/tasks', { json: body });
    expect(created.status).toBe(200);
    expect((await h.api('GET', '/me')).status).toBe(200);
    expect((await h.api('GET', '/models?type=image&subtype=default')).status).toBe(200);
    const hit = await h.api('GET', `/tasks/${created.body.taskId}`);
    expectErrorShape(hit, 500, 'api_error');
    expect((await h.api('GET', `/tasks/${created.body.taskId}`)).status).toBe(200);

    await addFault(h, { path: '/v1/tasks', status: 500 });
    expect((await h.api('GET', `/tasks/${created.body.taskId}`)).status).toBe(200);
    expectErrorShape(await h.api('POST', '/tasks', { json: body }), 500, 'api_error');

    await addFault(h, { method: 'POST', path: '/v1/quote', status: 500 });
    expect((await h.api('GET', '/me')).status).toBe(200);
    expectErrorShape(await h.api('POST', '/quote', { json: body }), 500, 'api_error');
  });

  it('GET /__sandbox/faults lists pending faults; DELETE clears them', async () => {
    const a = await addFault(h, { path: '/v1/me', status: 500, count: 3 });
    const b = await addFault(h, { method: 'POST', path: '/v1/tasks', delayMs: 100 });
    expect(a).not.toBe(b);
    let list = (await h.control('GET', '/faults')).body as any[];
    expect(list.map((f) => f.id).sort()).toEqual([a, b].sort());
    const fa = list.find((f) => f.id === a);
    expect(fa.path).toBe('/v1/me');
    expect(fa.status).toBe(500);

    expect((await h.api('GET', '/me')).status).toBe(500);
    list = (await h.control('GET', '/faults')).body;
    const remaining = list.find((f) => f.id === a);
    expect(remaining, 'a fault with count 3 stays after one hit').toBeDefined();
    expect(remaining.remaining ?? remaining.count).toBe(2);

    const del = await h.control('DELETE', '/faults');
    expect(del.status).toBe(200);
    expect((await h.control('GET', '/faults')).body).toEqual([]);
    expect((await h.api('GET', '/me')).status).toBe(200);
  });

  it('control paths are never faulted; a fault without a path hits API paths', async () => {
    await addFault(h, { status: 500, count: 5 });
    expect((await h.control('GET', '/keys')).status).toBe(200);
    expect((await h.control('GET', '/clock')).status).toBe(200);
    const list = (await h.control('GET', '/faults')).body as any[];
    expect(list).toHaveLength(1);
    expect(list[0].remaining ?? list[0].count).toBe(5);
    expectErrorShape(await h.api('GET', '/me'), 500, 'api_error');
    expectErrorShape(await h.api('GET', '/templates'), 500, 'api_error');
  });

  it('refuses a malformed fault with 400', async () => {
    for (const bad of [{ drop: 'sideways' }, { status: 'x' }, { count: -1, status: 500 }]) {
      const r = await h.control('POST', '/faults', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await h.control('GET', '/faults')).body).toEqual([]);
  });
});

describe('GET /__sandbox/requests', () => {
  it('logs method, path and status, oldest first, and never a key', async () => {
    const { body } = await pricedTask(h);
    await h.control('POST', '/reset'); // start the log after the catalog look-ups above
    const bogus = `gm_live_${'Z'.repeat(32)}`;
    expect((await h.api('GET', '/me')).status).toBe(200);
    expect((await h.api('GET', '/me', { key: bogus })).status).toBe(401);
    expect((await h.api('GET', '/me', { key: null })).status).toBe(401);
    expect((await h.api('POST', '/tasks', { key: 'team', json: body })).status).toBe(200);
    expect((await h.api('GET', '/tasks/task_nope')).status).toBe(404);

    const r = await h.control('GET', '/requests');
    expect(r.status).toBe(200);
    const log = r.body as any[];
    expect(log).toHaveLength(5);
    const summary = log.map((e) => [e.method, e.path.replace(/^\/v1/, ''), e.status]);
    expect(summary).toEqual([
      ['GET', '/me', 200],
      ['GET', '/me', 401],
      ['GET', '/me', 401],
      ['POST', '/tasks', 200],
      ['GET', '/tasks/task_nope', 404],
    ]);
    expect(log[0].keyName).toBe('personal');
    expect(log[3].keyName).toBe('team');
    for (let i = 1; i < log.length; i++)
      expect(Date.parse(log[i].at)).toBeGreaterThanOrEqual(Date.parse(log[i - 1].at));
    const text = JSON.stringify(log);
    for (const k of [...Object.values(h.keys), bogus]) {
      expect(text).not.toContain(k);
      expect(text).not.toContain(k.slice(-32));
    }
  });
});

describe('GET /__sandbox/requests: the tasks POST /v1/tasks made', () => {
  it('shows each created task with its id and its prompt, cut at 200 characters, in the order they came', async () => {
    const first = await pricedTask(h, 'first in line');
    const long = await pricedTask(h, `second ${'x'.repeat(3_000)}`);
    await h.control('POST', '/reset');
    const a = await h.api('POST', '/tasks', { key: 'team2', json: first.body });
    const b = await h.api('POST', '/tasks', { key: 'team2', json: long.body });
    // A refused one made nothing: it carries no task.
    expect((await h.api('POST', '/tasks', { key: 'team2', json: { model: 'nope' } })).status).toBe(400);
    expect((await h.api('GET', `/tasks/${a.body.taskId}`, { key: 'team2' })).status).toBe(200);

    const log = (await h.control('GET', '/requests')).body as any[];
    expect(log.map((e) => e.created ?? null)).toEqual([
      { taskId: a.body.taskId, prompt: 'first in line' },
      { taskId: b.body.taskId, prompt: `second ${'x'.repeat(193)}` },
      null,
      null,
    ]);
  });
});

describe('POST /__sandbox/clock', () => {
  it('moves GET /__sandbox/clock forward and answers {now}', async () => {
    const before = Date.parse((await h.control('GET', '/clock')).body.now);
    expect(Math.abs(before - Date.now())).toBeLessThan(10_000);
    const moved = await h.control('POST', '/clock', { advanceMs: 3_600_000 });
    expect(moved.status).toBe(200);
    const now = Date.parse(moved.body.now);
    expect(new Date(now).toISOString()).toBe(moved.body.now);
    expect(now - before).toBeGreaterThanOrEqual(3_600_000);
    expect(now - before).toBeLessThan(3_600_000 + 10_000);
    const after = Date.parse((await h.control('GET', '/clock')).body.now);
    expect(after).toBeGreaterThanOrEqual(now);
    expect(after - before).toBeLessThan(3_600_000 + 10_000);
  });

  it('refuses a negative or missing advanceMs with 400', async () => {
    for (const bad of [{ advanceMs: -1 }, {}, { advanceMs: 'soon' }]) {
      expect((await h.control('POST', '/clock', bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('POST /__sandbox/clock drives task progress', () => {
  // Tasks take ten minutes of real time in this sandbox: only the clock can finish one during the test.
  const slow = useSandbox({ taskMs: 600_000 });

  it('a task still queued or running is terminal once the clock passes its end', async () => {
    const { body } = await pricedTask(slow);
    const t = await slow.api('POST', '/tasks', { json: body });
    expect(t.status).toBe(200);
    const first = await slow.api('GET', `/tasks/${t.body.taskId}`);
    expect(['queued', 'running']).toContain(first.body.status);
    expect(first.body.completedAt).toBeNull();
    await slow.control('POST', '/clock', { advanceMs: 5 * 60_000 });
    const half = await slow.api('GET', `/tasks/${t.body.taskId}`);
    expect(half.body.status).toBe('running');
    await slow.control('POST', '/clock', { advanceMs: 11 * 60_000 });
    const r = await slow.api('GET', `/tasks/${t.body.taskId}`);
    expect(r.body.status).toBe('succeeded');
    expect(r.body.completedAt).not.toBeNull();
    expect(r.body.outputs).toHaveLength(1);
  });
});

describe('POST /__sandbox/outage', () => {
  it('refuses a bad durationMs with 400', async () => {
    for (const bad of [{ durationMs: 0 }, {}, { durationMs: 'long' }]) {
      expect((await h.control('POST', '/outage', bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('refuses connections for the duration, then answers again with its state', async () => {
    const { body, price } = await pricedTask(h);
    const t = await h.api('POST', '/tasks', { json: body });
    expect(t.status).toBe(200);
    await waitForTask(h, t.body.taskId);

    const started = Date.now();
    const r = await h.control('POST', '/outage', { durationMs: 1500 });
    expect(r.status).toBe(200);
    await sleep(300);

    const err = await fetch(`${h.base}/me`, { headers: { Authorization: `Bearer ${h.keys.personal}` } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'fetch must reject during the outage').toBeInstanceOf(Error);
    expect(connectionError(err)).toBe('ECONNREFUSED');
    const ctl = await fetch(`${h.origin}/__sandbox/keys`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(ctl, 'the whole origin is down').toBeInstanceOf(Error);

    let back: Response | null = null;
    while (Date.now() - started < 45_000) {
      back = await fetch(`${h.base}/me`, { headers: { Authorization: `Bearer ${h.keys.personal}` } }).catch(
        () => null,
      );
      if (back) break;
      await sleep(100);
    }
    expect(back, 'the sandbox comes back').not.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1200);
    expect(back!.status).toBe(200);
    expect(((await back!.json()) as any).user.creditBalance).toBe(5000 - price);
    const task = await h.api('GET', `/tasks/${t.body.taskId}`);
    expect(task.status).toBe(200);
    expect(task.body.status).toBe('succeeded');
  }, 60_000);
});

describe('POST /__sandbox/limits', () => {
  it('lifts one group limit for every key until reset; others keep theirs', async () => {
    const { body } = await pricedTask(h);
    const r = await h.control('POST', '/limits', { 'tasks.create': 70 });
    expect(r.status).toBe(200);
    expect(r.body['tasks.create']).toBe(70);
    expect(r.body['tasks.get']).toBe(60);
    const statuses: number[] = [];
    for (let i = 0; i < 71; i++)
      statuses.push((await h.api('POST', '/tasks', { key: 'team', json: body })).status);
    expect(statuses.slice(0, 70).every((s) => s === 200)).toBe(true);
    expect(statuses[70]).toBe(429);
    await h.control('POST', '/reset');
    const again: number[] = [];
    for (let i = 0; i < 61; i++)
      again.push((await h.api('POST', '/tasks', { key: 'team', json: body })).status);
    expect(again[59]).toBe(200);
    expect(again[60]).toBe(429);
  });

  it('refuses an unknown group or a limit under 1 with 400', async () => {
    for (const bad of [{ nope: 5 }, { 'tasks.create': 0 }, { 'tasks.get': 'many' }, [1]]) {
      expect((await h.control('POST', '/limits', bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});
