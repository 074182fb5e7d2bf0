// @vitest-environment node
// Node's Blob survives fake-indexeddb's structured clone (happy-dom's does not), as a browser's does.
import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { KEEP_CONCURRENCY, KEEP_RETRY_MS, KeepersStore, quotaMessage, type KeepableOutput } from './keepers';
import { reloadAtOnce } from '../../test/page-unload';

const A = 'conn-a';
const B = 'conn-b';
const CDN = 'https://cdn.example.test/out';

const item = (taskId: string, index = 0): KeepableOutput => ({
  key: `${taskId}#${index}`,
  entry: { taskId },
  output: { url: `${CDN}/${taskId}-${index}.png` },
});

/** A file server: URLs answer their bytes; `down` makes every URL fail as an expired one would. */
function server(files: Record<string, string>) {
  let down = false;
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    if (init?.credentials !== 'omit') throw new Error('credentials must be omitted');
    if (down) return new Response('gone', { status: 410 });
    const body = files[String(url)];
    if (body === undefined) throw new TypeError('Failed to fetch');
    return new Response(body, { headers: { 'Content-Type': 'image/png' } });
  });
  return { fetch, goDown: () => (down = true) };
}

async function reload(): Promise<void> {
  (await db()).close();
  resetDbForTests();
}

beforeEach(async () => {
  await reload();
  await deleteDB(DB_NAME);
});
afterEach(() => vi.restoreAllMocks());

