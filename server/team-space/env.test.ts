import { describe, expect, it } from 'vitest';
import { teamSpaceEnv } from './env';
import { DEFAULT_LIMITS } from './limits';

describe('teamSpaceEnv', () => {
  it('defaults', () => {
    expect(teamSpaceEnv({})).toEqual({
      dataDir: '.data/team-space',
      recheckMs: 300_000,
      limits: DEFAULT_LIMITS,
      trustProxy: false,
      archive: { window: { days: 7, maxTasks: 1000 }, everyMs: 60_000 },
    });
  });

  it('reads the live window of a room’s tasks', () => {
    expect(teamSpaceEnv({ TEAM_SPACE_LIVE_DAYS: '30', TEAM_SPACE_LIVE_TASKS: '50' }).archive).toEqual({
      window: { days: 30, maxTasks: 50 },
      everyMs: 60_000,
    });
    expect(() => teamSpaceEnv({ TEAM_SPACE_LIVE_TASKS: '0' })).toThrow(/TEAM_SPACE_LIVE_TASKS/);
  });

  it('reads each setting, and names the one that is wrong', () => {
    const s = teamSpaceEnv({
      TEAM_SPACE_DATA: '/var/lib/team-space',
      TEAM_SPACE_RECHECK_MS: '1000',
      TEAM_SPACE_MAX_CONNECTIONS_PER_ADDRESS: '500',
      TEAM_SPACE_TRUST_PROXY: '1',
    });
    expect(s).toMatchObject({ dataDir: '/var/lib/team-space', recheckMs: 1000, trustProxy: true });
    expect(s.limits).toEqual({ ...DEFAULT_LIMITS, maxConnectionsPerAddress: 500 });
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      expect(() => teamSpaceEnv({ TEAM_SPACE_MAX_MESSAGE_BYTES: bad })).toThrow(
        /TEAM_SPACE_MAX_MESSAGE_BYTES/,
      );
    }
  });
});
