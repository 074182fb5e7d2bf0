import type { XhrLike } from './transport';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, DEFAULT_TIMEOUT_MS, UPLOAD_RESEND_MAX_BYTES, type ClientRetryInfo } from './client';
import { ApiError } from './errors';
import { RateLimiter } from './rate-limiter';
import { toCurl, toFetchCode } from './request-code';
import type { TaskRequest } from '../../contract/task';

const KEY = 'gm_live_0123456789abcdefghijklmnopqrstuv';
const BASE = 'https://api.example.test/v1';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const apiError = (status: number, code: string, fields: Record<string, unknown> = {}, headers = {}) =>
  json(status, { error: { message: `msg ${code}`, type: 'api_error', code, ...fields } }, headers);

const networkFailure = () => Promise.reject(new TypeError('Failed to fetch'));

/** A fetch that never answers, but rejects like the browser's when its signal aborts. */
const hangingFetch = (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

const makeClient = (
  fetch: typeof globalThis.fetch,
  extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {},
) => new ApiClient({ baseUrl: BASE, apiKey: KEY, fetch, ...extra });

const callOf = (mock: ReturnType<typeof vi.fn<typeof fetch>>, n: number) => {
  const call = mock.mock.calls[n];
  if (!call) throw new Error(`no call ${n}`);
  const [input, init] = call;
  return {
    url: String(input),
    method: init?.method ?? 'GET',
    headers: new Headers(init?.headers),
    body: init?.body,
  };
};

const TASK = {
  taskId: 't1',
  status: 'succeeded',
  outputs: [{ url: 'https://cdn.example.test/a.png' }],
  error: null,
  creditsCharged: 4,
  createdAt: '2025-06-01T12:00:00Z',
  completedAt: '2025-06-01T12:00:05Z',
};
const CREATED = { taskId: 't1', status: 'queued', modelId: 'm1', versionId: 'v1' };
const ME = {
  key: {
    id: 'k1',
    prefix: 'gm_live_0123',
    label: 'Studio',
    createdAt: '2025-01-01T00:00:00Z',
    expiresAt: null,
    dailyCreditCap: null,
    creditsSpentToday: 0,
    creditsRemainingToday: null,
  },
  project: { id: 'p1', name: 'Demo' },
  user: { creditBalance: 5000 },
  limits: { tasksPerMin: 20, uploadsPerMin: 10, uploadPollPerMin: 40 },
};
const model = (id: string) => ({
  id,
  name: `Model ${id}`,
  type: 'image',
  subType: 'default',
  description: '',
  brand: { id: 'b', name: 'Brand' },
  params: [],
  versions: [{ id: 'v1', name: 'V1', typicalPrice: { typicalCredits: 4, unit: 'image' } }],
  tags: [],
});
const BODY: TaskRequest = {
  interfaceId: 'm1',
  versionId: 'v1',
  params: { prompt: "a cat's hat", 'style.strength': 0.5, refs: ['https://cdn.example.test/r.png'] },
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('requests', () => {
  it('sends the key only in the Authorization header, never in the URL', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, TASK));
    const client = makeClient(fetch);
    await client.getTask('t1');
    const call = callOf(fetch, 0);
    expect(call.headers.get('Authorization')).toBe(`Bearer ${KEY}`);
    expect(call.url).toBe(`${BASE}/tasks/t1`);
    expect(call.url).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });

  it('normalises the base URL and encodes path segments', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, TASK));
    await makeClient(fetch, { baseUrl: ` ${BASE}// ` }).getTask('a/b c');
    expect(callOf(fetch, 0).url).toBe(`${BASE}/tasks/a%2Fb%20c`);
  });

  it('asks GET /models with type and subtype', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { models: [] }));
    await makeClient(fetch).listModels('video', 'first-last-frame');
    expect(callOf(fetch, 0).url).toBe(`${BASE}/models?type=video&subtype=first-last-frame`);
  });

  it('leaves the type filter out when not given', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { aiTools: [] }));
    const client = makeClient(fetch);
    await client.listAiTools();
    await client.listAiTools('video');
    expect(callOf(fetch, 0).url).toBe(`${BASE}/ai-tools`);
    expect(callOf(fetch, 1).url).toBe(`${BASE}/ai-tools?type=video`);
  });

  it('sends JSON bodies with their Content-Type', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(200, {
        credits: 4,
        estimatedSeconds: null,
        modelId: 'm1',
        versionId: 'v1',
        modelName: 'M',
        breakdown: {
          pricingKey: 'k',
          base: 4,
          multiplier: 1,
          surcharges: 0,
          basePrice: 0,
          minPriceApplied: false,
        },
      }),
    );
    const quote = await makeClient(fetch).quote(BODY);
    expect(quote.credits).toBe(4);
    const call = callOf(fetch, 0);
    expect(call.method).toBe('POST');
    expect(call.url).toBe(`${BASE}/quote`);
    expect(call.headers.get('Content-Type')).toBe('application/json');
    expect(call.body).toBe(JSON.stringify(BODY));
  });

  it('GET /me hands the key limits to the rate limiter', async () => {
    const limiter = new RateLimiter();
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, ME));
    const me = await makeClient(fetch, { limiter }).me();
    expect(me.user?.creditBalance).toBe(5000);
    expect(limiter.limitOf('tasks.create')).toBe(20);
    expect(limiter.limitOf('tasks.get')).toBe(20);
    expect(limiter.limitOf('uploads.create')).toBe(10);
    expect(limiter.limitOf('uploads.get')).toBe(40);
  });

  it('sends a request only when the limiter allows it', async () => {
    const limiter = new RateLimiter({ marginMs: 0, limits: { describe: 1 } });
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(200, { credits: 1, overallDescription: 'A cat.' }),
    );
    const client = makeClient(fetch, { limiter });
    await client.describeImage({ imageUrl: 'https://cdn.example.test/a.png', language: 'fr' });
    const second = client.describeImage({ imageUrl: 'https://cdn.example.test/a.png' });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(second).resolves.toMatchObject({ overallDescription: 'A cat.', camera: null });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('response parsing', () => {
  it('tolerates fields it does not know', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { ...TASK, newField: 1 }));
    const task = await makeClient(fetch).getTask('t1');
    expect(task).toEqual(TASK);
  });

  it('rejects a malformed body as invalid_response, without retrying', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { taskId: 1, status: 'done' }));
    const error = await makeClient(fetch)
      .getTask('t1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('rejects a 200 that is not JSON as invalid_response', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () => new Response('<html>hello</html>', { status: 200 }),
    );
    await expect(makeClient(fetch).me()).rejects.toMatchObject({ code: 'invalid_response', status: 200 });
  });

  it('turns an api-notes §7 error body into an ApiError with its fields', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      apiError(400, 'invalid_payload', {
        param: 'subtype',
        validCategories: [{ type: 'image', subType: 'default' }],
      }),
    );
    const error = await makeClient(fetch)
      .listModels('image', 'nope')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_payload',
      param: 'subtype',
      extra: { validCategories: [{ type: 'image', subType: 'default' }] },
    });
  });

  it('turns a non-JSON error body into an ApiError with the status', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('Not Found', { status: 404 }));
    await expect(makeClient(fetch).getTask('t1')).rejects.toMatchObject({
      status: 404,
      code: 'invalid_response',
    });
  });

  it('never puts the key in an error message, even when the server echoes it', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(401, {
        error: { message: `Key ${KEY} is revoked`, type: 'authentication_error', code: 'odd_code' },
      }),
    );
    const error = await makeClient(fetch)
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    if (!(error instanceof ApiError)) return;
    expect(`${error.message} ${error.remedy} ${error.serverMessage} ${error.stack}`).not.toContain(KEY);
  });

  it('skips and reports one bad catalog entry, keeping the rest', async () => {
    const bad = { ...model('broken'), versions: 'nope' };
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(200, { models: [model('a'), bad, { ...model('c'), extra: true }, 42] }),
    );
    const { items, skipped } = await makeClient(fetch).listModels('image', 'default');
    expect(items.map((m) => m.id)).toEqual(['a', 'c']);
    expect(skipped.map((s) => ({ index: s.index, id: s.id }))).toEqual([
      { index: 1, id: 'broken' },
      { index: 3, id: undefined },
    ]);
    expect(skipped[0]?.issues[0]?.path).toEqual(['versions']);
  });

  it('skips bad AI tools and templates the same way', async () => {
    const tool = { slug: 'bg-remove', name: 'BG', mediaType: 'image' };
    const template = { slug: 't', name: 'T', mediaType: 'video', official: false };
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(json(200, { aiTools: [tool, { ...tool, slug: 'x', mediaType: 'audio' }] }))
      .mockResolvedValueOnce(json(200, { templates: [{ ...template, official: 'yes' }, template] }));
    const client = makeClient(fetch);
    const tools = await client.listAiTools();
    expect(tools.items.map((t) => t.slug)).toEqual(['bg-remove']);
    expect(tools.skipped).toMatchObject([{ index: 1, id: 'x' }]);
    const templates = await client.listTemplates();
    expect(templates.items).toHaveLength(1);
    expect(templates.skipped).toMatchObject([{ index: 0, id: 't' }]);
  });

  it('rejects a list whose envelope is wrong', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { items: [] }));
    await expect(makeClient(fetch).listTemplates()).rejects.toMatchObject({ code: 'invalid_response' });
  });
});

