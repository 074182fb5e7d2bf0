import { describe, expect, it } from 'vitest';
import type { Me } from '../../contract/me';
import { admissionOf, mayOpen } from './rooms';

const me = (keyId: string, teamId?: string) =>
  ({
    key: { id: keyId },
    project: { id: 'prj', name: 'P' },
    ...(teamId ? { team: { id: teamId, creditBalance: 0 } } : { user: { creditBalance: 0 } }),
  }) as Me;

describe('admissionOf', () => {
  it('a team key: the team’s room, the key as member; a personal key: its own room', () => {
    expect(admissionOf(me('key_a', 'team_1'))).toEqual({
      memberId: 'key_a',
      room: 'team:team_1',
      teamId: 'team_1',
    });
    expect(admissionOf(me('key_p'))).toEqual({ memberId: 'key_p', room: 'key:key_p' });
  });
});

describe('mayOpen', () => {
  it('only the exact room name', () => {
    const a = admissionOf(me('key_a', 'team_1'));
    expect(mayOpen(a, 'team:team_1')).toBe(true);
    for (const name of [
      'team:team_1 ',
      'TEAM:team_1',
      'team:team_10',
      'team:',
      'key:key_a',
      '',
      'team:team_1\0x',
    ]) {
      expect(mayOpen(a, name), JSON.stringify(name)).toBe(false);
    }
  });
});
