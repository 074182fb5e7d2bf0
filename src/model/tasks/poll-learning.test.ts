import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollBudget } from './poll-budget';
import { concurrencyPrior, loadLearning, saveLearning } from './poll-learning';
import { POLL_LAG_MS } from './poll-forecast';
import { PollSchedule, type LearnedState } from './poll-schedule';

const T0 = Date.parse('2025-06-01T12:00:00Z');

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
}

const task = (taskId: string, createdAt: number) => ({
  taskId,
  createdAt,
  estimatedSeconds: 10,
  model: 'pop',
  status: 'queued' as const,
});

describe('where the poll schedule starts from', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('GET /me of a personal key: the default setting of 3, taken as the limit (no probe for a fourth)', () => {
    const prior = concurrencyPrior({ user: { creditBalance: 10 } });
    expect(prior).toEqual({ concurrency: 3, confirmed: true });
    const schedule = new PollSchedule({ budget: new PollBudget(), ...prior });
    schedule.sync(['a', 'b', 'c', 'd'].map((id) => task(id, T0)));
    // The fourth waits for the first slot: polled after its predicted finish, 20 s, and not before.
    expect(schedule.nextPollAt('d')).toBe(T0 + 20_000 + POLL_LAG_MS);
  });

  it('GET /me of a team key: a shared pool of unknown size, from 3, probed for one more slot', () => {
    const prior = concurrencyPrior({ team: { id: 'team_1', creditBalance: 10 } });
    expect(prior).toEqual({ concurrency: 3, confirmed: false });
    const schedule = new PollSchedule({ budget: new PollBudget(), ...prior });
    schedule.sync(['a', 'b', 'c', 'd'].map((id) => task(id, T0)));
    // The head of the queue is looked at halfway to its predicted start: a larger pool would show.
    expect(schedule.nextPollAt('d')).toBe(T0 + 5_000);
  });

  it('keeps what was learned per connection across a reload: concurrency and run times', () => {
    const storage = new MemoryStorage();
    const learned: LearnedState = {
      concurrency: 2,
      confirmed: true,
      runSamples: { pop: [6, 6.2, 5.8], '': [6, 6.2, 5.8] },
      latencySamples: { pop: [6.5] },
    };
    saveLearning('conn-a', learned, storage);
    expect(loadLearning('conn-a', storage)).toEqual(learned);
    // Another connection (another key or base URL) starts afresh; the storage holds no key.
    expect(loadLearning('conn-b', storage)).toBeNull();
    expect([...storage.items.keys()]).toEqual(['media-studio:poll-learning:conn-a']);

    // The next session predicts from it, against the quote's 10 s: 6.5 s from creation to finish with a
    // free slot, two at a time, 6 s runs.
    const schedule = new PollSchedule({
      budget: new PollBudget(),
      concurrency: 3,
      learned: loadLearning('conn-a', storage),
    });
    schedule.sync(['a', 'b', 'c'].map((id) => task(id, T0)));
    expect(schedule.predictedFinish('a')).toBe(T0 + 6_500);
    expect(schedule.predictedFinish('c')).toBe(T0 + 12_500);
  });

  it('a round trip through a schedule: what one session learns, the next starts from', async () => {
    const storage = new MemoryStorage();
    // One at a time, 6 s runs, estimate 10 s; the poller saves what the schedule learns.
    const first = new PollSchedule({
      budget: new PollBudget(),
      concurrency: 1,
      confirmed: true,
      onLearn: (state) => saveLearning('conn-a', state, storage),
    });
    const runs = new Map([
      ['a', { start: T0, end: T0 + 6_000 }],
      ['b', { start: T0 + 6_000, end: T0 + 12_000 }],
    ]);
    first.sync(['a', 'b'].map((id) => task(id, T0)));
    for (const id of ['a', 'b']) {
      void (async () => {
        for (;;) {
          await first.turn(task(id, T0));
          const at = Date.now();
          const run = runs.get(id)!;
          const status = at >= run.end ? 'succeeded' : at >= run.start ? 'running' : 'queued';
          first.observe(id, { status, completedAt: status === 'succeeded' ? run.end : null }, at);
          if (status === 'succeeded') return;
        }
      })();
    }
    await vi.advanceTimersByTimeAsync(30_000);
    first.stop();

    const next = new PollSchedule({ budget: new PollBudget(), learned: loadLearning('conn-a', storage) });
    expect(next.learnedRunSeconds('pop')).toBe(6);
    expect(next.concurrency).toBe(1);
  });

  it('an unreadable or foreign record is ignored, and a failing storage loses nothing but the learning', () => {
    const storage = new MemoryStorage();
    storage.setItem('media-studio:poll-learning:conn-a', '{not json');
    expect(loadLearning('conn-a', storage)).toBeNull();
    storage.setItem('media-studio:poll-learning:conn-a', JSON.stringify({ concurrency: -1 }));
    expect(loadLearning('conn-a', storage)).toBeNull();
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() =>
      saveLearning('conn-a', { concurrency: 1, confirmed: false, runSamples: {}, latencySamples: {} }, full),
    ).not.toThrow();
  });
});