describe('retry policy through the client (api-notes §7)', () => {
  it.each([
    ['a network failure', networkFailure],
    ['429', async () => apiError(429, 'rate_limited')],
    ['502', async () => apiError(502, 'storage_upload_failed')],
    ['503', async () => apiError(503, 'no_provider')],
    ['504', async () => new Response('Gateway Timeout', { status: 504 })],
  ])('retries %s after 1 s', async (_name, first) => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockImplementationOnce(first);
    fetch.mockImplementation(async () => json(200, TASK));
    const result = makeClient(fetch).getTask('t1');
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await expect(result).resolves.toMatchObject({ taskId: 't1' });
  });

  it.each([
    [400, 'invalid_payload'],
    [401, 'invalid_token'],
    [402, 'arrears'],
    [403, 'account_banned'],
    [404, 'unknown_task'],
    [409, 'conflict'],
    [422, 'moderation_blocked'],
    [451, 'moderation_blocked'],
    [403, 'token_project_unbound'],
    [422, 'token_project_unbound'],
  ])('does not retry %i %s', async (status, code) => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => apiError(status, code));
    const result = makeClient(fetch)
      .getTask('t1')
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await result).toMatchObject({ status, code });
  });

  it('sends the retries 1 s, 3 s and 9 s apart and stops after 3', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => apiError(503, 'no_provider'));
    const infos: ClientRetryInfo[] = [];
    const result = makeClient(fetch, { onRetry: (i) => infos.push(i) })
      .getTask('t1')
      .catch((e: unknown) => e);
    const checkpoints: Array<[number, number]> = [
      [0, 1],
      [999, 1],
      [1, 2],
      [2_999, 2],
      [1, 3],
      [8_999, 3],
      [1, 4],
      [120_000, 4],
    ];
    for (const [ms, calls] of checkpoints) {
      await vi.advanceTimersByTimeAsync(ms);
      expect(fetch).toHaveBeenCalledTimes(calls);
    }
    expect(await result).toMatchObject({ status: 503 });
    expect(infos.map((i) => [i.retry, i.delayMs, i.method, i.path])).toEqual([
      [1, 1000, 'GET', '/tasks/t1'],
      [2, 3000, 'GET', '/tasks/t1'],
      [3, 9000, 'GET', '/tasks/t1'],
    ]);
  });

  it('honours Retry-After: 7 s instead of 1 s, and holds the whole group meanwhile', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(apiError(429, 'rate_limited', {}, { 'Retry-After': '7' }));
    fetch.mockImplementation(async () => json(200, TASK));
    const onRetry = vi.fn();
    const client = makeClient(fetch);
    const first = client.getTask('t1', { onRetry });
    await vi.advanceTimersByTimeAsync(0);
    const other = client.getTask('t2');
    await vi.advanceTimersByTimeAsync(6_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ delayMs: 7000, reason: 'retry-after' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3);
    await expect(first).resolves.toBeDefined();
    await expect(other).resolves.toBeDefined();
  });

  it('times out after 30 s, counts it as a connection failure and retries', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockImplementationOnce(hangingFetch);
    fetch.mockImplementation(async () => json(200, TASK));
    const result = makeClient(fetch).getTask('t1');
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + 1_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    await expect(result).resolves.toMatchObject({ taskId: 't1' });
  });

  it('reports a timeout as code timeout with status 0 when the retries run out', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(hangingFetch);
    const result = makeClient(fetch, { timeoutMs: 100 })
      .getTask('t1')
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100 * 4 + 13_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(await result).toMatchObject({ code: 'timeout', status: 0 });
  });

  it('reports a network failure as network_error with status 0', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(networkFailure);
    const result = makeClient(fetch)
      .me()
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(13_000);
    expect(await result).toMatchObject({ code: 'network_error', status: 0 });
    expect(fetch).toHaveBeenCalledTimes(4);
  });
});

