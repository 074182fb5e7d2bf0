import { expect, it } from 'vitest';
import {
  cursorBefore,
  decodeCursor,
  type HistoryPageQuery,
  type TaskAttachments,
} from '../../contract/team-history';
import { MAX_PAGE_BYTES, storedTaskOf, type HistoryStore, type StoredTask } from './history-store';

// What every history store must do (history-store.ts), run against each one: SQLite
// (history-sqlite.test.ts) and PostgreSQL (history-postgres.test.ts).

const MONTH = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

/** A task record as the studio writes it into the document (team-tasks.ts toTeamTask). */
export function taskRecord(
  n: number,
  more: { by?: string; status?: string; createdAt?: number; prompt?: string; credits?: number } = {},
): Record<string, unknown> {
  return {
    taskId: `task-${String(n).padStart(6, '0')}`,
    by: more.by ?? 'ada',
    request: { interfaceId: 'img', params: { prompt: more.prompt ?? `a fox number ${n}` } },
    meta: { title: 'Image Model', mediaType: 'image' },
    status: more.status ?? 'succeeded',
    outputs: [],
    creditsCharged: more.credits ?? 2,
    createdAt: more.createdAt ?? MONTH + n * 1000,
  };
}

export const stored = (record: Record<string, unknown>): StoredTask => storedTaskOf(record)!;

/** What a member says about a task: judgements by `${member}|${outputKey}`, comments by id. */
export function said(
  n: number,
  judgements: Record<string, unknown> = {},
  comments: Record<string, unknown> = {},
): TaskAttachments {
  return { taskId: `task-${String(n).padStart(6, '0')}`, judgements, comments };
}

/** A comment as the document holds it. */
export const comment = (id: string, body: string) => ({ id, by: 'ada', body, createdAt: MONTH });

const ids = (tasks: unknown[]) => tasks.map((t) => (t as { taskId: string }).taskId);

async function all(store: HistoryStore, room: string, query: Omit<HistoryPageQuery, 'before'>) {
  const seen: string[] = [];
  let before: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await store.page(room, { ...query, ...(before ? { before } : {}) });
    seen.push(...ids(page.tasks));
    if (!page.next) return seen;
    before = page.next;
  }
  throw new Error('more than 100 pages');
}

