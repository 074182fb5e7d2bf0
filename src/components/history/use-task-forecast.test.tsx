import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PollBudget } from '../../model/tasks/poll-budget';
import { PollSchedule, registerSchedule } from '../../model/tasks/poll-schedule';
import { useNow } from '../../lib/use-now';
import { useTaskForecast } from './use-task-forecast';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse('2025-06-01T12:00:00Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// 1,000 tasks queued with the page responsive (docs/benchmarks.md "polling"): a live card reads the time
// (elapsed) and its forecast; both count down on one clock, so the card renders once a second, not once per
// clock.
it('a live card with a forecast renders once a second', async () => {
  const schedule = new PollSchedule({ budget: new PollBudget(), concurrency: 1, confirmed: true });
  const unregister = registerSchedule(schedule);
  const now = Date.now();
  schedule.sync([
    { taskId: 'a', createdAt: now, estimatedSeconds: 60, status: 'queued' },
    { taskId: 'b', createdAt: now + 1, estimatedSeconds: 60, status: 'queued' },
  ]);
  let renders = 0;
  const texts: Array<string | null> = [];
  function Card() {
    renders++;
    useNow(true);
    const text = useTaskForecast('a', true);
    texts.push(text);
    return <p>{text}</p>;
  }
  // Another live card is on screen already: the clock ticks from then on, half a second out of step
  // with the new card's mount.
  function Other() {
    useNow(true);
    return null;
  }
  render(<Other />);
  await act(async () => vi.advanceTimersByTimeAsync(500));
  render(<Card />);
  await act(async () => vi.advanceTimersByTimeAsync(0));
  const before = renders;
  // In steps of half a second (a step's updates render together, as a task's do in the browser).
  for (let i = 0; i < 20; i++) await act(async () => vi.advanceTimersByTimeAsync(500));
  expect(renders - before).toBe(10);
  expect(texts.at(-1)).toMatch(/^running, ~\d+ s left$/);
  expect(new Set(texts).size).toBeGreaterThan(5); // it counts down
  unregister();
  schedule.stop();
});
