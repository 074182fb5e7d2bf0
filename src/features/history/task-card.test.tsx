import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { PollBudget } from '../../model/tasks/poll-budget';
import { PollSchedule, registerSchedule } from '../../model/tasks/poll-schedule';
import { makeEntry } from '../../test/gallery-test-utils';
import { TaskCard } from './task-card';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// docs/queue.md: a card says what the poll schedule knows, beside the spec's status word.
it("shows the schedule's forecast beside the status, and the estimate-only ETA when nothing follows the task", () => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  const now = Date.parse('2025-06-01T12:00:00Z');
  vi.setSystemTime(now);
  const queued = Array.from({ length: 5 }, (_, i) =>
    makeEntry(`t${i}`, {
      status: 'queued',
      outputs: [],
      createdAt: now - 1_000 + i,
      meta: { estimatedSeconds: 10 },
    }),
  );
  const schedule = new PollSchedule({ budget: new PollBudget(), concurrency: 3 });
  schedule.confirmed = true;
  schedule.sync(queued.map((e) => ({ ...e, estimatedSeconds: 10, model: 'm' })));
  const off = registerSchedule(schedule);

  render(<TaskCard entry={queued[4]!} onOpen={vi.fn()} />);
  const card = screen.getByTestId('task-card');
  // Three run; t3 and t4 wait; t4 has one ahead of it. The badge keeps the spec's word.
  expect(within(card).getByText('queued', { exact: true })).toBeTruthy();
  expect(within(card).getByTestId('task-forecast').textContent).toBe('about 1 ahead');
  expect(within(card).queryByText(/left$/)).toBeNull(); // the estimate-only ETA gives way

  // Once t0-t2 are predicted done (9 s from now), t4 is predicted running: beside the service's last
  // word ("queued") the text says it is likely.
  act(() => {
    vi.advanceTimersByTime(11_000);
  });
  expect(within(card).getByTestId('task-forecast').textContent).toBe('likely running, ~9 s left');

  off();
  schedule.stop();
  cleanup();
  render(<TaskCard entry={queued[4]!} onOpen={vi.fn()} />);
  expect(screen.queryByTestId('task-forecast')).toBeNull();
  expect(screen.getByText(/left$|^longer than the usual/)).toBeTruthy();
});

// Team space: another member's task that nobody follows any more (team-tasks.ts UNFOLLOWED_AFTER_MS)
// says why its state does not move, by its maker's name.
it("says when another member's unfinished task is followed by nobody, and not for a followed one", () => {
  const by = { id: 'key-b', name: 'Bo' };
  const followed = makeEntry('t1', { status: 'running', outputs: [], completedAt: null, by });
  const { rerender } = render(<TaskCard entry={followed} onOpen={vi.fn()} />);
  expect(screen.queryByTestId('task-unfollowed')).toBeNull();
  rerender(<TaskCard entry={{ ...followed, by: { ...by, unfollowed: true } }} onOpen={vi.fn()} />);
  expect(screen.getByTestId('task-unfollowed').textContent).toMatch(
    /No news: Bo's studio is not in the team space/,
  );
});