describe('KeepersStore', () => {
  it('keeps the bytes of an output so they are there after a reload, even when the URL no longer answers', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'PNG bytes one' });
    const persist = vi.fn(async () => true);
    const store = await KeepersStore.open(A, { db, fetch: files.fetch, persist, now: () => 1234 });
    const seen = vi.fn();
    store.subscribe(seen);
    const result = await store.keep(item('t1'));
    expect(result).toMatchObject({
      ok: true,
      info: { outputKey: 't1#0', size: 13, contentType: 'image/png' },
    });
    expect(store.has('t1#0')).toBe(true);
    expect(store.snapshot().bytes).toBe(13);
    expect(seen).toHaveBeenCalled();
    expect(persist).toHaveBeenCalledTimes(1);

    files.goDown();
    await reload();
    const again = await KeepersStore.open(A, { db, fetch: files.fetch });
    expect(again.has('t1#0')).toBe(true);
    expect(again.snapshot().kept.get('t1#0')).toMatchObject({
      taskId: 't1',
      url: `${CDN}/t1-0.png`,
      savedAt: 1234,
    });
    expect(await (await again.blobFor('t1#0'))!.text()).toBe('PNG bytes one');
    const url = await again.objectUrlFor('t1#0');
    expect(url).toMatch(/^blob:/);
    expect(await again.objectUrlFor('t1#0')).toBe(url);
    expect(files.fetch).toHaveBeenCalledTimes(1);
  });

  it('keeps each connection to its own outputs', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'x' });
    await (await KeepersStore.open(A, { db, fetch: files.fetch })).keep(item('t1'));
    const other = await KeepersStore.open(B, { db, fetch: files.fetch });
    expect(other.has('t1#0')).toBe(false);
    expect(await other.blobFor('t1#0')).toBeNull();
  });

  it('fetches an output once, however often it is kept', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'x' });
    const store = await KeepersStore.open(A, { db, fetch: files.fetch });
    const [a, b] = await Promise.all([store.keep(item('t1')), store.keep(item('t1'))]);
    await store.keep(item('t1'));
    expect(a.ok && b.ok).toBe(true);
    expect(files.fetch).toHaveBeenCalledTimes(1);
    expect(store.snapshot().saving).toBe(0);
  });

  it('forget() removes the bytes and revokes the object URL', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'abc', [`${CDN}/t2-0.png`]: 'defg' });
    const store = await KeepersStore.open(A, { db, fetch: files.fetch });
    await store.keep(item('t1'));
    await store.keep(item('t2'));
    expect(store.snapshot().bytes).toBe(7);
    const url = (await store.objectUrlFor('t1#0'))!;
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    await store.forget('t1#0');
    expect(revoke).toHaveBeenCalledWith(url);
    expect(store.has('t1#0')).toBe(false);
    expect(store.snapshot().bytes).toBe(4);
    expect(await store.objectUrlFor('t1#0')).toBeNull();
    await reload();
    expect((await KeepersStore.open(A, { db })).has('t1#0')).toBe(false);
  });

  it('forget() just before the page goes (an immediate reload) removes the bytes for good', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'abc' });
    const store = await KeepersStore.open(A, { db, fetch: files.fetch });
    await store.keep(item('t1'));
    const forgetting = store.forget('t1#0').catch(() => undefined);
    await reloadAtOnce();
    await forgetting;
    await reload();
    expect((await KeepersStore.open(A, { db })).has('t1#0')).toBe(false);
  });

  it('forget() during the save undoes it when it lands', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'abc' });
    const store = await KeepersStore.open(A, { db, fetch: files.fetch });
    const keeping = store.keep(item('t1'));
    await store.forget('t1#0');
    expect(await keeping).toMatchObject({ ok: false, failure: { reason: 'forgotten' } });
    expect(store.has('t1#0')).toBe(false);
    await reload();
    expect((await KeepersStore.open(A, { db })).has('t1#0')).toBe(false);
  });

  it('storage full: keep() resolves with a clear failure (never throws, so the star stays), nothing half-kept', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'big', [`${CDN}/t2-0.png`]: 'ok' });
    const store = await KeepersStore.open(A, { db, fetch: files.fetch });
    // The browser refuses the write: IndexedDB's QuotaExceededError.
    const put = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementationOnce(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const result = await store.keep(item('t1'));
    expect(put).toHaveBeenCalled();
    expect(result).toEqual({
      ok: false,
      failure: { outputKey: 't1#0', reason: 'quota', message: quotaMessage() },
    });
    expect(store.snapshot().failure?.message).toMatch(
      /storage for the studio is full.*starred but not saved/,
    );
    expect(store.has('t1#0')).toBe(false);
    expect(store.snapshot().saving).toBe(0);
    await reload();
    expect((await KeepersStore.open(A, { db })).has('t1#0')).toBe(false);

    // Space freed: the next keep works, and a successful keep of that output clears its failure.
    const store2 = await KeepersStore.open(A, { db, fetch: files.fetch });
    expect((await store2.keep(item('t2'))).ok).toBe(true);
    expect((await store2.keep(item('t1'))).ok).toBe(true);
    expect(store2.snapshot().failure).toBeNull();
  });

  it('a URL that no longer answers, or an item without output, is a failure with the reason', async () => {
    const files = server({});
    let now = 0;
    const store = await KeepersStore.open(A, { db, fetch: files.fetch, now: () => now });
    expect(await store.keep(item('t9'))).toMatchObject({
      ok: false,
      failure: { reason: 'fetch', message: 'The output could not be saved on this device: Failed to fetch.' },
    });
    files.goDown();
    now += KEEP_RETRY_MS;
    expect(await store.keep(item('t9'))).toMatchObject({
      ok: false,
      failure: { reason: 'fetch', message: expect.stringContaining('answered 410') },
    });
    expect(await store.keep({ key: 'q#0', entry: { taskId: 'q' }, output: null })).toMatchObject({
      ok: false,
      failure: { reason: 'no-output' },
    });
    store.dismissFailure();
    expect(store.snapshot().failure).toBeNull();
  });

  it('skips records it cannot read (parsed, never trusted)', async () => {
    const database = await db();
    await database.put('keepers', { connectionId: A, outputKey: 'bad#0', size: 'huge' });
    await database.put('keepers', {
      connectionId: A,
      outputKey: 'good#0',
      taskId: 'good',
      url: `${CDN}/good.png`,
      contentType: 'image/png',
      size: 2,
      savedAt: 1,
      blob: new Blob(['ok']),
    });
    await reload();
    const store = await KeepersStore.open(A, { db });
    expect([...store.snapshot().kept.keys()]).toEqual(['good#0']);
    expect(await store.blobFor('bad#0')).toBeNull();
  });

  it('saves a few at a time: 40 outputs kept at once fetch at most KEEP_CONCURRENCY at a time, and all are kept', async () => {
    let open = 0;
    let most = 0;
    const fetch = vi.fn(async () => {
      open += 1;
      most = Math.max(most, open);
      await new Promise((resolve) => setTimeout(resolve, 1));
      open -= 1;
      return new Response('bytes', { headers: { 'Content-Type': 'image/png' } });
    });
    const store = await KeepersStore.open(A, { db, fetch });
    const items = Array.from({ length: 40 }, (_, i) => item(`t${i}`));
    const results = items.map((i) => store.keep(i));
    expect(fetch.mock.calls.length).toBeLessThanOrEqual(KEEP_CONCURRENCY);
    expect(store.snapshot().saving).toBe(40);
    expect((await Promise.all(results)).every((r) => r.ok)).toBe(true);
    expect(most).toBe(KEEP_CONCURRENCY);
    expect(fetch).toHaveBeenCalledTimes(40);
    expect(store.snapshot().kept.size).toBe(40);
    expect(store.snapshot().saving).toBe(0);
  });

  it('10,000 dead URLs kept at once: a few requests at a time, and asked again in their back-off, none', async () => {
    let open = 0;
    let most = 0;
    const fetch = vi.fn(async () => {
      open += 1;
      most = Math.max(most, open);
      await Promise.resolve();
      open -= 1;
      return new Response('gone', { status: 410 });
    });
    const store = await KeepersStore.open(A, { db, fetch });
    const items = Array.from({ length: 10_000 }, (_, i) => item(`t${i}`));
    const results = await Promise.all(items.map((i) => store.keep(i)));
    expect(results.every((r) => !r.ok && r.failure.reason === 'fetch')).toBe(true);
    expect(most).toBeLessThanOrEqual(KEEP_CONCURRENCY);
    expect(fetch).toHaveBeenCalledTimes(10_000);
    await Promise.all(items.map((i) => store.keep(i)));
    expect(fetch).toHaveBeenCalledTimes(10_000);
  });

  it('a failed save is remembered: asked again in its back-off, no request and a dismissed alert stays dismissed; then retried, each wait doubling', async () => {
    const files = server({});
    files.goDown();
    let now = 1_000;
    const store = await KeepersStore.open(A, { db, fetch: files.fetch, now: () => now });
    expect((await store.keep(item('t1'))).ok).toBe(false);
    expect(store.snapshot().failure?.outputKey).toBe('t1#0');
    store.dismissFailure();
    // Every change of the history asks again: nothing is fetched, the alert stays away.
    for (let i = 0; i < 20; i++) {
      now += 1_000;
      expect(await store.keep(item('t1'))).toMatchObject({ ok: false, failure: { reason: 'fetch' } });
    }
    expect(files.fetch).toHaveBeenCalledTimes(1);
    expect(store.snapshot().failure).toBeNull();
    expect(store.dueForRetry()).toEqual([]);

    now = 1_000 + KEEP_RETRY_MS;
    expect(store.dueForRetry()).toEqual(['t1#0']);
    await store.keep(item('t1'));
    expect(files.fetch).toHaveBeenCalledTimes(2);
    // A retry that fails again is not news.
    expect(store.snapshot().failure).toBeNull();
    // The next wait is twice as long.
    now += KEEP_RETRY_MS;
    await store.keep(item('t1'));
    expect(files.fetch).toHaveBeenCalledTimes(2);
    expect(store.dueForRetry()).toEqual([]);
    now += KEEP_RETRY_MS;
    expect(store.dueForRetry()).toEqual(['t1#0']);
    await store.keep(item('t1'));
    expect(files.fetch).toHaveBeenCalledTimes(3);
  });

  it('forgotten, then kept again while it waits its turn: it is kept', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetch = vi.fn(async () => {
      await gate;
      return new Response('x');
    });
    const store = await KeepersStore.open(A, { db, fetch });
    const first = Array.from({ length: KEEP_CONCURRENCY }, (_, i) => store.keep(item(`busy${i}`)));
    void store.keep(item('t1'));
    await store.forget('t1#0');
    const again = store.keep(item('t1'));
    release();
    await Promise.all(first);
    expect((await again).ok).toBe(true);
    expect(store.has('t1#0')).toBe(true);
  });

  it('forget() and clearFailure() let a remembered failure go: the next keep tries at once', async () => {
    const files = server({ [`${CDN}/t1-0.png`]: 'abc', [`${CDN}/t2-0.png`]: 'de' });
    const fetch = vi.fn(files.fetch);
    fetch.mockResolvedValueOnce(new Response('full', { status: 503 }));
    fetch.mockResolvedValueOnce(new Response('full', { status: 503 }));
    const store = await KeepersStore.open(A, { db, fetch });
    expect((await store.keep(item('t1'))).ok).toBe(false);
    expect((await store.keep(item('t2'))).ok).toBe(false);
    expect([...store.failedKeys()]).toEqual(['t1#0', 't2#0']);
    await store.forget('t1#0');
    store.clearFailure('t2#0');
    expect([...store.failedKeys()]).toEqual([]);
    expect((await store.keep(item('t1'))).ok).toBe(true);
    expect((await store.keep(item('t2'))).ok).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('forget() of an output waiting its turn: it is never fetched', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetch = vi.fn(async () => {
      await gate;
      return new Response('x');
    });
    const store = await KeepersStore.open(A, { db, fetch });
    const first = Array.from({ length: KEEP_CONCURRENCY }, (_, i) => store.keep(item(`busy${i}`)));
    const waiting = store.keep(item('t1'));
    await store.forget('t1#0');
    release();
    await Promise.all(first);
    expect(await waiting).toMatchObject({ ok: false, failure: { reason: 'forgotten' } });
    expect(fetch).toHaveBeenCalledTimes(KEEP_CONCURRENCY);
    expect(store.has('t1#0')).toBe(false);
  });
});
