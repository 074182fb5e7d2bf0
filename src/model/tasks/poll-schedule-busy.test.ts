import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollBudget } from './poll-budget';
import { PollSchedule, type ScheduleTask } from './poll-schedule';

// busyAt(): the forecast the queue paces itself by (docs/queue.md): how many of the pool's tasks are
// still unfinished at a moment, by the schedule's simulation of the first-in-first-out pool.

const T0 = Date.parse('2025-06-01T12:00:00Z');
const taskOf = (id: string, createdAt: number, estimatedSeconds: number): ScheduleTask => ({
  taskId: id,
  createdAt,
  estimatedSeconds,
  model: 'pop',
  status: 'queued',
});

describe('PollSchedule.busyAt', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('counts the tasks the forecast has unfinished at a moment, and a subset of them', () => {
    const schedule = new PollSchedule({ budget: new PollBudget(), concurrency: 2 });
    // Two run at once for 10 s; the third waits for a slot and ends at 20 s.
    schedule.sync([taskOf('a', T0, 10), taskOf('b', T0, 10), taskOf('c', T0, 10)]);
    expect(schedule.busyAt(T0 + 1_000)).toBe(3);
    expect(schedule.busyAt(T0 + 15_000)).toBe(1);
    expect(schedule.busyAt(T0 + 25_000)).toBe(0);
    expect(schedule.busyAt(T0 + 1_000, (id) => id !== 'b')).toBe(2);
    schedule.observe('a', { status: 'succeeded', completedAt: T0 + 1_000 });
    expect(schedule.busyAt(T0 + 1_000)).toBe(2);
    schedule.stop();
  });

  it('learns the dispatch: a creation-to-finish from a free slot less the run of a task that waited for one', () => {
    const schedule = new PollSchedule({ budget: new PollBudget(), concurrency: 1, confirmed: true });
    schedule.sync([taskOf('a', T0, 5), taskOf('b', T0 + 10, 5)]);
    // Nothing finished yet: not known.
    expect(schedule.dispatchMs()).toBeNull();
    // a found the slot free: 6.25 s from its creation to its finish.
    schedule.observe('a', { status: 'succeeded', completedAt: T0 + 6_250 }, T0 + 6_300);
    expect(schedule.dispatchMs()).toBeNull();
    // b waited for that slot and ran 5 s from a's finish: the dispatch was the other 1.25 s.
    schedule.observe('b', { status: 'succeeded', completedAt: T0 + 11_250 }, T0 + 11_300);
    expect(schedule.dispatchMs()).toBe(1_250);
    expect(schedule.dispatchMs('pop')).toBe(1_250);
    schedule.stop();
  });
});
