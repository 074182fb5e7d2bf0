import { describe, expect, it } from 'vitest';
import { NO_TEAM_SETTINGS, readTeamSettings, sameApi, writeTeamSettings } from './team-settings';

describe('team settings on this device', () => {
  it('are off until turned on, kept per connection, and a broken record reads as off', () => {
    localStorage.clear();
    expect(readTeamSettings('conn-a')).toEqual(NO_TEAM_SETTINGS);
    writeTeamSettings('conn-a', {
      on: true,
      name: 'Ana',
      sharedSince: 5,
      earlierAnswered: false,
      withdrawn: [],
    });
    expect(readTeamSettings('conn-a')).toMatchObject({ on: true, name: 'Ana', sharedSince: 5 });
    expect(readTeamSettings('conn-b')).toEqual(NO_TEAM_SETTINGS);
    localStorage.setItem('media-studio.team.conn-c', '{not json');
    expect(readTeamSettings('conn-c')).toEqual(NO_TEAM_SETTINGS);
    expect(JSON.stringify(localStorage)).not.toMatch(/live_/);
  });

  it('sameApi compares Base URLs without their trailing slash', () => {
    expect(sameApi('http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/v1')).toBe(true);
    expect(sameApi('https://api.example.com/v1', 'http://127.0.0.1:4010/v1')).toBe(false);
  });
});
