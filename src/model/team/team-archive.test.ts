import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from '../history/history-store';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { cursorBefore, decodeCursor, encodeCursor } from '../../../contract/team-history';
import { TeamArchive } from './team-archive';
import { toTeamTask } from './team-tasks';

// The team's earlier tasks read from the team-space server (team-archive.ts), against a fake of its two
// routes that keeps every request it was sent.

async function freshDatabase(): Promise<void> {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
}

const KEY = 'ms_live_team_key_000000000000';
/** 450 earlier tasks of Bo's, newest first, as the server pages them. */
const records = Array.from({ length: 450 }, (_, i) =>
  toTeamTask(makeEntry(`old-${String(449 - i).padStart(3, '0')}`, { createdAt: T0 - 1_000 - i }), 'key-b'),
);

function fakeServer(behaviour: { status?: number; fail?: boolean } = {}) {
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push({ url, headers: init?.headers as Record<string, string> });
    if (behaviour.fail) throw new TypeError('Failed to fetch');
    if (behaviour.status) return new Response('{}', { status: behaviour.status });
    const params = new URL(url).searchParams;
    if (new URL(url).pathname.endsWith('/months'))
      return Response.json({
        months: [{ month: '2026-01', by: 'key-b', tasks: 450, succeeded: 450, failed: 0, credits: 1800 }],
      });
    const limit = Number(params.get('limit'));
    const q = params.get('q');
    let list = q
      ? records.filter((r) => String((r.request as { params: { prompt: string } }).params.prompt).includes(q))
      : records;
    const before = params.get('before');
    // A cursor at a moment (cursorBefore): the tasks made before it, as the stores page them.
    const at = before?.includes('~') ? decodeCursor(before) : null;
    if (at)
      list = list.filter(({ createdAt, taskId }) => {
        const [time, id] = [createdAt as number, taskId as string];
        return time < at.createdAt || (time === at.createdAt && id < at.taskId);
      });
    else if (before) list = list.slice(Number(before));
    const start = before && !at ? Number(before) : 0;
    const page = list.slice(0, limit);
    const next =
      list.length <= limit
        ? null
        : at
          ? encodeCursor(page.at(-1)!.createdAt as number, page.at(-1)!.taskId as string)
          : String(start + limit);
    return Response.json({ tasks: page, next });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

async function archiveWith(server: ReturnType<typeof fakeServer>, archivedBefore = T0) {
  const history = await HistoryStore.open('conn-a');
  const archive = new TeamArchive({
    baseUrl: 'http://studio.test/sync',
    token: () => KEY,
    history,
    memberId: 'key-a',
    nameOf: (id) => (id === 'key-b' ? 'Bo' : id),
    archivedBefore: () => archivedBefore,
    fetch: server.fetch,
  });
  return { history, archive };
}

describe('the team’s earlier tasks', () => {
  beforeEach(freshDatabase);

  it('reads page after page into the history, by their member, until the end; the key only in the Authorization header', async () => {
    const server = fakeServer();
    const { history, archive } = await archiveWith(server);
    expect(archive.snapshot()).toMatchObject({ exists: true, status: 'idle', loaded: 0 });
    await archive.loadMore();
    expect(history.list()).toHaveLength(200);
    expect(history.list()[0]).toMatchObject({ taskId: 'old-449', by: { id: 'key-b', name: 'Bo' } });
    // Nothing of the team's is written to the device's own history.
    expect(history.localList()).toEqual([]);
    await archive.loadMore();
    await archive.loadMore();
    expect(history.list()).toHaveLength(450);
    expect(archive.snapshot()).toMatchObject({ status: 'done', loaded: 450 });
    await archive.loadMore();
    expect(server.requests).toHaveLength(3);
    for (const r of server.requests) {
      expect(r.url).not.toContain(KEY);
      expect(r.headers.Authorization).toBe(`Bearer ${KEY}`);
    }
    expect(server.requests.map((r) => new URL(r.url).searchParams.get('before'))).toEqual([
      null,
      '200',
      '400',
    ]);
  });

  it('a search asks the server once per text, and what it finds joins the list', async () => {
    const server = fakeServer();
    const { history, archive } = await archiveWith(server);
    await archive.search('prompt of old-12');
    await archive.search('prompt of old-12');
    expect(server.requests).toHaveLength(1);
    expect(new URL(server.requests[0]!.url).searchParams.get('q')).toBe('prompt of old-12');
    expect(
      history
        .list()
        .map((e) => e.taskId)
        .sort(),
    ).toEqual([
      'old-120',
      'old-121',
      'old-122',
      'old-123',
      'old-124',
      'old-125',
      'old-126',
      'old-127',
      'old-128',
      'old-129',
    ]);
    expect(archive.snapshot().searching).toBe(false);
  });

  it('says why it could not read: a refused key, too many reads just now, or no answer; a try after that reads again', async () => {
    const refused = await archiveWith(fakeServer({ status: 401 }));
    await refused.archive.loadMore();
    expect(refused.archive.snapshot()).toMatchObject({ status: 'error', error: 'refused' });
    const busy = await archiveWith(fakeServer({ status: 429 }));
    await busy.archive.loadMore();
    expect(busy.archive.snapshot()).toMatchObject({ status: 'error', error: 'busy' });
    const down = fakeServer({ fail: true });
    const unreachable = await archiveWith(down);
    await unreachable.archive.loadMore();
    expect(unreachable.archive.snapshot()).toMatchObject({ status: 'error', error: 'unreachable' });
    await unreachable.archive.loadMore();
    expect(down.requests).toHaveLength(2);
  });

  it('a stretch of dates is read from its own end, and is done once past its start; the rest stays to read', async () => {
    const server = fakeServer();
    const { history, archive } = await archiveWith(server);
    // The 100 tasks made from T0 - 1,300 (inclusive) to T0 - 1,200 (exclusive).
    const range = archive.within({ until: T0 - 1_200, since: T0 - 1_300 });
    expect(archive.within({ until: T0 - 1_200, since: T0 - 1_300 })).toBe(range);
    expect(archive.within({})).toBe(archive);
    expect(range.snapshot()).toMatchObject({ exists: true, status: 'idle' });
    await range.loadMore();
    const first = new URL(server.requests[0]!.url).searchParams.get('before');
    expect(first).toBe(cursorBefore(T0 - 1_200));
    // The page of 200 from the range's end reaches past its start: done.
    expect(range.snapshot().status).toBe('done');
    const shown = history.list().filter((e) => e.createdAt < T0 - 1_200 && e.createdAt >= T0 - 1_300);
    expect(shown).toHaveLength(100);
    expect(history.list()[0]!.createdAt).toBe(T0 - 1_201);
    // The list from today is a reader of its own: still at its start.
    expect(archive.snapshot().status).toBe('idle');
    await range.loadMore();
    expect(server.requests).toHaveLength(1);
  });

  it('a room the server has moved nothing out of has no earlier tasks to read', async () => {
    const server = fakeServer();
    const { archive } = await archiveWith(server, 0);
    expect(archive.snapshot().exists).toBe(false);
    await archive.search('fox');
    expect(server.requests).toEqual([]);
  });

  it('reads the team’s sums per month and member', async () => {
    const { archive } = await archiveWith(fakeServer());
    expect(await archive.months()).toEqual([
      { month: '2026-01', by: 'key-b', tasks: 450, succeeded: 450, failed: 0, credits: 1800 },
    ]);
  });
});
