import { describe, expect, it } from 'vitest';
import { makeEntry } from '../../test/gallery-test-utils';
import { teamMonths } from './team-months';
import { TeamTaskSchema, toTeamTask } from './team-tasks';

const live = (id: string, by: string, createdAt: number, status: 'succeeded' | 'failed' = 'succeeded') =>
  TeamTaskSchema.parse(
    toTeamTask(makeEntry(id, { createdAt, status, creditsCharged: status === 'failed' ? 0 : 4 }), by),
  );

describe('the team by month', () => {
  it('adds the room’s tasks to the server’s sums, per month, newest first, counting members once', () => {
    const months = teamMonths(
      [
        { month: '2026-10', by: 'key-a', tasks: 3, succeeded: 2, failed: 1, credits: 8 },
        { month: '2026-10', by: 'key-b', tasks: 1, succeeded: 1, failed: 0, credits: 4 },
        { month: '2026-11', by: 'key-a', tasks: 2, succeeded: 2, failed: 0, credits: 8 },
      ],
      [
        live('t1', 'key-a', Date.UTC(2026, 10, 20)),
        live('t2', 'key-c', Date.UTC(2026, 10, 21), 'failed'),
        live('t3', 'key-a', Date.UTC(2026, 11, 1)),
      ],
    );
    expect(months).toEqual([
      { month: '2026-12', tasks: 1, succeeded: 1, failed: 0, credits: 4, members: 1 },
      { month: '2026-11', tasks: 4, succeeded: 3, failed: 1, credits: 12, members: 2 },
      { month: '2026-10', tasks: 4, succeeded: 3, failed: 1, credits: 12, members: 2 },
    ]);
  });

  it('leaves out a row the server emptied (its tasks moved back or replaced)', () => {
    expect(
      teamMonths([{ month: '2026-10', by: 'key-a', tasks: 0, succeeded: 0, failed: 0, credits: 0 }], []),
    ).toEqual([]);
  });
});
