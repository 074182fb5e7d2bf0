import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTeamSettings } from '../model/team/team-settings';
import { useTeamSettings } from './use-team-settings';

// The team-space switch's state: whether this studio's team space admits the key, and the settings kept
// on this device per connection.

const API = 'http://127.0.0.1:4010/v1';
const config = { path: '/sync', apiBaseUrl: API, maxDocumentBytes: undefined };

beforeEach(() => localStorage.clear());
afterEach(() => vi.useRealTimers());

describe('useTeamSettings', () => {
  it('offers the team space only when one runs beside the studio and admits keys of this Base URL', () => {
    const none = renderHook(() =>
      useTeamSettings({ connectionId: 'c', baseUrl: API, config: undefined, keyLabel: 'Key' }),
    );
    expect(none.result.current.availability).toEqual({
      ok: false,
      why: 'No team space runs beside this studio.',
    });
    const other = renderHook(() =>
      useTeamSettings({ connectionId: 'c', baseUrl: 'https://api.example.com/v1', config, keyLabel: 'Key' }),
    );
    expect(other.result.current.availability).toEqual({
      ok: false,
      why: `The team space beside this studio admits keys of ${API}; this key is for https://api.example.com/v1.`,
    });
    const same = renderHook(() =>
      useTeamSettings({ connectionId: 'c', baseUrl: `${API}/`, config, keyLabel: 'Key' }),
    );
    expect(same.result.current.availability).toEqual({ ok: true });
  });

  it('turned on, names the member after the key and shares from then on, kept on this device; the first date stays', () => {
    vi.useFakeTimers({ now: 1_000 });
    const { result } = renderHook(() =>
      useTeamSettings({ connectionId: 'conn-1', baseUrl: API, config, keyLabel: 'Studio key' }),
    );
    expect(result.current.settings.on).toBe(false);
    act(() => result.current.setOn(true));
    expect(result.current.settings).toMatchObject({ on: true, name: 'Studio key', sharedSince: 1_000 });
    expect(readTeamSettings('conn-1')).toEqual(result.current.settings);

    vi.setSystemTime(5_000);
    act(() => result.current.setName('Ana'));
    act(() => result.current.setOn(false));
    act(() => result.current.setOn(true));
    expect(result.current.settings).toMatchObject({ on: true, name: 'Ana', sharedSince: 1_000 });
    expect(readTeamSettings('conn-1')).toMatchObject({ name: 'Ana', sharedSince: 1_000 });
    expect(readTeamSettings('conn-2').on).toBe(false);
  });

  it('reads the settings this device kept for the connection', () => {
    const first = renderHook(() =>
      useTeamSettings({ connectionId: 'conn-1', baseUrl: API, config, keyLabel: 'Key' }),
    );
    act(() => first.result.current.setOn(true));
    first.unmount();
    const again = renderHook(() =>
      useTeamSettings({ connectionId: 'conn-1', baseUrl: API, config, keyLabel: 'Key' }),
    );
    expect(again.result.current.settings.on).toBe(true);
  });
});
