import { describe, expect, it } from 'vitest';
import type { Me } from './me';
import { TEAM_SPACE_CLOSE_CODES, teamRoomOf, type TeamSpaceReason } from './team-room';
import { TeamSpaceConfigSchema } from './team-space-config';

const key = (id: string): Me['key'] => ({
  id,
  prefix: 'gm_live_abcd',
  label: 'k',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: null,
  dailyCreditCap: null,
  creditsSpentToday: 0,
  creditsRemainingToday: null,
});

describe('teamRoomOf', () => {
  it('every key of a team shares the team’s room; a personal key has its own', () => {
    expect(teamRoomOf({ key: key('key_a'), team: { id: 'team_1', creditBalance: 0 } })).toBe('team:team_1');
    expect(teamRoomOf({ key: key('key_b'), team: { id: 'team_1', creditBalance: 5 } })).toBe('team:team_1');
    expect(teamRoomOf({ key: key('key_c') })).toBe('key:key_c');
    expect(teamRoomOf({ key: key('key_d') })).not.toBe(teamRoomOf({ key: key('key_c') }));
  });
});

describe('the reasons', () => {
  // Every reason has a close code: the table `satisfies Record<TeamSpaceReason, number>`.
  it('each has a close code, and fits a WebSocket close reason (123 bytes)', () => {
    for (const reason of Object.keys(TEAM_SPACE_CLOSE_CODES) as TeamSpaceReason[]) {
      expect(TEAM_SPACE_CLOSE_CODES[reason], reason).toBeGreaterThanOrEqual(1000);
      expect(new TextEncoder().encode(reason).length).toBeLessThanOrEqual(123);
    }
  });

  it('config.json’s teamSpace parses', () => {
    expect(TeamSpaceConfigSchema.parse({ path: '/sync', apiBaseUrl: 'http://127.0.0.1:4010/v1' })).toEqual({
      path: '/sync',
      apiBaseUrl: 'http://127.0.0.1:4010/v1',
    });
  });
});
