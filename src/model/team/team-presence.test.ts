import { describe, expect, it } from 'vitest';
import type { Member } from './team-members';
import { membersAsKnown } from './team-presence';

const you: Member = { id: 'm-you', name: 'Ana', online: true, you: true, joinedAt: 1 };
const other: Member = { id: 'm-2', name: 'Ben', online: true, you: false, joinedAt: 2 };
const away: Member = { id: 'm-3', name: 'Cai', online: false, you: false, joinedAt: 3 };
const members = [you, other, away];

describe('membersAsKnown', () => {
  it('shows the presence as heard while the link is online, or when there is no link to judge by', () => {
    expect(membersAsKnown(members, 'online')).toBe(members);
    expect(membersAsKnown(members, undefined)).toBe(members);
  });

  it.each(['offline', 'refused', 'connecting'] as const)(
    'counts only this member as online while the link is %s',
    (link) => {
      const shown = membersAsKnown(members, link);
      expect(shown.map((m) => [m.id, m.online])).toEqual([
        ['m-you', true],
        ['m-2', false],
        ['m-3', false],
      ]);
      // The members themselves are left as they were (the store's snapshot is not changed).
      expect(other.online).toBe(true);
      expect(shown[0]).toBe(you);
      expect(shown[2]).toBe(away);
    },
  );
});
