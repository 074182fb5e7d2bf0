import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { TaskCreated } from '../../../contract/task';
import { member } from '../../test/team-test-utils';
import { DB_NAME, db, resetDbForTests } from '../db';
import { slotsToFill, TaskQueue } from '../queue/queue';
import { heldByMember, onPresence, poolShare, publishHeld } from './team-queue-share';

const othersWaiting = (team: Parameters<typeof poolShare>[0]) => poolShare(team).othersWaiting;

/** Presence relayed as a server would, one way and the other. */
function relay(a: ReturnType<typeof member>, b: ReturnType<typeof member>) {
  const send = (from: typeof a, to: typeof a) => (_changes?: unknown, origin?: unknown) => {
    if (origin === 'remote') return;
    applyAwarenessUpdate(to.awareness, encodeAwarenessUpdate(from.awareness, [from.doc.clientID]), 'remote');
  };
  a.awareness.on('update', send(a, b));
  b.awareness.on('update', send(b, a));
}

describe('the team queue in presence', () => {
  it('each member sees what the others hold, and keeps to a fair share while they wait', () => {
    const a = member('key-a');
    const b = member('key-b');
    relay(a, b);
    a.awareness.setLocalStateField('member', { id: 'key-a', name: 'Ana' });
    b.awareness.setLocalStateField('member', { id: 'key-b', name: 'Bo' });
    publishHeld(a, { held: 12, waiting: 12 });
    expect(othersWaiting(b)).toBe(1);
    expect(othersWaiting(a)).toBe(0);
    expect(heldByMember(b)).toEqual([{ memberId: 'key-a', held: 12, waiting: 12, you: false }]);
    // Bo queues too: on a pool of 4 with nothing running, each takes 2 while the other waits.
    publishHeld(b, { held: 3, waiting: 3 });
    expect(
      slotsToFill({ concurrency: 4, busy: 0, mineBusy: 0, sending: 0, othersWaiting: othersWaiting(a) }),
    ).toBe(2);
    // Ana's queue empties: Bo may fill the whole free pool.
    publishHeld(a, { held: 0, waiting: 0 });
    expect(othersWaiting(b)).toBe(0);
  });

  it('a member whose queue is paused is shown holding its tasks, but takes no share of the pool', () => {
    const a = member('key-a');
    const b = member('key-b');
    relay(a, b);
    a.awareness.setLocalStateField('member', { id: 'key-a', name: 'Ana' });
    publishHeld(a, { held: 3, waiting: 0 });
    expect(heldByMember(b)).toEqual([{ memberId: 'key-a', held: 3, waiting: 0, you: false }]);
    expect(othersWaiting(b)).toBe(0);
    // An older studio says only how many it holds: all of them count as waiting, as they did.
    a.awareness.setLocalStateField('queue', { held: 2 });
    expect(othersWaiting(b)).toBe(1);
  });

  it('ranks the members waiting by id, alike in every studio, so a pool of 5 among three is 2 + 2 + 1', () => {
    const c = member('key-c');
    const a = member('key-a');
    const b = member('key-b');
    relay(a, b);
    relay(b, c);
    relay(a, c);
    for (const [m, id] of [
      [a, 'key-a'],
      [b, 'key-b'],
      [c, 'key-c'],
    ] as const) {
      m.awareness.setLocalStateField('member', { id, name: id });
      publishHeld(m, { held: 4, waiting: 4 });
    }
    const shares = [a, b, c].map((m) => poolShare(m));
    expect(shares).toEqual([
      { othersWaiting: 2, rank: 0 },
      { othersWaiting: 2, rank: 1 },
      { othersWaiting: 2, rank: 2 },
    ]);
    const slots = shares.map((share) =>
      slotsToFill({ concurrency: 5, busy: 0, mineBusy: 0, sending: 0, ...share }),
    );
    expect(slots.reduce((x, y) => x + y)).toBe(5);
  });

  it('ignores a presence that does not parse (a hostile client)', () => {
    const a = member('key-a');
    const b = member('key-b');
    relay(a, b);
    a.awareness.setLocalStateField('member', { id: 'key-a', name: 'Ana' });
    a.awareness.setLocalStateField('queue', { held: 'lots' });
    expect(othersWaiting(b)).toBe(0);
  });
});

/** The team's pool as the service runs it: which member's task holds each of its places. */
class Pool {
  readonly running = new Map<string, string>();
  constructor(readonly concurrency: number) {}
  of(memberId: string): number {
    return [...this.running.values()].filter((m) => m === memberId).length;
  }
  /** The oldest tasks of a member finish, freeing their places. */
  finish(memberId: string, count: number): void {
    for (const [task, m] of [...this.running]) {
      if (count === 0) return;
      if (m !== memberId) continue;
      this.running.delete(task);
      count -= 1;
    }
  }
}

