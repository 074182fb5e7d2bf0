import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import type * as Y from 'yjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from '../history/history-store';
import { CONNECTION, makeEntry, T0 } from '../../test/gallery-test-utils';
import { connect, encoded, member, syncAll } from '../../test/team-test-utils';
import {
  ADOPT_AFTER_MS,
  bridgeHistory,
  fromTeamTask,
  TeamTasks,
  toTeamTask,
  TeamTaskSchema,
  UNFOLLOWED_AFTER_MS,
} from './team-tasks';
import { teamQueueOf } from './team-queue-order';
import { PollBudget } from '../tasks/poll-budget';
import { PollSchedule } from '../tasks/poll-schedule';
import { scheduleTask } from '../tasks/task-poller';

async function freshDatabase(): Promise<void> {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
/** A second after the tasks of makeEntry were made: before anything is adopted or unfollowed. */
const soon = () => T0 + 1_000;

describe('the team history mapping', () => {
  it('an entry goes into the document without its connection, raw answer or unseen mark, and comes back by its member', () => {
    const entry = makeEntry('t1', {
      raw: { secret: 'raw answer' },
      unseen: true,
      idempotencyKey: 'idem-1',
      meta: { batchId: 'b1', batchIndex: 1, batchSize: 2 },
    });
    const record = toTeamTask(entry, 'key-a');
    expect(record).not.toHaveProperty('connectionId');
    expect(record).not.toHaveProperty('raw');
    expect(record).not.toHaveProperty('unseen');
    const parsed = TeamTaskSchema.parse(record);
    const back = fromTeamTask(parsed, 'Ana', 'conn-other');
    const { raw: _raw, unseen: _unseen, connectionId: _c, ...kept } = entry;
    expect(back).toEqual({
      ...kept,
      connectionId: 'conn-other',
      unseen: false,
      by: { id: 'key-a', name: 'Ana' },
    });
  });

  it('a record filed under another task id, or of the wrong shape, is skipped', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    const map = a.doc.getMap('tasks');
    map.set('t1', { ...toTeamTask(makeEntry('t2'), 'key-a') });
    map.set('t3', { taskId: 't3', by: 'key-a', status: 'exploded' });
    map.set('t4', toTeamTask(makeEntry('t4'), 'key-a'));
    expect([...tasks.snapshot().keys()]).toEqual(['t4']);
  });
});

describe('TeamTasks.hold: a burst told once', () => {
  it('changes while held are read at once but told once, together, when the last hold is released', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    const told: string[][] = [];
    tasks.subscribe((changed) => told.push([...changed].sort()));
    const map = a.doc.getMap('tasks');
    const release = tasks.hold();
    const inner = tasks.hold();
    map.set('t1', toTeamTask(makeEntry('t1'), 'key-a'));
    map.set('t2', toTeamTask(makeEntry('t2'), 'key-a'));
    expect([...tasks.snapshot().keys()].sort()).toEqual(['t1', 't2']);
    inner();
    expect(told).toEqual([]);
    release();
    release();
    expect(told).toEqual([['t1', 't2']]);
    map.set('t3', toTeamTask(makeEntry('t3'), 'key-a'));
    expect(told).toEqual([['t1', 't2'], ['t3']]);
  });
});

describe('TeamTasks.share: never what the server refuses', () => {
  it('leaves a record of another member under the same id alone, even one this studio cannot read', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    const theirs = { taskId: 't1', by: 'key-b', status: 'a status of a newer studio', createdAt: 1 };
    a.doc.getMap('tasks').set('t1', theirs);
    expect(tasks.get('t1')).toBeUndefined();
    expect(tasks.share([makeEntry('t1')])).toBe(0);
    expect(a.doc.getMap('tasks').get('t1')).toEqual(theirs);
  });

  it('writes a record as JSON, with no field left undefined (the server refuses what is not JSON)', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    tasks.share([
      makeEntry('t1', { status: 'running', outputs: [], completedAt: undefined, error: undefined }),
    ]);
    const stored = a.doc.getMap('tasks').get('t1') as Record<string, unknown>;
    expect(Object.entries(stored).filter(([, v]) => v === undefined)).toEqual([]);
  });

  it('shares nothing past the member’s share, and never a task taken out of the team again', () => {
    const a = member('key-a');
    let room = true;
    const tasks = new TeamTasks(a, { allows: () => room }, ['t2']);
    expect(tasks.share([makeEntry('t1'), makeEntry('t2')])).toBe(1);
    expect([...tasks.snapshot().keys()]).toEqual(['t1']);
    room = false;
    expect(tasks.share([makeEntry('t3')])).toBe(0);
    room = true;
    tasks.restore(['t2']);
    expect(tasks.share([makeEntry('t2')])).toBe(1);
  });
});

