import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../contract/me';
import type { TeamSpaceReason } from '../../contract/team-room';
import type { HistoryStore } from '../model/history/history-store';
import type { LocalJudgements } from '../model/team/team-judgements';
import type { TeamSessionOptions } from '../model/team/team-session';
import type { ShareState } from '../model/team/team-share';
import { readTeamSettings } from '../model/team/team-settings';
import { useTeamSpace } from './use-team-space';

// The team space as the connected studio composes it, with the session's code replaced by a fake session
// (the real one needs a server): when it joins, under which name, what the member's answers change, and
// that it closes when turned off. TeamLive, which keeps one session across refusals, is the real one.

const fake = vi.hoisted(() => {
  class FakeSession {
    static made: FakeSession[] = [];
    refuse: (reason: TeamSpaceReason) => void = () => undefined;
    shareState: ShareState = { used: 0, limit: null, level: 'ok' };
    private shareListener: () => void = () => undefined;
    readonly connection = {
      onChangeRefused: (listener: (reason: TeamSpaceReason) => void) => {
        this.refuse = listener;
        return () => undefined;
      },
      subscribe: () => () => undefined,
      snapshot: () => null,
    };
    readonly share = {
      subscribe: (listener: () => void) => {
        this.shareListener = listener;
        return () => undefined;
      },
      snapshot: () => this.shareState,
    };
    readonly members = { setName: vi.fn() };
    readonly shareEarlierTasks = vi.fn(() => 2);
    readonly close = vi.fn(() => Promise.resolve());
    constructor(readonly options: TeamSessionOptions) {
      FakeSession.made.push(this);
    }
    start = () => Promise.resolve();
    earlierTasks = () => [{}, {}];
    fill(level: ShareState['level']) {
      this.shareState = { used: 90, limit: 100, level };
      this.shareListener();
    }
  }
  return { FakeSession, nearlyFull: vi.fn<(onFreeSpace: () => void) => void>() };
});

vi.mock('./team-space-code', () => ({
  loadTeamSpaceCode: () =>
    Promise.all([{ TeamSession: fake.FakeSession }, import('../model/team/team-live')] as const),
}));
vi.mock('../features/team/team-notices', () => ({
  notifyChangeRefused: () => undefined,
  notifyShareNearlyFull: fake.nearlyFull,
}));

const API = 'http://127.0.0.1:4010/v1';
const me = { key: { id: 'key-1', label: 'Studio key' } } as unknown as Me;
const props = {
  me,
  connectionId: 'conn-1',
  baseUrl: API,
  history: {} as HistoryStore,
  judgements: {} as LocalJudgements,
  config: { path: '/sync', apiBaseUrl: API, maxDocumentBytes: 1000 },
  token: () => 'key',
};

const made = () => fake.FakeSession.made;

beforeEach(() => {
  localStorage.clear();
  fake.FakeSession.made = [];
  fake.nearlyFull.mockClear();
});
afterEach(() => vi.useRealTimers());

describe('useTeamSpace', () => {
  it('joins once turned on, under the key label, on the studio origin, and closes when turned off', async () => {
    const { result } = renderHook(() => useTeamSpace(props));
    await Promise.resolve();
    expect(made()).toHaveLength(0);

    act(() => result.current.setOn(true));
    await waitFor(() => expect(result.current.session).toBe(made()[0]));
    expect(made()).toHaveLength(1);
    expect(made()[0]!.options).toMatchObject({
      url: `ws://${location.host}/sync`,
      room: 'key:key-1',
      memberId: 'key-1',
      displayName: 'Studio key',
      connectionId: 'conn-1',
      sharedSince: readTeamSettings('conn-1').sharedSince,
      maxDocumentBytes: 1000,
    });

    act(() => result.current.setOn(false));
    expect(result.current.session).toBeNull();
    expect(made()[0]!.close).toHaveBeenCalled();
  });

  it('never loads the session where the team space cannot admit the key', async () => {
    localStorage.setItem('media-studio.team.conn-1', JSON.stringify({ on: true }));
    const { result } = renderHook(() => useTeamSpace({ ...props, baseUrl: 'https://api.example.com/v1' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(result.current.availability.ok).toBe(false);
    expect(made()).toHaveLength(0);
  });

  it('asks once about earlier tasks, and shares them only when the member says so', async () => {
    localStorage.setItem('media-studio.team.conn-1', JSON.stringify({ on: true, sharedSince: 5 }));
    const { result } = renderHook(() => useTeamSpace(props));
    await waitFor(() => expect(result.current.earlierCount).toBe(2));
    act(() => result.current.answerEarlier(true));
    expect(made()[0]!.shareEarlierTasks).toHaveBeenCalledTimes(1);
    expect(result.current.earlierCount).toBe(0);
    expect(readTeamSettings('conn-1').earlierAnswered).toBe(true);
  });

  it('renames through the open session, and a session opened afresh joins under the new name', async () => {
    localStorage.setItem('media-studio.team.conn-1', JSON.stringify({ on: true, sharedSince: 5 }));
    const { result } = renderHook(() => useTeamSpace(props));
    await waitFor(() => expect(result.current.session).toBe(made()[0]));
    act(() => result.current.setName('Ana'));
    expect(made()[0]!.members.setName).toHaveBeenLastCalledWith('Ana');

    act(() => made()[0]!.refuse('invalid-value' as TeamSpaceReason));
    await waitFor(() => expect(result.current.session).toBe(made()[1]));
    expect(made()[1]!.options).toMatchObject({ afresh: true, displayName: 'Ana' });
  });

  it('keeps tasks taken out of the team on this device without opening the session again', async () => {
    localStorage.setItem('media-studio.team.conn-1', JSON.stringify({ on: true, sharedSince: 5 }));
    const { result } = renderHook(() => useTeamSpace(props));
    await waitFor(() => expect(result.current.session).toBe(made()[0]));
    act(() => made()[0]!.options.onWithdrawn?.(['task-1'], true));
    expect(result.current.settings.withdrawn).toEqual(['task-1']);
    expect(readTeamSettings('conn-1').withdrawn).toEqual(['task-1']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made()).toHaveLength(1);
  });

  it('says when this member nears their share, and the notice opens "Free space"', async () => {
    localStorage.setItem('media-studio.team.conn-1', JSON.stringify({ on: true, sharedSince: 5 }));
    const { result } = renderHook(() => useTeamSpace(props));
    await waitFor(() => expect(result.current.session).toBe(made()[0]));
    expect(fake.nearlyFull).not.toHaveBeenCalled();
    act(() => made()[0]!.fill('nearly'));
    expect(fake.nearlyFull).toHaveBeenCalledTimes(1);
    expect(result.current.freeSpaceOpen).toBe(false);
    act(() => fake.nearlyFull.mock.calls[0]![0]());
    expect(result.current.freeSpaceOpen).toBe(true);
  });
});
