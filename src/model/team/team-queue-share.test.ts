import { describe, expect, it } from 'vitest';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { member } from '../../test/team-test-utils';
import { slotsToFill } from '../queue/queue';
import { heldByMember, othersWaiting, publishHeld } from './team-queue-share';

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
    publishHeld(a, 12);
    expect(othersWaiting(b)).toBe(1);
    expect(othersWaiting(a)).toBe(0);
    expect(heldByMember(b)).toEqual([{ memberId: 'key-a', held: 12, you: false }]);
    // Bo queues too: on a pool of 4 with nothing running, each takes 2 while the other waits.
    publishHeld(b, 3);
    expect(
      slotsToFill({ concurrency: 4, busy: 0, mineBusy: 0, sending: 0, othersWaiting: othersWaiting(a) }),
    ).toBe(2);
    // Ana's queue empties: Bo may fill the whole free pool.
    publishHeld(a, 0);
    expect(othersWaiting(b)).toBe(0);
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