describe('TeamTasks.share', () => {
  it('writes own entries once per state, never another member’s, never a finished task back to unfinished', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    let updates = 0;
    a.doc.on('update', () => updates++);
    expect(tasks.share([makeEntry('t1', { status: 'running', outputs: [] })])).toBe(1);
    expect(tasks.share([makeEntry('t1', { status: 'running', outputs: [] })])).toBe(0);
    expect(tasks.share([makeEntry('t1')])).toBe(1);
    expect(tasks.share([makeEntry('t1', { status: 'running', outputs: [] })])).toBe(0);
    expect(tasks.snapshot().get('t1')?.status).toBe('succeeded');
    expect(tasks.share([makeEntry('t9', { by: { id: 'key-b', name: 'Bo' } })])).toBe(0);
    expect(updates).toBe(2);
  });
});

describe('bridgeHistory', () => {
  beforeEach(freshDatabase);

  it('a task made on one member’s device shows in the other’s history by its member, and is not theirs to poll', async () => {
    const a = member('key-a');
    const b = member('key-b');
    connect(a.doc, b.doc);
    const historyA = await HistoryStore.open(CONNECTION);
    const historyB = await HistoryStore.open('conn-b');
    const bridgeA = bridgeHistory(historyA, new TeamTasks(a), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      now: soon,
    });
    const bridgeB = bridgeHistory(historyB, new TeamTasks(b), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      now: soon,
    });

    await historyA.put(makeEntry('t1', { status: 'running', outputs: [], completedAt: null }));
    await flush();
    const seen = historyB.get('t1');
    expect(seen).toMatchObject({ taskId: 't1', status: 'running', by: { id: 'key-a', name: 'Ana' } });
    expect(historyB.pending()).toEqual([]);
    expect(historyB.localList()).toEqual([]);
    expect(historyB.list().map((e) => e.taskId)).toEqual(['t1']);

    // Ana's poll sees the result: Bo's history shows it without a poll of its own.
    await historyA.applyTask({
      taskId: 't1',
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.example.test/out/t1.png' }],
      error: null,
      creditsCharged: 4,
      createdAt: new Date(T0).toISOString(),
      completedAt: new Date(T0 + 5_000).toISOString(),
    });
    await flush();
    expect(historyB.get('t1')).toMatchObject({ status: 'succeeded', creditsCharged: 4 });
    expect(historyB.hasOutput('t1#0')).toBe(true);

    // Nothing of the team's is written to Bo's own history, or exported from it.
    expect(JSON.parse(await historyB.exportFile()).tasks).toEqual([]);
    bridgeA.stop();
    bridgeB.stop();
    expect(historyB.list()).toEqual([]);
  });

  it('tasks from before the team space was on are shared only when the member says so', async () => {
    const a = member('key-a');
    const history = await HistoryStore.open(CONNECTION);
    await history.put(makeEntry('old', { createdAt: T0 - 60_000 }));
    const tasks = new TeamTasks(a);
    const bridge = bridgeHistory(history, tasks, { sharedSince: T0, nameOf: () => 'Ana', now: soon });
    await history.put(makeEntry('new', { createdAt: T0 + 1 }));
    await flush();
    expect([...tasks.snapshot().keys()]).toEqual(['new']);
    expect(bridge.earlier().map((e) => e.taskId)).toEqual(['old']);
    expect(bridge.shareEarlier()).toBe(1);
    expect([...tasks.snapshot().keys()].sort()).toEqual(['new', 'old']);
    bridge.stop();
  });

  it('members who shared while apart end with the same document once they meet', () => {
    const docs = ['key-a', 'key-b', 'key-c'].map((id) => member(id));
    const stores = docs.map((d) => new TeamTasks(d));
    stores.forEach((s, i) =>
      s.share([makeEntry(`t${i}`, { status: 'running', outputs: [] }), makeEntry(`u${i}`)]),
    );
    syncAll(docs[0]!.doc, docs[1]!.doc);
    stores[0]!.share([makeEntry('t0')]);
    syncAll(...docs.map((d) => d.doc));
    const states = docs.map((d) => encoded(d.doc));
    expect(new Set(states).size).toBe(1);
    expect(stores[2]!.snapshot().get('t0')?.status).toBe('succeeded');
    expect(stores[2]!.snapshot().size).toBe(6);
  });
});