describe('abort', () => {
  it('aborts an in-flight request without retrying it', async () => {
    const controller = new AbortController();
    const fetch = vi.fn<typeof globalThis.fetch>(hangingFetch);
    const result = makeClient(fetch)
      .getTask('t1', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await result).toMatchObject({ code: 'aborted' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('stops a retry wait at once', async () => {
    const controller = new AbortController();
    const fetch = vi.fn<typeof globalThis.fetch>(async () => apiError(503, 'x'));
    const result = makeClient(fetch)
      .getTask('t1', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    expect(await result).toMatchObject({ code: 'aborted' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('createTask', () => {
  it('re-sends the identical body and Idempotency-Key after a network failure', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockImplementationOnce(networkFailure);
    fetch.mockImplementation(async () => json(200, { ...CREATED, idempotent: true }));
    const result = makeClient(fetch).createTask(BODY, { idempotencyKey: 'idem-123' });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).resolves.toEqual({ ...CREATED, idempotent: true });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [a, b] = [callOf(fetch, 0), callOf(fetch, 1)];
    expect(a.headers.get('Idempotency-Key')).toBe('idem-123');
    expect(b.headers.get('Idempotency-Key')).toBe('idem-123');
    expect(a.body).toBe(JSON.stringify(BODY));
    expect(b.body).toBe(a.body);
    expect(b.url).toBe(`${BASE}/tasks`);
  });

  it('re-sends with the key after a timeout (the task may already exist)', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockImplementationOnce(hangingFetch);
    fetch.mockImplementation(async () => json(200, CREATED));
    const result = makeClient(fetch).createTask(BODY, { idempotencyKey: 'idem-1' });
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 1_000);
    await expect(result).resolves.toEqual(CREATED);
    expect(callOf(fetch, 1).headers.get('Idempotency-Key')).toBe('idem-1');
  });

  it('never retries a failure of unknown effect without an Idempotency-Key', async () => {
    for (const failure of [networkFailure, async () => apiError(502, 'x'), async () => apiError(504, 'x')]) {
      const fetch = vi.fn<typeof globalThis.fetch>().mockImplementationOnce(failure);
      fetch.mockImplementation(async () => json(200, CREATED));
      const result = makeClient(fetch)
        .createTask(BODY)
        .catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(await result).toBeInstanceOf(ApiError);
      expect(callOf(fetch, 0).headers.has('Idempotency-Key')).toBe(false);
    }
  });

  it('does not retry a timeout without an Idempotency-Key', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockImplementationOnce(hangingFetch);
    fetch.mockImplementation(async () => json(200, CREATED));
    const result = makeClient(fetch)
      .createTask(BODY)
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await result).toMatchObject({ code: 'timeout' });
  });

  it('still retries refusals that prove nothing happened (429, 503) without a key', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(apiError(429, 'rate_limited', {}, { 'Retry-After': '2' }))
      .mockResolvedValueOnce(apiError(503, 'no_provider'))
      .mockImplementation(async () => json(200, CREATED));
    const result = makeClient(fetch).createTask(BODY);
    await vi.advanceTimersByTimeAsync(2_000 + 3_000);
    await expect(result).resolves.toEqual(CREATED);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('does not retry moderation_blocked, the daily cap or an unbound key', async () => {
    for (const [status, code] of [
      [422, 'moderation_blocked'],
      [429, 'token_daily_cap_reached'],
      [402, 'token_daily_cap_exceeded'],
      [403, 'token_project_unbound'],
    ] as const) {
      const fetch = vi.fn<typeof globalThis.fetch>(async () =>
        apiError(status, code, {}, { 'Retry-After': '5' }),
      );
      const result = makeClient(fetch)
        .createTask(BODY, { idempotencyKey: 'k' })
        .catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(await result).toMatchObject({ status, code });
    }
  });

  it('does not pause POST /tasks for hours after a daily-cap 429', async () => {
    const limiter = new RateLimiter();
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      apiError(429, 'token_daily_cap_reached', {}, { 'Retry-After': '36000' }),
    );
    await makeClient(fetch, { limiter })
      .createTask(BODY)
      .catch(() => undefined);
    expect(limiter.waitMs('tasks.create')).toBe(0);
  });
});

describe('createTask after an attempt of unknown outcome', () => {
  it('a dropped connection then a 429 on every retry: the outcome stays unknown (the task may exist), not a refusal', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockImplementationOnce(networkFailure)
      .mockImplementation(async () => apiError(429, 'rate_limited', {}, { 'Retry-After': '1' }));
    const result = makeClient(fetch)
      .createTask(BODY, { idempotencyKey: 'idem-7' })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(await result).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('a 429 alone is still the refusal it is: nothing was created', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      apiError(429, 'rate_limited', {}, { 'Retry-After': '1' }),
    );
    const result = makeClient(fetch)
      .createTask(BODY, { idempotencyKey: 'idem-8' })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toMatchObject({ status: 429 });
  });
});

describe('describeImage', () => {
  it('is not retried after a network failure (it charges a credit and has no key)', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(networkFailure);
    const result = makeClient(fetch)
      .describeImage({ imageUrl: 'https://cdn.example.test/a.png' })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await result).toMatchObject({ code: 'network_error' });
  });

  it('is retried after a refunded 503 vision_unavailable', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValueOnce(apiError(503, 'vision_unavailable'));
    fetch.mockImplementation(async () => json(200, { credits: 1, overallDescription: 'A dog.' }));
    const result = makeClient(fetch).describeImage({
      imageUrl: 'https://cdn.example.test/a.png',
      language: 'de',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).resolves.toMatchObject({ overallDescription: 'A dog.' });
    expect(callOf(fetch, 1).body).toBe(
      JSON.stringify({ imageUrl: 'https://cdn.example.test/a.png', language: 'de' }),
    );
  });
});

class FakeXhr implements XhrLike {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | undefined;
  status = 0;
  responseText = '';
  aborted = false;
  upload: XhrLike['upload'] = { onprogress: null };
  onload: XhrLike['onload'] = null;
  onerror: XhrLike['onerror'] = null;
  onabort: XhrLike['onabort'] = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.aborted = true;
    this.onabort?.(new ProgressEvent('abort'));
  }
  getResponseHeader(): string | null {
    return null;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.(new ProgressEvent('load'));
  }
}

describe('uploads', () => {
  const file = new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'application/octet-stream' });

  it('sends the raw Blob with its true Content-Type through fetch; 202 processing', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(202, { status: 'processing', uploadId: 'u1', pollUrl: '/v1/uploads/u1' }),
    );
    const upload = await makeClient(fetch).uploadFile(file, 'video/mp4');
    expect(upload).toEqual({ status: 'processing', uploadId: 'u1', pollUrl: '/v1/uploads/u1' });
    const call = callOf(fetch, 0);
    expect(call.url).toBe(`${BASE}/uploads`);
    expect(call.method).toBe('POST');
    expect(call.body).toBe(file);
    expect(call.headers.get('Content-Type')).toBe('video/mp4');
    expect(call.headers.get('Authorization')).toBe(`Bearer ${KEY}`);
  });

  it('uses XMLHttpRequest when progress is wanted, and reports it', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const progress: Array<{ loaded: number; total: number }> = [];
    const result = makeClient(fetch, { createXhr: () => new FakeXhr() }).uploadFile(file, 'image/png', {
      onProgress: (p) => progress.push(p),
    });
    await vi.advanceTimersByTimeAsync(0);
    const xhr = FakeXhr.last;
    if (!xhr) throw new Error('no XHR sent');
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${BASE}/uploads`);
    expect(xhr.body).toBe(file);
    expect(xhr.headers).toEqual({ Authorization: `Bearer ${KEY}`, 'Content-Type': 'image/png' });
    xhr.progress(2, 4);
    xhr.progress(4, 4);
    xhr.respond(200, {
      status: 'ready',
      url: 'https://cdn.example.test/u.png',
      size: 4,
      contentType: 'image/png',
    });
    await expect(result).resolves.toMatchObject({ status: 'ready', url: 'https://cdn.example.test/u.png' });
    expect(progress).toEqual([
      { loaded: 2, total: 4 },
      { loaded: 4, total: 4 },
    ]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('maps a 451 from XHR to moderation_blocked with its labels', async () => {
    const result = makeClient(vi.fn<typeof globalThis.fetch>(), { createXhr: () => new FakeXhr() })
      .uploadFile(file, 'image/png', { onProgress: () => undefined })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    FakeXhr.last?.respond(451, {
      error: {
        message: 'blocked',
        type: 'invalid_request_error',
        code: 'moderation_blocked',
        labels: 'nudity',
      },
    });
    const error = await result;
    expect(error).toMatchObject({ status: 451, code: 'moderation_blocked', extra: { labels: 'nudity' } });
    expect(error instanceof ApiError && error.message).toContain('nudity');
  });

  it('aborts the XHR when the signal aborts', async () => {
    const controller = new AbortController();
    const result = makeClient(vi.fn<typeof globalThis.fetch>(), { createXhr: () => new FakeXhr() })
      .uploadFile(file, 'image/png', { onProgress: () => undefined, signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    expect(await result).toMatchObject({ code: 'aborted' });
    expect(FakeXhr.last?.aborted).toBe(true);
  });

  describe('a failure whose effect is unknown never re-sends a large file', () => {
    const large = new Blob([new Uint8Array(UPLOAD_RESEND_MAX_BYTES + 1)], { type: 'image/png' });
    const small = new Blob([new Uint8Array(UPLOAD_RESEND_MAX_BYTES)], { type: 'image/png' });
    const failing = (answer: () => Promise<Response>) => vi.fn<typeof globalThis.fetch>(answer);
    const settle = async <T>(p: Promise<T>) => {
      const result = p.catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(30_000);
      return result;
    };

    it.each([
      ['502', async () => apiError(502, 'bad_gateway')],
      ['504', async () => new Response('Gateway Timeout', { status: 504 })],
      ['a dropped connection', networkFailure],
    ])('a file over the re-send size is sent once after %s', async (_name, answer) => {
      const fetch = failing(answer);
      await settle(makeClient(fetch).uploadFile(large, 'image/png'));
      expect(fetch).toHaveBeenCalledTimes(1);
    });

    it('a 413 is final, whatever the size', async () => {
      const fetch = failing(async () => apiError(413, 'file_too_large'));
      expect(await settle(makeClient(fetch).uploadFile(small, 'image/png'))).toMatchObject({ status: 413 });
      expect(fetch).toHaveBeenCalledTimes(1);
    });

    it('a small file is sent again once after a 502, not on the whole schedule', async () => {
      const fetch = failing(async () => apiError(502, 'bad_gateway'));
      expect(await settle(makeClient(fetch).uploadFile(small, 'image/png'))).toMatchObject({ status: 502 });
      expect(fetch).toHaveBeenCalledTimes(2);
    });

    it('429 and 503 (nothing kept) are still retried on schedule, and a repeat after them is not spent', async () => {
      const fetch = vi
        .fn<typeof globalThis.fetch>()
        .mockImplementationOnce(async () => apiError(503, 'no_provider'))
        .mockImplementationOnce(async () => apiError(429, 'rate_limited'))
        .mockImplementationOnce(async () => apiError(502, 'bad_gateway'))
        .mockImplementation(async () =>
          json(200, {
            status: 'ready',
            url: 'https://cdn.example.test/u.png',
            size: 1,
            contentType: 'image/png',
          }),
        );
      await expect(settle(makeClient(fetch).uploadFile(small, 'image/png'))).resolves.toMatchObject({
        status: 'ready',
      });
      expect(fetch).toHaveBeenCalledTimes(4);
    });
  });

  it('reads every poll state of GET /uploads/{id}', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(json(202, { status: 'processing', uploadId: 'u1', pollUrl: '/v1/uploads/u1' }))
      .mockResolvedValueOnce(json(200, { status: 'blocked', labels: 'violence', error: 'Blocked.' }))
      .mockResolvedValueOnce(json(200, { status: 'errored', reason: 'gave up' }));
    const client = makeClient(fetch);
    await expect(client.getUpload('u1')).resolves.toMatchObject({ status: 'processing' });
    await expect(client.getUpload('u1')).resolves.toMatchObject({ status: 'blocked', labels: 'violence' });
    await expect(client.getUpload('u1')).resolves.toMatchObject({ status: 'errored', reason: 'gave up' });
    expect(callOf(fetch, 0).url).toBe(`${BASE}/uploads/u1`);
  });
});

describe('describeRequest ("Copy request")', () => {
  it('is exactly what createTask sends, with the key replaced by a placeholder', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, CREATED));
    const client = makeClient(fetch, { baseUrl: `${BASE}/` });
    await client.createTask(BODY, { idempotencyKey: 'idem-9' });
    const sent = callOf(fetch, 0);
    const described = client.describeRequest(BODY, 'idem-9');
    expect(described.method).toBe('POST');
    expect(described.url).toBe(sent.url);
    expect(described.body).toBe(sent.body);
    expect(described.headers).toEqual({
      Authorization: 'Bearer $API_KEY',
      'Content-Type': 'application/json',
      'Idempotency-Key': 'idem-9',
    });
    // The same headers as sent, value for value, except the key.
    expect(Object.fromEntries([...sent.headers].map(([k, v]) => [k.toLowerCase(), v]))).toEqual({
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'idempotency-key': 'idem-9',
    });
    for (const text of [JSON.stringify(described), toCurl(described), toFetchCode(described)]) {
      expect(text).toContain('$API_KEY');
      expect(text).not.toContain(KEY);
    }
  });
});
