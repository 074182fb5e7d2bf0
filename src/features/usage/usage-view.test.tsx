import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Me } from '../../../contract/me';
import { ApiProvider } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import type { HistoryEntry } from '../../model/history/history-types';
import { CONNECTION, freshDatabase, makeEntry, storeWith } from '../../test/gallery-test-utils';
import { TeamTaskSchema, toTeamTask } from '../../model/team/team-tasks';
import { UsageView, type TeamMonthsSource } from './usage-view';

// The Usage view over a real HistoryStore (fake IndexedDB): the single user's view, and the team's once
// the history holds tasks shared from the team space (entries with `by`).

beforeEach(freshDatabase);
afterEach(cleanup);

const me: Me = {
  key: {
    id: 'key_me',
    prefix: 'ms_team_',
    label: 'Team key A',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: null,
    dailyCreditCap: null,
    creditsSpentToday: 8,
    creditsRemainingToday: null,
  },
  project: { id: null, name: null },
  team: { id: 'team_1', creditBalance: 1000 },
  limits: { tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 120 },
};

const HOUR = 3_600_000;

async function renderView(entries: HistoryEntry[], memberName?: string, key: Me['key'] = me.key) {
  const store = await storeWith(entries);
  const client = new ApiClient({ baseUrl: 'https://api.example.test/v1', apiKey: 'sk_test' });
  render(
    <ApiProvider value={{ client, connectionId: CONNECTION, baseUrl: client.baseUrl }}>
      <UsageView me={{ ...me, key }} store={store} memberName={memberName} />
    </ApiProvider>,
  );
}

// An hour ago, but never before today's midnight: "today" holds it at any time of day (the run that
// starts at 00:20 would put an hour ago into yesterday).
const at = () => Math.max(new Date().setHours(0, 0, 0, 0), Date.now() - HOUR);

describe('UsageView', () => {
  it('without team entries: the single user’s view, no "By member"', async () => {
    await renderView([
      makeEntry('t1', { createdAt: at(), creditsCharged: 4 }),
      makeEntry('t2', { createdAt: at(), creditsCharged: 4 }),
    ]);
    expect(await screen.findByText(/tasks made elsewhere are not counted/)).toBeTruthy();
    expect(screen.getByTestId('usage-credits').textContent).toMatch(/^8\b/);
    expect(screen.queryByRole('heading', { name: 'By member' })).toBeNull();
  });

  it('shows a key label that looks like markup as its text, in the sentence that names it', async () => {
    await renderView([makeEntry('t1', { createdAt: at(), creditsCharged: 4 })], undefined, {
      ...me.key,
      label: '<b>Bea</b>',
    });
    const note = await screen.findByText(/tasks made elsewhere are not counted/);
    expect(note.textContent).toBe(
      'From this device’s history of <b>Bea</b> (ms_team_…): tasks made elsewhere are not counted.',
    );
    expect(note.querySelector('b')).toBeNull();
  });

  it('with team entries: every member’s tasks counted, "By member" and "By member and model"', async () => {
    await renderView(
      [
        makeEntry('mine', { createdAt: at(), creditsCharged: 4 }),
        {
          ...makeEntry('bea-1', {
            createdAt: at(),
            creditsCharged: 10,
            by: { id: 'key_bea', name: '<b>Bea</b>' },
            meta: { title: 'Dream Video', subtitle: 'v1' },
          }),
          request: { interfaceId: 'dream-video', versionId: 'v1', params: { prompt: 'a whale' } },
        },
        makeEntry('bea-2', {
          createdAt: at(),
          creditsCharged: 0,
          status: 'failed',
          outputs: [],
          by: { id: 'key_bea', name: '<b>Bea</b>' },
        }),
      ],
      'Ada',
    );
    expect(await screen.findByText(/tasks your team made through the studio/, { exact: false })).toBeTruthy();
    expect(screen.queryByText(/tasks made elsewhere are not counted/)).toBeNull();
    expect(screen.getByTestId('usage-credits').textContent).toMatch(/^14\b/);
    // The service's figure for this key compares with this member's own tasks only.
    expect(screen.getByTestId('usage-today').textContent).toMatch(/^4\b/);

    const members = screen.getByRole('region', { name: 'By member' });
    const rows = within(members).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['<b>Bea</b>', 'Ada(you)']);
    expect(members.querySelector('b')).toBeNull();
    const bea = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(bea[0]).toBe('2'); // tasks
    expect(bea[1]).toBe('50%'); // failure rate
    expect(bea[2]).toMatch(/^10\b/); // credits

    const byModel = screen.getByRole('region', { name: 'By member and model' });
    expect(within(byModel).getAllByRole('row')).toHaveLength(4); // header + Bea×Dream, Bea×Lumen, Ada×Lumen
    expect(within(byModel).getByText('Dream Video')).toBeTruthy();
  });
});

describe('UsageView: the team by month', () => {
  it('shows every month the team space keeps, the room’s own tasks added, newest first; or why it cannot', async () => {
    const store = await storeWith([]);
    const client = new ApiClient({ baseUrl: 'https://api.example.test/v1', apiKey: 'sk_test' });
    const liveTask = TeamTaskSchema.parse(
      toTeamTask(makeEntry('t_live', { createdAt: Date.UTC(2026, 10, 3), creditsCharged: 4 }), 'key_b'),
    );
    const source = {
      months: async () => [
        { month: '2025-12', by: 'key_a', tasks: 40, succeeded: 30, failed: 10, credits: 120 },
        { month: '2026-11', by: 'key_a', tasks: 9, succeeded: 9, failed: 0, credits: 36 },
      ],
      live: () => [liveTask],
    };
    const view = (teamMonths: TeamMonthsSource) => (
      <ApiProvider value={{ client, connectionId: CONNECTION, baseUrl: client.baseUrl }}>
        <UsageView me={me} store={store} teamMonths={teamMonths} />
      </ApiProvider>
    );
    const { rerender } = render(view(source));
    const section = screen.getByRole('region', { name: 'The team by month' });
    const rows = await within(section).findAllByTestId('team-month');
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['November 2026', '2', '10', '0%', '40 credits'],
      ['December 2025', '1', '40', '25%', '120 credits'],
    ]);
    rerender(view({ ...source, months: async () => null }));
    expect(await within(section).findByRole('alert')).toHaveProperty(
      'textContent',
      'The team space could not be reached for the team’s months.',
    );
  });
});