export function historyStoreConformance(make: () => Promise<HistoryStore>): void {
  it('a page from a moment (cursorBefore) holds exactly the tasks made before it, those of its millisecond before it too', async () => {
    const store = await make();
    const records = [1, 2, 3, 4, 5].map((n) =>
      taskRecord(n, { createdAt: MONTH + (n <= 2 ? 999 : n * 1000) }),
    );
    await store.put('team:a', records.map(stored));
    expect(ids((await store.page('team:a', { before: cursorBefore(MONTH + 3000) })).tasks)).toEqual([
      'task-000002',
      'task-000001',
    ]);
    expect(ids((await store.page('team:a', { before: cursorBefore(MONTH + 1000) })).tasks)).toEqual([
      'task-000002',
      'task-000001',
    ]);
    expect(ids((await store.page('team:a', { before: cursorBefore(MONTH + 999) })).tasks)).toEqual([]);
  });

  it('pages newest first by time then task id, every task once, whatever the page size', async () => {
    const store = await make();
    // Three tasks in one millisecond, across a page boundary.
    const records = [1, 2, 3, 4, 5, 6, 7].map((n) => taskRecord(n, { createdAt: MONTH + (n <= 3 ? 0 : n) }));
    await store.put('team:a', records.map(stored));
    const expected = [
      'task-000007',
      'task-000006',
      'task-000005',
      'task-000004',
      'task-000003',
      'task-000002',
      'task-000001',
    ];
    expect(await all(store, 'team:a', { limit: 2 })).toEqual(expected);
    expect(await all(store, 'team:a', { limit: 500 })).toEqual(expected);
    const first = await store.page('team:a', { limit: 3 });
    expect(decodeCursor(first.next!)).toEqual({ createdAt: MONTH + 5, taskId: 'task-000005' });
    expect(await store.count('team:a')).toBe(7);
  });

  it('keeps rooms apart', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1))]);
    await store.put('team:b', [stored(taskRecord(2))]);
    expect(await all(store, 'team:a', {})).toEqual(['task-000001']);
    expect(await all(store, 'team:b', {})).toEqual(['task-000002']);
    expect(await store.months('team:b')).toHaveLength(1);
  });

  it('finds every word of a search in the prompt or title, as substrings, any case, short words too', async () => {
    const store = await make();
    await store.put('team:a', [
      stored(taskRecord(1, { prompt: 'A red Fox at dawn' })),
      stored(taskRecord(2, { prompt: 'a blue whale' })),
      stored(taskRecord(3, { prompt: '夕暮れの狐' })),
      stored(taskRecord(4, { prompt: 'ox cart' })),
    ]);
    expect(await all(store, 'team:a', { q: 'fox DAWN' })).toEqual(['task-000001']);
    expect(await all(store, 'team:a', { q: 'fox whale' })).toEqual([]);
    expect(await all(store, 'team:a', { q: 'image model' })).toHaveLength(4);
    expect(await all(store, 'team:a', { q: 'ox' })).toEqual(['task-000004', 'task-000001']);
    expect(await all(store, 'team:a', { q: '狐' })).toEqual(['task-000003']);
    expect(await all(store, 'team:a', { q: 'the "quoted" OR' })).toEqual([]);
  });

  it('filters by member and by month', async () => {
    const store = await make();
    await store.put('team:a', [
      stored(taskRecord(1, { by: 'ada', createdAt: MONTH + DAY })),
      stored(taskRecord(2, { by: 'bob', createdAt: MONTH + 2 * DAY })),
      stored(taskRecord(3, { by: 'ada', createdAt: MONTH + 40 * DAY })),
    ]);
    expect(await all(store, 'team:a', { by: 'ada' })).toEqual(['task-000003', 'task-000001']);
    expect(await all(store, 'team:a', { month: '2026-01' })).toEqual(['task-000002', 'task-000001']);
    expect(await all(store, 'team:a', { month: '2026-02', by: 'bob' })).toEqual([]);
  });

  it('keeps one row per task, never a finished one replaced by an unfinished one, and sums each month', async () => {
    const store = await make();
    await store.put('team:a', [
      stored(taskRecord(1, { status: 'running', credits: 0 })),
      stored(taskRecord(2, { by: 'bob', status: 'failed', credits: 0 })),
      stored(taskRecord(3, { createdAt: MONTH + 40 * DAY, credits: 5 })),
    ]);
    await store.put('team:a', [stored(taskRecord(1, { status: 'succeeded', credits: 3 }))]);
    await store.put('team:a', [stored(taskRecord(1, { status: 'running', credits: 0 }))]);
    expect(await store.count('team:a')).toBe(3);
    const one = await store.page('team:a', { month: '2026-01', by: 'ada' });
    expect(one.tasks).toEqual([taskRecord(1, { status: 'succeeded', credits: 3 })]);
    expect(await store.months('team:a')).toEqual([
      { month: '2026-01', by: 'ada', tasks: 1, succeeded: 1, failed: 0, credits: 3 },
      { month: '2026-01', by: 'bob', tasks: 1, succeeded: 0, failed: 1, credits: 0 },
      { month: '2026-02', by: 'ada', tasks: 1, succeeded: 1, failed: 0, credits: 5 },
    ]);
  });

  it('answers an empty page for a cursor it did not write', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1))]);
    expect(await store.page('team:a', { before: 'not a cursor' })).toEqual({
      tasks: [],
      next: null,
      attached: [],
    });
  });

  it('attach to a stored task shows in its page, in the page order, and answers its task id', async () => {
    const store = await make();
    await store.put(
      'team:a',
      [1, 2, 3].map((n) => stored(taskRecord(n))),
    );
    const one = said(1, { 'ada|task-000001#0': { starred: true, rating: null, updatedAt: 5 } });
    const three = said(3, {}, { c1: comment('c1', 'nice fox') });
    expect(await store.attach('team:a', [one, three])).toEqual(new Set(['task-000001', 'task-000003']));
    expect((await store.page('team:a', {})).attached).toEqual([three, one]);
    // A page answers only its own tasks' attachments.
    const first = await store.page('team:a', { limit: 2 });
    expect(first.attached).toEqual([three]);
    expect((await store.page('team:a', { before: first.next! })).attached).toEqual([one]);
    expect((await store.page('team:b', {})).attached).toEqual([]);
  });

  it('attach to a task with no row keeps nothing and leaves it out of the answered set', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1))]);
    await store.put('team:b', [stored(taskRecord(2))]);
    const answered = await store.attach('team:a', [
      said(1, {}, { c1: comment('c1', 'kept') }),
      said(2, {}, { c2: comment('c2', 'another room') }),
      said(9, {}, { c9: comment('c9', 'no row') }),
    ]);
    expect(answered).toEqual(new Set(['task-000001']));
    // The task arriving later does not find what was said before it.
    await store.put('team:a', [stored(taskRecord(9))]);
    expect((await store.page('team:a', {})).attached).toEqual([said(1, {}, { c1: comment('c1', 'kept') })]);
    expect((await store.page('team:b', {})).attached).toEqual([]);
    expect(await store.attach('team:a', [])).toEqual(new Set());
  });

  it('merges judgements by time (a newer wins, an older does not replace, a blank removes) and comments by id', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1))]);
    const star = (updatedAt: number) => ({ starred: true, rating: null, updatedAt });
    const rate = (rating: number, updatedAt: number) => ({ starred: false, rating, updatedAt });
    const blank = (updatedAt: number) => ({ starred: false, rating: null, updatedAt });
    await store.attach('team:a', [
      said(
        1,
        { 'ada|o#0': star(10), 'bob|o#0': rate(3, 10), 'cy|o#0': star(10) },
        { c1: comment('c1', 'one') },
      ),
    ]);
    await store.attach('team:a', [
      said(
        1,
        { 'ada|o#0': rate(5, 20), 'bob|o#0': rate(1, 5), 'cy|o#0': blank(20), 'dee|o#0': blank(20) },
        { c1: comment('c1', 'one, edited'), c2: comment('c2', 'two') },
      ),
    ]);
    const expected = said(
      1,
      { 'ada|o#0': rate(5, 20), 'bob|o#0': rate(3, 10) },
      { c1: comment('c1', 'one, edited'), c2: comment('c2', 'two') },
    );
    expect((await store.page('team:a', {})).attached).toEqual([expected]);

    // Several items for one task in one call merge in order: the last of equal times wins.
    await store.attach('team:a', [
      said(1, { 'ada|o#0': star(30) }, { c3: comment('c3', 'three') }),
      said(1, { 'ada|o#0': blank(30), 'bob|o#0': rate(4, 31) }, { c3: comment('c3', 'three, edited') }),
    ]);
    expect((await store.page('team:a', {})).attached).toEqual([
      said(
        1,
        { 'bob|o#0': rate(4, 31) },
        { c1: comment('c1', 'one, edited'), c2: comment('c2', 'two'), c3: comment('c3', 'three, edited') },
      ),
    ]);
  });

  it('a blank judgement that removes the last thing said leaves the task with nothing attached', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1))]);
    await store.attach('team:a', [said(1, { 'ada|o#0': { starred: true, updatedAt: 1 } })]);
    expect(await store.attach('team:a', [said(1, { 'ada|o#0': { starred: false, updatedAt: 2 } })])).toEqual(
      new Set(['task-000001']),
    );
    expect((await store.page('team:a', {})).attached).toEqual([]);
  });

  it('a later put of the same task keeps its attachments', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1, { status: 'running', credits: 0 }))]);
    const one = said(1, { 'ada|o#0': { starred: true, updatedAt: 1 } }, { c1: comment('c1', 'fox') });
    await store.attach('team:a', [one]);
    // Replaced (finished now), then not replaced (an unfinished record after a finished one).
    await store.put('team:a', [stored(taskRecord(1, { status: 'succeeded', credits: 3 }))]);
    await store.put('team:a', [stored(taskRecord(1, { status: 'running', credits: 0 }))]);
    const page = await store.page('team:a', {});
    expect(page.tasks).toEqual([taskRecord(1, { status: 'succeeded', credits: 3 })]);
    expect(page.attached).toEqual([one]);
  });

  it('attach leaves the months and the count as they were', async () => {
    const store = await make();
    await store.put('team:a', [
      stored(taskRecord(1)),
      stored(taskRecord(2, { by: 'bob', status: 'failed', credits: 0 })),
    ]);
    const months = await store.months('team:a');
    await store.attach('team:a', [
      said(1, { 'ada|o#0': { starred: true, updatedAt: 1 } }),
      said(2, {}, { c1: comment('c1', 'why') }),
      said(3, {}, { c3: comment('c3', 'no row') }),
    ]);
    expect(await store.months('team:a')).toEqual(months);
    expect(await store.count('team:a')).toBe(2);
  });

  it('a page of tasks nothing was said about answers attached: []', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1)), stored(taskRecord(2))]);
    await store.attach('team:a', [said(1, {}, { c1: comment('c1', 'older') })]);
    const page = await store.page('team:a', { limit: 1 });
    expect(page.tasks).toHaveLength(1);
    expect(page.attached).toEqual([]);
    expect((await store.page('team:a', { q: 'nothing matches this' })).attached).toEqual([]);
    expect((await store.page('team:empty', {})).attached).toEqual([]);
  });

  it('keeps no more than MAX_ATTACHED_BYTES for one task: what would pass it is not kept, nor its task answered', async () => {
    const store = await make();
    await store.put('team:a', [stored(taskRecord(1)), stored(taskRecord(2))]);
    const big = (from: number) =>
      Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`c${from + i}`, comment(`c${from + i}`, 'x'.repeat(1_000))]),
      );
    expect([...(await store.attach('team:a', [said(1, {}, big(0))]))]).toEqual(['task-000001']);
    expect([...(await store.attach('team:a', [said(1, {}, big(100))]))]).toEqual(['task-000001']);
    // The third hundred would pass 256 KB: refused whole, the row as it was; another task still attaches.
    const answered = await store.attach('team:a', [said(1, {}, big(200)), said(2, {}, big(0))]);
    expect([...answered]).toEqual(['task-000002']);
    const attached = (await store.page('team:a', {})).attached;
    expect(Object.keys(attached.find((a) => a.taskId === 'task-000001')!.comments)).toHaveLength(200);
  });

  it('stops a page at MAX_PAGE_BYTES, with a cursor that goes on where it stopped', async () => {
    const store = await make();
    const records = Array.from({ length: 30 }, (_, i) => taskRecord(i + 1));
    await store.put('team:a', records.map(stored));
    // 30 tasks with some 200 KB said about each: 6 MB, more than one page holds.
    const lots = Object.fromEntries(
      Array.from({ length: 190 }, (_, i) => [`c${i}`, comment(`c${i}`, 'y'.repeat(1_000))]),
    );
    await store.attach(
      'team:a',
      records.map((_, i) => said(i + 1, {}, lots)),
    );
    const first = await store.page('team:a', { limit: 500 });
    expect(first.tasks.length).toBeGreaterThan(0);
    expect(first.tasks.length).toBeLessThan(30);
    expect(JSON.stringify(first).length).toBeLessThan(MAX_PAGE_BYTES + 300 * 1024);
    expect(first.next).not.toBeNull();
    const seen = await all(store, 'team:a', { limit: 500 });
    expect(seen).toEqual(records.map((r) => r.taskId).reverse());
  });
}
