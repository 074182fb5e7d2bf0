import { render, screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { teamQueueOf } from '../../model/team/team-queue-order';
import { TeamQueue } from './team-queue';

const entries = [
  makeEntry('done', { createdAt: T0 - 10_000 }),
  makeEntry('bo-late', {
    status: 'queued',
    outputs: [],
    createdAt: T0 + 2_000,
    by: { id: 'key-b', name: 'Bo' },
  }),
  makeEntry('mine', { status: 'running', outputs: [], createdAt: T0 + 1_000 }),
  makeEntry('ana-first', {
    status: 'running',
    outputs: [],
    createdAt: T0,
    by: { id: 'key-a', name: '<img src=x onerror=alert(1)>' },
  }),
];

it("the team queue lists every member's unfinished tasks first in, first out, by whom", () => {
  expect(teamQueueOf(entries).map((e) => e.taskId)).toEqual(['ana-first', 'mine', 'bo-late']);
  render(<TeamQueue entries={entries} />);
  const region = screen.getByRole('heading', { name: /Team queue/ }).closest('section')!;
  expect(region.textContent).toContain('2 running, 1 waiting');
  const rows = within(region).getAllByTestId('team-queue-row');
  expect(rows.map((r) => r.textContent)).toEqual([
    expect.stringContaining('<img src=x onerror=alert(1)> · Lumen Canvas'),
    expect.stringContaining('You · Lumen Canvas'),
    expect.stringContaining('Bo · Lumen Canvas'),
  ]);
  expect(region.querySelector('img')).toBeNull();
});

it('shows nothing when the pool is idle', () => {
  const { container } = render(<TeamQueue entries={[makeEntry('done')]} />);
  expect(container.innerHTML).toBe('');
});

it('shows what each member holds in their queue, even with the pool idle', () => {
  render(
    <TeamQueue
      entries={[makeEntry('done')]}
      held={[
        { name: 'Bo', held: 12, you: false },
        { name: 'Ana', held: 3, you: true },
      ]}
    />,
  );
  expect(screen.getByTestId('team-queue-held').textContent).toBe('Held, not sent yet: Bo 12, You 3');
});
