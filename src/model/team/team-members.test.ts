import { describe, expect, it } from 'vitest';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { connect, member } from '../../test/team-test-utils';
import { cleanName, TeamMembers } from './team-members';

/** Presence relayed as a server would: each member's awareness state to the other. */
function relayPresence(a: ReturnType<typeof member>, b: ReturnType<typeof member>) {
  const send = (from: typeof a, to: typeof a) => (_changes?: unknown, origin?: unknown) => {
    if (origin === 'remote') return;
    applyAwarenessUpdate(to.awareness, encodeAwarenessUpdate(from.awareness, [from.doc.clientID]), 'remote');
  };
  const ab = send(a, b);
  const ba = send(b, a);
  a.awareness.on('update', ab);
  b.awareness.on('update', ba);
  ab();
  ba();
}

describe('TeamMembers', () => {
  it('lists every member who joined with their display name, you first, and who is online', () => {
    const a = member('key-a');
    const b = member('key-b');
    connect(a.doc, b.doc);
    relayPresence(a, b);
    const ma = new TeamMembers(a);
    const mb = new TeamMembers(b);
    ma.setName('Ana');
    mb.setName('  Bo   Chen ');
    expect(ma.snapshot().map((m) => [m.name, m.you, m.online])).toEqual([
      ['Ana', true, true],
      ['Bo Chen', false, true],
    ]);
    expect(mb.nameOf('key-a')).toBe('Ana');
    // Bo leaves: still a member, no longer online.
    b.awareness.setLocalState(null);
    expect(ma.snapshot().find((m) => m.id === 'key-b')).toMatchObject({ name: 'Bo Chen', online: false });
  });

  it('a rename is seen by the others; the join time stays', () => {
    const a = member('key-a', () => 5);
    const b = member('key-b');
    connect(a.doc, b.doc);
    const ma = new TeamMembers(a);
    const mb = new TeamMembers(b);
    ma.setName('Ana');
    ma.setName('Ana Lima');
    expect(mb.snapshot().find((m) => m.id === 'key-a')).toMatchObject({ name: 'Ana Lima', joinedAt: 5 });
  });

  it('a hostile record (wrong shape, huge name) is skipped or cut, never trusted', () => {
    const a = member('key-a');
    const ma = new TeamMembers(a);
    a.doc.getMap('members').set('evil', { name: 42 });
    a.doc.getMap('members').set('long', { name: 'x'.repeat(200), joinedAt: 1 });
    expect(ma.snapshot().find((m) => m.id === 'evil')).toBeUndefined();
    expect(ma.snapshot().find((m) => m.id === 'long')?.name).toHaveLength(60);
  });

  it('a member online with no record it can read is the same list until something of it changes', () => {
    // The clock moves on every read, as time does between two renders.
    let t = 1_000;
    const a = member('key-a', () => t++);
    const b = member('key-b');
    relayPresence(a, b);
    const ma = new TeamMembers(a);
    ma.setName('Ana');
    // Bo's presence is in before his record (a member's first join), or his record is one the server
    // takes and the studio cannot read (a name past the studio's bound, within the server's).
    b.awareness.setLocalStateField('member', { id: 'key-b', name: 'Bo' });
    const first = ma.snapshot();
    expect(first.find((m) => m.id === 'key-b')).toMatchObject({ name: 'Bo', online: true });
    a.doc.getMap('members').set('key-b', { name: 'x'.repeat(300), joinedAt: 1 });
    // Presence changes that change nothing of the list (Ana opens a board and closes it): the same snapshot.
    a.awareness.setLocalStateField('board', 'board-1');
    a.awareness.setLocalStateField('board', null);
    b.awareness.setLocalStateField('board', 'board-1');
    expect(ma.snapshot()).toBe(first);
    // Bo renames himself: a new list, his join time kept.
    b.awareness.setLocalStateField('member', { id: 'key-b', name: 'Bo Chen' });
    expect(ma.snapshot()).not.toBe(first);
    expect(ma.snapshot().find((m) => m.id === 'key-b')).toMatchObject({
      name: 'Bo Chen',
      joinedAt: first.find((m) => m.id === 'key-b')!.joinedAt,
    });
  });

  it('cleanName keeps one trimmed line of at most 60 characters', () => {
    expect(cleanName(' a\n\tb ')).toBe('a b');
    expect(cleanName('')).toBe('');
  });
});