/** One member's studio: its own queue, told the others' waiting through presence, as the app wires it. */
function studio(space: ReturnType<typeof member>, pool: Pool, kicks: (() => void)[]): TaskQueue {
  const id = space.memberId;
  let n = 0;
  const queue = new TaskQueue({
    connectionId: `conn-${id}`,
    leader: true,
    storage: null,
    newKey: () => `${id}-${++n}`,
    setTimer: () => setTimeout(() => undefined, 0),
    clearTimer: () => undefined,
    freeSlots: (share) =>
      slotsToFill({
        concurrency: pool.concurrency,
        busy: pool.running.size,
        mineBusy: pool.of(id),
        sending: 0,
        ...share,
      }),
    submit: async (_request, _meta, { idempotencyKey }) => {
      pool.running.set(idempotencyKey, id);
      return {
        kind: 'created',
        idempotencyKey,
        created: { taskId: idempotencyKey, status: 'queued' } as TaskCreated,
      };
    },
  });
  queue.subscribe(() => publishHeld(space, { held: queue.heldForTeam(), waiting: queue.waitingForPool() }));
  queue.setPoolShare(() => poolShare(space));
  onPresence(space, queue.kick);
  kicks.push(queue.kick);
  return queue;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 80; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

const task = (i: number) => ({
  request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: `p${i}` } },
  meta: {
    title: 'Model One',
    subtitle: 'v1',
    kind: 'model' as const,
    mediaType: 'image' as const,
    category: 'image/default',
    modelId: 'm1',
    versionId: 'v1',
    estimatedSeconds: 5,
    quotedCredits: 1,
  },
});

describe('two members sharing the team pool through their queues', () => {
  it('a member whose queue is paused publishes nothing waiting: the other takes the whole pool', async () => {
    (await db()).close();
    resetDbForTests();
    await deleteDB(DB_NAME);
    const ana = member('key-a');
    const bo = member('key-b');
    relay(ana, bo);
    ana.awareness.setLocalStateField('member', { id: 'key-a', name: 'Ana' });
    bo.awareness.setLocalStateField('member', { id: 'key-b', name: 'Bo' });
    const pool = new Pool(4);
    const a = studio(ana, pool, []);
    a.pause();
    await a.enqueue(Array.from({ length: 5 }, (_, i) => task(i)));
    await settle();
    expect(othersWaiting(bo)).toBe(0);
    const b = studio(bo, pool, []);
    await b.enqueue(Array.from({ length: 6 }, (_, i) => task(i)));
    await settle();
    expect(pool.of('key-b')).toBe(4);
    a.dispose();
    b.dispose();
  });

  it('each keeps to its share while the other waits, and one alone takes the whole pool', async () => {
    (await db()).close();
    resetDbForTests();
    await deleteDB(DB_NAME);
    const ana = member('key-a');
    const bo = member('key-b');
    relay(ana, bo);
    ana.awareness.setLocalStateField('member', { id: 'key-a', name: 'Ana' });
    bo.awareness.setLocalStateField('member', { id: 'key-b', name: 'Bo' });
    const pool = new Pool(4);
    const kicks: (() => void)[] = [];
    const a = studio(ana, pool, kicks);
    const b = studio(bo, pool, kicks);
    /** A place freed: every studio hears of it (its poll sees the task finish) and looks again. */
    const finish = async (memberId: string, count: number) => {
      pool.finish(memberId, count);
      for (const kick of kicks) kick();
      await settle();
    };

    // Ana alone: her queue fills the whole pool and holds the rest.
    await a.enqueue(Array.from({ length: 12 }, (_, i) => task(i)));
    await settle();
    expect(pool.of('key-a')).toBe(4);
    expect(a.snapshot().items).toHaveLength(8);

    // Bo queues too. Places freed by Ana's tasks go to Bo until each holds half of the pool.
    await b.enqueue(Array.from({ length: 8 }, (_, i) => task(i)));
    await settle();
    expect(pool.of('key-b')).toBe(0); // the pool is full: nothing is taken from Ana's running tasks
    await finish('key-a', 1);
    expect([pool.of('key-a'), pool.of('key-b')]).toEqual([3, 1]);
    await finish('key-a', 1);
    expect([pool.of('key-a'), pool.of('key-b')]).toEqual([2, 2]);
    // From here on, whoever finishes, each keeps no more than two while the other still waits.
    for (let round = 0; round < 2; round += 1) {
      await finish('key-a', 2);
      expect([pool.of('key-a'), pool.of('key-b')]).toEqual([2, 2]);
      await finish('key-b', 1);
      expect([pool.of('key-a'), pool.of('key-b')]).toEqual([2, 2]);
    }
    expect([a.snapshot().items.length, b.snapshot().items.length]).toEqual([4, 4]);

    // Bo's queue empties (he removes what he holds): Ana, alone again, takes every free place.
    await b.remove(b.snapshot().items.map((item) => item.idempotencyKey));
    await settle();
    expect(othersWaiting(ana)).toBe(0);
    await finish('key-b', pool.of('key-b'));
    expect(pool.of('key-a')).toBe(4);
    expect(a.snapshot().items).toHaveLength(2);
    a.dispose();
    b.dispose();
  });
});