describe('one member on two devices', () => {
  beforeEach(freshDatabase);

  it('a task made on my other device shows as mine (no member name) and is not polled here', async () => {
    const laptop = member('key-a');
    const phone = member('key-a');
    connect(laptop.doc, phone.doc);
    const historyLaptop = await HistoryStore.open(CONNECTION);
    const historyPhone = await HistoryStore.open('conn-phone');
    const a = bridgeHistory(historyLaptop, new TeamTasks(laptop), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      now: soon,
    });
    const b = bridgeHistory(historyPhone, new TeamTasks(phone), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      now: soon,
    });
    await historyLaptop.put(makeEntry('t1', { status: 'running', outputs: [], completedAt: null }));
    await flush();
    expect(historyPhone.get('t1')).toBeDefined();
    expect(historyPhone.get('t1')?.by).toBeUndefined();
    expect(historyPhone.pending()).toEqual([]);
    a.stop();
    b.stop();
  });
});

describe('tasks nobody polls any more', () => {
  beforeEach(freshDatabase);

  it('my own unfinished task this device lacks (another device, or storage cleared) is taken in after two minutes, polled here and its end shared', async () => {
    const laptop = member('key-a');
    const phone = member('key-a');
    connect(laptop.doc, phone.doc);
    // The laptop made the task and went away (or its storage was cleared): only the document has it.
    const laptopTasks = new TeamTasks(laptop);
    laptopTasks.share([makeEntry('t1', { status: 'running', outputs: [], completedAt: null })]);
    let now = T0 + ADOPT_AFTER_MS - 1_000;
    const historyPhone = await HistoryStore.open('conn-phone');
    const bridge = bridgeHistory(historyPhone, new TeamTasks(phone), {
      // Turned on here after the task was made: adopted tasks are shared back all the same.
      sharedSince: T0 + 60 * 60_000,
      nameOf: () => 'Ana',
      now: () => now,
    });
    await flush();
    expect(historyPhone.isLocal('t1')).toBe(false);
    expect(historyPhone.pending()).toEqual([]);

    // Two minutes on, nobody has shared its end: the phone takes it in, and its poller will poll it.
    now = T0 + ADOPT_AFTER_MS + 1_000;
    bridge.recheck();
    await flush();
    await flush();
    expect(historyPhone.isLocal('t1')).toBe(true);
    expect(historyPhone.pending().map((e) => e.taskId)).toEqual(['t1']);

    // The phone's poll sees its end: shared into the document, which the laptop's copy shows.
    await historyPhone.applyTask({
      taskId: 't1',
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.example.test/out/t1.png' }],
      error: null,
      creditsCharged: 4,
      createdAt: new Date(T0).toISOString(),
      completedAt: new Date(T0 + 5_000).toISOString(),
    });
    await flush();
    expect(laptopTasks.get('t1')?.status).toBe('succeeded');
    bridge.stop();
  });

  it("another member's unfinished task, its maker away for fifteen minutes, is unfollowed: out of the team queue and the forecasts, until the maker is back", async () => {
    const a = member('key-a');
    const b = member('key-b');
    connect(a.doc, b.doc);
    new TeamTasks(a).share([makeEntry('t1', { status: 'queued', outputs: [], completedAt: null })]);
    let now = T0 + UNFOLLOWED_AFTER_MS - 1_000;
    let anaOnline = false;
    const historyB = await HistoryStore.open('conn-b');
    const bridge = bridgeHistory(historyB, new TeamTasks(b), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      isOnline: () => anaOnline,
      now: () => now,
    });
    await flush();
    const schedule = new PollSchedule({ budget: new PollBudget() });
    schedule.sync(historyB.list().map(scheduleTask));
    expect(historyB.get('t1')?.by?.unfollowed).toBeUndefined();
    expect(teamQueueOf(historyB.list()).map((e) => e.taskId)).toEqual(['t1']);
    expect(schedule.has('t1')).toBe(true);

    now = T0 + UNFOLLOWED_AFTER_MS + 1_000;
    bridge.recheck();
    await flush();
    expect(historyB.get('t1')?.by).toMatchObject({ id: 'key-a', unfollowed: true });
    expect(historyB.get('t1')?.status).toBe('queued'); // what was last shared: not made up
    expect(teamQueueOf(historyB.list())).toEqual([]);
    schedule.update(historyB.list().map(scheduleTask));
    expect(schedule.forecast('t1')).toBeNull();

    // Ana's studio is in the room again: hers to follow, shown as before.
    anaOnline = true;
    bridge.recheck();
    await flush();
    expect(historyB.get('t1')?.by?.unfollowed).toBeUndefined();
    expect(teamQueueOf(historyB.list()).map((e) => e.taskId)).toEqual(['t1']);
    schedule.stop();
    bridge.stop();
  });
});

