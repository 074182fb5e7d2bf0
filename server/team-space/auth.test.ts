import { describe, expect, it } from 'vitest';
import { hashKey, KeyChecker } from './auth';

// The key check against a fake /me: how each answer of api-notes §5 and §7 is read, and what the
// cache and the in-flight sharing spare the API.

const KEY = `gm_live_${'A'.repeat(32)}`;
const OTHER = `gm_live_${'B'.repeat(32)}`;

const ME = {
  key: {
    id: 'key_1',
    prefix: 'gm_live_AAAA',
    label: 'Team key',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: null,
    dailyCreditCap: null,
    creditsSpentToday: 0,
    creditsRemainingToday: null,
  },
  project: { id: 'prj_1', name: 'P' },
  team: { id: 'team_1', creditBalance: 10 },
  limits: { tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 120 },
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string) =>
  json(status, { error: { type: 'x', code, message: 'refused' } });

/** A checker whose /me answers with `answer()`, counting calls; the clock is `clock.now`. */
function setup(answer: (auth: string | null) => Response | Promise<Response>) {
  const clock = { now: 1_000_000 };
  const calls: Array<{ url: string; auth: string | null; redirect?: RequestRedirect }> = [];
  const checker = new KeyChecker({
    apiBaseUrl: 'http://api.test/v1/',
    now: () => clock.now,
    fetch: async (input, init) => {
      const auth = new Headers(init?.headers).get('authorization');
      calls.push({ url: String(input), auth, redirect: init?.redirect });
      return answer(auth);
    },
  });
  return { checker, calls, clock };
}

describe('the answers of /me', () => {
  it('a good key is admitted with its /me, asked with the Bearer header and no redirects', async () => {
    const { checker, calls } = setup(() => json(200, ME));
    expect(await checker.check(KEY)).toEqual({ kind: 'admitted', me: ME });
    expect(calls).toEqual([{ url: 'http://api.test/v1/me', auth: `Bearer ${KEY}`, redirect: 'error' }]);
  });

  it('each refusal of the spec has its reason', async () => {
    const cases: Array<[Response | (() => Response), string]> = [
      [error(401, 'invalid_token'), 'key-invalid'],
      [error(401, 'missing_token'), 'key-invalid'],
      [error(403, 'account_banned'), 'account-banned'],
      [error(403, 'token_project_unbound'), 'key-unbound'],
      [error(422, 'token_project_unbound'), 'key-unbound'],
      [json(200, { ...ME, project: { id: null, name: null, bound: false } }), 'key-unbound'],
    ];
    for (const [res, reason] of cases) {
      const { checker } = setup(() => (typeof res === 'function' ? res() : res));
      const result = await checker.check(KEY);
      expect(result.kind, reason).toBe('refused');
      expect(result.kind === 'refused' && result.reason).toBe(reason);
    }
  });

  it('an answer that says nothing about the key is "the API is unavailable", never a refusal', async () => {
    const answers: Array<() => Response | Promise<Response>> = [
      () => error(500, 'internal'),
      () => error(503, 'unavailable'),
      () => error(429, 'rate_limited'),
      () => error(404, 'not_found'),
      () => error(403, 'some_new_code'),
      () => json(200, { hello: 'not a key' }),
      () => new Response('<html>proxy error</html>', { status: 502 }),
      () => Promise.reject(new TypeError('fetch failed')),
    ];
    for (const answer of answers) {
      const { checker } = setup(answer);
      const result = await checker.check(KEY);
      expect(result.kind).toBe('unavailable');
    }
  });

  it('a token that cannot be a key is refused without asking the API', async () => {
    const { checker, calls } = setup(() => json(200, ME));
    for (const token of [
      '',
      'short',
      'has a space in it',
      'x'.repeat(300),
      'tab\there12',
      'ключ-ключ-ключ',
    ]) {
      expect(await checker.check(token)).toMatchObject({ kind: 'refused', reason: 'key-invalid' });
    }
    expect(calls).toEqual([]);
  });

  it('a /me that hangs is given up after the timeout', async () => {
    const checker = new KeyChecker({
      apiBaseUrl: 'http://api.test/v1',
      timeoutMs: 50,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    });
    expect(await checker.check(KEY)).toMatchObject({ kind: 'unavailable', detail: 'GET /me timed out' });
  });
});

describe('the cache', () => {
  it('is keyed by the key’s hash: never the key', async () => {
    const { checker } = setup(() => json(200, ME));
    await checker.check(KEY);
    const held = JSON.stringify([...(checker as unknown as { cache: Map<string, unknown> }).cache.keys()]);
    expect(held).toContain(hashKey(KEY));
    expect(held).not.toContain(KEY);
    expect(hashKey(KEY)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a storm of checks of one key asks /me once (in flight, then cached for 30 s)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { checker, calls, clock } = setup(async () => {
      await gate;
      return json(200, ME);
    });
    const storm = Array.from({ length: 50 }, () => checker.check(KEY));
    release();
    const results = await Promise.all(storm);
    expect(results.every((r) => r.kind === 'admitted')).toBe(true);
    expect(calls).toHaveLength(1);
    clock.now += 29_000;
    await checker.check(KEY);
    expect(calls).toHaveLength(1);
    clock.now += 2_000;
    await checker.check(KEY);
    expect(calls).toHaveLength(2);
    // Another key is its own entry.
    await checker.check(OTHER);
    expect(calls).toHaveLength(3);
  });

  it('keeps a refusal 10 s and an outage 2 s; `fresh` asks again at once', async () => {
    let res = () => error(401, 'invalid_token');
    const { checker, calls, clock } = setup(() => res());
    await checker.check(KEY);
    clock.now += 9_000;
    await checker.check(KEY);
    expect(calls).toHaveLength(1);
    clock.now += 2_000;
    res = () => error(503, 'down');
    expect((await checker.check(KEY)).kind).toBe('unavailable');
    clock.now += 1_000;
    await checker.check(KEY);
    expect(calls).toHaveLength(2);
    clock.now += 1_500;
    await checker.check(KEY);
    expect(calls).toHaveLength(3);
    await checker.check(KEY, { fresh: true });
    expect(calls).toHaveLength(4);
  });

  it('while the API is unavailable, a recent admission still holds; a refusal ends it', async () => {
    let res = () => json(200, ME);
    const { checker, clock } = setup(() => res());
    await checker.check(KEY);
    res = () => error(503, 'down');
    clock.now += 60_000;
    expect(await checker.check(KEY)).toEqual({ kind: 'admitted', me: ME, stale: true });
    clock.now += 15 * 60_000;
    expect((await checker.check(KEY, { fresh: true })).kind).toBe('unavailable');
    // Admitted again, then refused: the refusal wins over the old admission, even in an outage.
    res = () => json(200, ME);
    await checker.check(KEY, { fresh: true });
    res = () => error(401, 'invalid_token');
    await checker.check(KEY, { fresh: true });
    res = () => error(503, 'down');
    expect((await checker.check(KEY, { fresh: true })).kind).toBe('unavailable');
  });

  it('holds at most maxEntries keys', async () => {
    const checker = new KeyChecker({
      apiBaseUrl: 'http://api.test/v1',
      maxEntries: 3,
      fetch: async () => error(401, 'invalid_token'),
    });
    for (let i = 0; i < 10; i++) await checker.check(`gm_live_${String(i).repeat(32)}`);
    expect((checker as unknown as { cache: Map<string, unknown> }).cache.size).toBe(3);
  });
});
