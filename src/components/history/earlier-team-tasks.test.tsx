import { act, render } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { EarlierState } from '../../model/team/team-archive';
import { EarlierTeamTasks } from './earlier-team-tasks';

// When the list's end reads the next page of the team's earlier tasks: as it comes into view.

let seen: ((entries: Array<{ isIntersecting: boolean }>) => void) | undefined;
class FakeObserver {
  constructor(callback: typeof seen) {
    seen = callback;
  }
  observe() {}
  disconnect() {}
}
afterEach(() => {
  vi.unstubAllGlobals();
  seen = undefined;
});

it('reads a page each time the end comes into view, not again while it stays there (a list filtered to nothing)', () => {
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  const state: EarlierState = { exists: true, status: 'idle', loaded: 0, searching: false, error: null };
  const loadMore = vi.fn(async () => undefined);
  render(
    <EarlierTeamTasks
      source={{
        subscribe: () => () => undefined,
        snapshot: () => state,
        loadMore,
        search: async () => undefined,
      }}
    />,
  );
  const view = (isIntersecting: boolean) => act(() => seen!([{ isIntersecting }]));
  view(false);
  expect(loadMore).toHaveBeenCalledTimes(0);
  view(true);
  expect(loadMore).toHaveBeenCalledTimes(1);
  // The page is read and shows nothing here: the end is still in view.
  view(true);
  view(true);
  expect(loadMore).toHaveBeenCalledTimes(1);
  // Scrolled away and back: the next page.
  view(false);
  view(true);
  expect(loadMore).toHaveBeenCalledTimes(2);
});

it('says which way a read failed: refused, too many reads, or not reached', () => {
  const shown = (error: EarlierState['error']) => {
    const state: EarlierState = { exists: true, status: 'error', loaded: 0, searching: false, error };
    const view = render(
      <EarlierTeamTasks
        source={{
          subscribe: () => () => undefined,
          snapshot: () => state,
          loadMore: async () => undefined,
          search: async () => undefined,
        }}
      />,
    );
    const text = view.getByRole('alert').textContent;
    view.unmount();
    return text;
  };
  expect(shown('refused')).toMatch(/refused this key/);
  expect(shown('busy')).toMatch(/too many reads from this key just now/);
  expect(shown('unreachable')).toMatch(/could not be reached/);
});

it('its end coming into view while the list catches up reads once caught up, if still in view; not again while it stays there', () => {
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  const state: EarlierState = { exists: true, status: 'idle', loaded: 0, searching: false, error: null };
  const loadMore = vi.fn(async () => undefined);
  const source = {
    subscribe: () => () => undefined,
    snapshot: () => state,
    loadMore,
    search: async () => undefined,
  };
  const view = render(<EarlierTeamTasks source={source} paused />);
  act(() => seen!([{ isIntersecting: true }]));
  expect(loadMore).not.toHaveBeenCalled();
  view.rerender(<EarlierTeamTasks source={source} paused={false} />);
  expect(loadMore).toHaveBeenCalledTimes(1);
  // A page read: the list catches up again, its end still in view all along: nothing more.
  view.rerender(<EarlierTeamTasks source={source} paused />);
  view.rerender(<EarlierTeamTasks source={source} paused={false} />);
  expect(loadMore).toHaveBeenCalledTimes(1);
  // Came into view while catching up, and out of view once caught up (a team's room drawn): nothing.
  act(() => seen!([{ isIntersecting: false }]));
  view.rerender(<EarlierTeamTasks source={source} paused />);
  act(() => seen!([{ isIntersecting: true }]));
  act(() => seen!([{ isIntersecting: false }]));
  view.rerender(<EarlierTeamTasks source={source} paused={false} />);
  expect(loadMore).toHaveBeenCalledTimes(1);
  // Scrolled back to it: read.
  act(() => seen!([{ isIntersecting: true }]));
  expect(loadMore).toHaveBeenCalledTimes(2);
});