describe('a big team history', () => {
  beforeEach(freshDatabase);

  it('a change of one record touches one entry of the history: the others stay the same objects, in order', async () => {
    const a = member('key-a');
    const b = member('key-b');
    connect(a.doc, b.doc);
    const tasksA = new TeamTasks(a);
    tasksA.share(
      Array.from({ length: 300 }, (_, i) =>
        makeEntry(`t${i}`, { status: 'running', outputs: [], completedAt: null, createdAt: T0 + i }),
      ),
    );
    const history = await HistoryStore.open('conn-b');
    const bridge = bridgeHistory(history, new TeamTasks(b), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      now: soon,
    });
    const before = history.list();
    expect(before).toHaveLength(300);

    tasksA.share([makeEntry('t7', { createdAt: T0 + 7 })]);
    await flush();
    const after = history.list();
    expect(after).toHaveLength(300);
    expect(after.map((e) => e.taskId)).toEqual(before.map((e) => e.taskId));
    expect(after.filter((e, i) => e !== before[i]).map((e) => e.taskId)).toEqual(['t7']);
    expect(history.get('t7')?.status).toBe('succeeded');

    // A record gone from the document (unreadable now) leaves the history.
    a.doc.getMap('tasks').set('t8', { taskId: 't8', broken: true });
    await flush();
    expect(history.get('t8')).toBeUndefined();
    expect(history.list()).toHaveLength(299);
    bridge.stop();
  });
});

describe('tasks the server moved to its store (history at scale)', () => {
  beforeEach(freshDatabase);

  /** What the server's move does to a copy of the room: the records deleted, the watermark raised. */
  const serverMoves = (doc: Y.Doc, ids: string[], before: number) =>
    doc.transact(() => {
      for (const id of ids) doc.getMap('tasks').delete(id);
      doc.getMap('meta').set('archivedBefore', before);
    }, 'server-archive');

  it('a finished task of mine made before the watermark is not shared again; unfinished or later ones are', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    expect(tasks.share([makeEntry('old', { createdAt: T0 - 10 })])).toBe(1);
    serverMoves(a.doc, ['old'], T0);
    expect(tasks.archivedBefore()).toBe(T0);
    // The device's history still has it, finished: it stays in the server's store, not back in the room.
    expect(tasks.share([makeEntry('old', { createdAt: T0 - 10 })])).toBe(0);
    expect(tasks.share([makeEntry('late', { createdAt: T0 - 5, status: 'running', outputs: [] })])).toBe(1);
    expect(tasks.share([makeEntry('new', { createdAt: T0 + 1 })])).toBe(1);
    // Its record is in the room (an unfinished copy): its end is shared whatever its age.
    expect(tasks.share([makeEntry('late', { createdAt: T0 - 5 })])).toBe(1);
    expect([...tasks.snapshot().keys()].sort()).toEqual(['late', 'new']);
  });

  it('a record the server moves out stays in the other member’s list, as an earlier task; one withdrawn leaves it', async () => {
    const a = member('key-a');
    const b = member('key-b');
    connect(a.doc, b.doc);
    const historyB = await HistoryStore.open('conn-b');
    const kept: string[] = [];
    const earlier = {
      entries: () => [].values(),
      keep: (entries: readonly { taskId: string }[]) => kept.push(...entries.map((e) => e.taskId)),
    };
    const tasksA = new TeamTasks(a);
    const bridge = bridgeHistory(historyB, new TeamTasks(b), {
      sharedSince: T0,
      nameOf: () => 'Ana',
      now: soon,
      earlier,
    });
    tasksA.share([makeEntry('t1', { createdAt: T0 - 10 }), makeEntry('t2', { createdAt: T0 + 9 })]);
    await flush();
    expect(historyB.list().map((e) => e.taskId)).toEqual(['t2', 't1']);
    serverMoves(b.doc, ['t1'], T0);
    await flush();
    expect(kept).toEqual(['t1']);
    expect(historyB.list().map((e) => e.taskId)).toEqual(['t2', 't1']);
    // Taken out of the team by its maker (Free space), made after the watermark: gone from the list.
    a.doc.getMap('tasks').delete('t2');
    await flush();
    expect(kept).toEqual(['t1']);
    expect(historyB.list().map((e) => e.taskId)).toEqual(['t1']);
    bridge.stop();
  });
});
