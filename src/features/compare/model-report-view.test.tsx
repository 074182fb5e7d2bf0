import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../contract/me';
import type { TaskStatus } from '../../../contract/task';
import { cellKey, withScore, type Board, type Cell } from '../../model/compare/boards';
import { TeamBoards } from '../../model/compare/team-boards';
import { TeamSpace } from '../../model/team/team-space';
import { TeamVotes } from '../../model/compare/team-votes';
import { fakeClient, renderWithApi } from '../../test/catalog-test-utils';
import { freshDatabase } from '../../test/gallery-test-utils';
import type { CompareTeam } from './compare-team';
import { CompareView } from './compare-view';
import { modelReport, type ReportBoard } from '../../model/compare/model-report';
import type { Vote } from '../../model/compare/votes';
import type { HistoryEntry } from '../../model/history/history-types';
import type { ComponentProps } from 'react';
import { ModelReportDialog } from './model-report-view';
import type { ModelNames } from './report-export/report-content';

// The Model report of one board, on a fixture whose figures are worked out by hand beside it: the table
// (the accessible form), the Preliminary badge, the module's order, the charts' front, and nothing for a
// member still blind on the board; and, opened from a team board's toolbar, every member's votes.

const A = 'alpha@a1';
const B = 'beta@b1';
const C = 'gamma@g1';
const ROWS = ['r1', 'r2', 'r3'];

interface Run {
  model: string;
  row: string;
  status?: TaskStatus;
  credits: number;
  seconds: number;
  code?: string;
}

let seq = 0;
const entry = (run: Run): HistoryEntry => {
  seq++;
  const status = run.status ?? 'succeeded';
  const [modelId, versionId] = run.model.split('@') as [string, string];
  const createdAt = 1_000_000 + seq * 100_000;
  return {
    taskId: `t${seq}`,
    connectionId: 'conn',
    request: { interfaceId: modelId, versionId, params: { prompt: run.row } },
    meta: {
      title: modelId,
      subtitle: '',
      kind: 'model',
      mediaType: 'image',
      category: 'image/default',
      modelId,
      versionId,
      estimatedSeconds: null,
      quotedCredits: null,
    },
    status,
    outputs: status === 'succeeded' ? [{ url: `https://cdn.example/t${seq}.png` }] : [],
    error: status === 'failed' ? { message: 'failed', code: run.code ?? 'generation_failed' } : null,
    creditsCharged: run.credits,
    createdAt,
    completedAt: createdAt + run.seconds * 1000,
    idempotencyKey: `k${seq}`,
    unseen: false,
  };
};

// Alpha: 3 outputs at 4 credits, 10, 20 and 30 s: 4 credits per output, median 20 s, p95 the 3rd of 3
// (⌈2.85⌉) = 30 s, no failure.
// Beta: 2 outputs at 2 credits (5 and 7 s) and a failure refunded (0): (2 + 2 + 0) / 2 = 2 credits per
// output, median 6 s, p95 7 s, failure rate 1/3 = 33%.
// Gamma: 2 outputs at 10 credits (40 s each) and one blocked by moderation: 10 credits, 40 s,
// moderation rate 1/3 = 33%, failure rate 0%.
const RUNS: Run[] = [
  { model: A, row: 'r1', credits: 4, seconds: 10 },
  { model: A, row: 'r2', credits: 4, seconds: 30 },
  { model: A, row: 'r3', credits: 4, seconds: 20 },
  { model: B, row: 'r1', credits: 2, seconds: 5 },
  { model: B, row: 'r2', credits: 2, seconds: 7 },
  { model: B, row: 'r3', credits: 0, seconds: 3, status: 'failed' },
  { model: C, row: 'r1', credits: 10, seconds: 40 },
  { model: C, row: 'r2', credits: 10, seconds: 40 },
  { model: C, row: 'r3', credits: 0, seconds: 1, status: 'failed', code: 'moderation_blocked' },
];
const TASKS = RUNS.map(entry);
const CELLS: Record<string, Cell> = Object.fromEntries(
  RUNS.map((run, i) => [
    cellKey(run.row, run.model),
    { idempotencyKey: TASKS[i]!.idempotencyKey!, taskId: TASKS[i]!.taskId, request: '{}', runAt: 0 },
  ]),
);
const BOARD: ReportBoard = {
  id: 'board-1',
  setup: {
    category: 'image/default',
    columns: [A, B, C].map((k) => ({ modelId: k.split('@')[0]!, versionId: k.split('@')[1]! })),
    rows: ROWS.map((id) => ({ id, prompt: `prompt ${id}` })),
    shared: {},
    perColumn: {},
  },
  cells: CELLS,
};

const NAMES: Record<string, { name: string; versionName: string }> = {
  [A]: { name: 'Alpha', versionName: 'A1' },
  [B]: { name: 'Beta', versionName: 'B1' },
  [C]: { name: 'Gamma', versionName: 'G1' },
};
const names: ModelNames = (key) => NAMES[key];

let voteSeq = 0;
const vote = (winner: string | null, keys: string[], member: string): Vote => {
  voteSeq++;
  return {
    connectionId: member,
    id: `board-1|v${voteSeq}`,
    boardId: 'board-1',
    rowId: `v${voteSeq}`,
    category: 'image/default',
    candidates: keys.map((key) => ({
      key,
      modelId: key.split('@')[0]!,
      versionId: key.split('@')[1]!,
      name: NAMES[key]!.name,
      versionName: NAMES[key]!.versionName,
    })),
    winner,
    at: voteSeq,
  };
};
// Two members' votes (a team's): Alpha beats Beta 8 to 4 over 12 votes (neither preliminary, at 10),
// Alpha beats Gamma twice (Gamma: 2 votes, preliminary). Alpha 10 / 4 / 0 in 14 votes, Beta 4 / 8 / 0
// in 12, Gamma 0 / 2 / 0 in 2. A vote on another board does not count.
const VOTES: Vote[] = [
  ...Array.from({ length: 8 }, (_, i) => vote(A, [A, B], i % 2 ? 'ann' : 'bob')),
  ...Array.from({ length: 4 }, (_, i) => vote(B, [A, B], i % 2 ? 'ann' : 'bob')),
  vote(A, [A, C], 'ann'),
  vote(A, [A, C], 'bob'),
  { ...vote(C, [A, C], 'ann'), boardId: 'other-board' },
];

const renderReport = (blind = false, more: Partial<ComponentProps<typeof ModelReportDialog>> = {}) =>
  render(
    <ModelReportDialog
      open
      onOpenChange={() => undefined}
      board={BOARD}
      tasks={TASKS}
      votes={VOTES}
      names={names}
      blind={blind}
      inTeam
      {...more}
    />,
  );

/** The table's body rows, each as its cells' text by column header. */
function tableRows() {
  const table = screen.getByRole('table');
  const headers = within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent ?? '');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const cells = [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? '');
      return Object.fromEntries(headers.map((h, i) => [h, cells[i]!]));
    });
}

afterEach(cleanup);

describe('ModelReportDialog: every board of the category', () => {
  it('reports over the boards loadCategory gives, every board’s votes, and back on This board only its own', async () => {
    const user = userEvent.setup();
    const second: ReportBoard = { ...BOARD, id: 'board-2', cells: {} };
    // Four more votes, on the second board: Beta beats Alpha each time.
    const more = Array.from({ length: 4 }, (_, i) => ({
      ...vote(B, [A, B], 'ann'),
      boardId: 'board-2',
      rowId: `x${i}`,
    }));
    const loadCategory = vi.fn(async () => ({
      boards: [BOARD, second],
      tasks: TASKS,
      votes: [...VOTES, ...more],
    }));
    renderReport(false, { loadCategory, votes: [...VOTES, ...more] });
    const alphaOf = () => tableRows().find((r) => r['Model']!.startsWith('Alpha'))!;
    expect(alphaOf()['Votes']).toBe('14');
    await user.click(screen.getByRole('radio', { name: 'All boards of Image · Generate' }));
    await waitFor(() => expect(alphaOf()['Votes']).toBe('18'));
    expect(alphaOf()['Wins / losses / ties']).toBe('10 / 8 / 0');
    expect(
      screen.getByText('Every board of this category you can see the results of: 2 boards.'),
    ).toBeTruthy();
    expect(loadCategory).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('radio', { name: 'This board' }));
    expect(alphaOf()['Votes']).toBe('14');
  });

  it('offers no category to a member still blind on the board', () => {
    renderReport(true, { loadCategory: async () => ({ boards: [], tasks: [], votes: [] }) });
    expect(screen.queryByRole('radiogroup', { name: 'Report on' })).toBeNull();
  });
});

describe('ModelReportDialog: criteria', () => {
  it('adds a column per criterion the board names, averaging every member’s scores of each model’s cells', () => {
    let ann = withScore(undefined, cellKey('r1', A), 'c1', 5, 1);
    ann = withScore(ann, cellKey('r2', A), 'c1', 4, 1);
    ann = withScore(ann, cellKey('r1', B), 'c1', 2, 1);
    const bob = withScore(undefined, cellKey('r1', A), 'c1', 3, 2);
    renderReport(false, {
      board: { ...BOARD, criteria: [{ id: 'c1', name: 'Look' }], scores: { ann, bob } },
    });
    const rows = tableRows();
    // Alpha: 5, 4, 3 → 4.0 of 3 scores; Beta: 2 of 1; Gamma unscored.
    expect(rows.map((r) => r['Look (1-5)'])).toEqual(['43 scores', '21 score', '—none']);
  });
});

describe('ModelReportDialog', () => {
  it('shows each model’s figures in the module’s order, Preliminary under the threshold', () => {
    renderReport();
    const dialog = screen.getByRole('dialog', { name: 'Model report' });
    expect(within(dialog).getByRole('table')).toBeTruthy();
    const rows = tableRows();
    // Order: Alpha and Beta (not preliminary) by their interval's lower bound, Gamma (preliminary) after.
    expect(rows.map((r) => r['Model'])).toEqual(['Alpha A1', 'Beta B1', 'Gamma G1 Preliminary']);
    expect(rows.map((r) => r['#'])).toEqual(['1', '2', '3']);

    const [alpha, beta, gamma] = rows as [
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
    ];
    expect(alpha['Wins / losses / ties']).toBe('10 / 4 / 0');
    expect(beta['Wins / losses / ties']).toBe('4 / 8 / 0');
    expect(gamma['Wins / losses / ties']).toBe('0 / 2 / 0');
    expect([alpha['Votes'], beta['Votes'], gamma['Votes']]).toEqual(['14', '12', '2']);
    expect([alpha['Outputs'], beta['Outputs'], gamma['Outputs']]).toEqual(['3', '2', '2']);

    expect(alpha['Credits per output']).toBe('4 credits');
    expect(beta['Credits per output']).toBe('2 credits');
    expect(gamma['Credits per output']).toBe('10 credits');
    expect(alpha['Median run time']).toBe('20 s');
    expect(alpha['p95 run time']).toBe('30 sp95 of 3 runs');
    expect(beta['Median run time']).toBe('6 s');
    expect(beta['p95 run time']).toBe('7 sp95 of 2 runs');
    expect(gamma['Median run time']).toBe('40 s');
    expect([alpha['Failure rate'], beta['Failure rate'], gamma['Failure rate']]).toEqual(['0%', '33%', '0%']);
    expect([alpha['Moderation rate'], beta['Moderation rate'], gamma['Moderation rate']]).toEqual([
      '0%',
      '0%',
      '33%',
    ]);
    // The rating: the module's point, interval and rank spread, rounded and in the locale's digits.
    const report = modelReport({ boards: [BOARD], tasks: TASKS, votes: VOTES });
    const en = (n: number) => Math.round(n).toLocaleString('en');
    expect(rows.map((r) => r['Rating (95 % interval)'])).toEqual(
      report.models.map(({ rating: r }) => {
        const ranks = r!.bestRank === r!.worstRank ? `${r!.bestRank}` : `${r!.bestRank}–${r!.worstRank}`;
        return `${en(r!.point)} (${en(r!.low)}–${en(r!.high)})rank ${ranks}`;
      }),
    );
    const [pa, pb, pc] = report.models.map((m) => m.rating!.point) as [number, number, number];
    expect(pa).toBeGreaterThan(pb);
    expect(pa).toBeGreaterThan(pc);

    expect(within(dialog).getAllByText('Preliminary')).toHaveLength(1);
    expect(within(dialog).getByText(/From 14 blind votes of every member of the team/)).toBeTruthy();
  });

  it('marks the front on both charts: Alpha (best) and Beta (cheapest, fastest), not Gamma', () => {
    renderReport();
    const credits = screen.getByRole('img', { name: /^Quality against credits per output\./ });
    const time = screen.getByRole('img', { name: /^Quality against median run time\./ });
    for (const chart of [credits, time]) {
      expect(chart.getAttribute('aria-label')).toMatch(/On the front .*: Beta B1, Alpha A1\.$/);
      const front = [...chart.querySelectorAll('[data-front="true"]')].map((g) =>
        g.getAttribute('data-model'),
      );
      expect(front.sort()).toEqual([A, B]);
      expect(chart.querySelector(`[data-model="${C}"]`)?.getAttribute('data-front')).toBe('false');
      // The front's line joins its marks, cheapest first.
      expect(chart.querySelector('[data-front-line]')?.getAttribute('points')?.split(' ')).toHaveLength(2);
    }
  });

  it('shows the board’s decision in force above the table and marks its model Chosen; the earlier one in its history', () => {
    renderReport(false, {
      decisions: [
        { column: A, reason: 'first look', by: 'ann', at: 1 },
        { column: B, reason: 'cheaper for the same', by: 'bob', at: 2 },
      ],
      memberName: (id) => ({ ann: 'Ann', bob: 'Bob' })[id] ?? '',
    });
    const dialog = screen.getByRole('dialog', { name: 'Model report' });
    const decision = within(dialog).getByRole('region', { name: 'Decision' });
    expect(decision.textContent).toMatch(/Chosen model:\s*Beta · B1 by Bob/);
    expect(decision.textContent).toContain('cheaper for the same');
    expect(within(decision).getByText('Earlier decisions (1)')).toBeTruthy();
    const chosen = within(dialog).getAllByText('Chosen');
    expect(chosen).toHaveLength(1);
    expect(chosen[0]!.closest('tr')!.textContent).toContain('Beta');
  });

  it('shows a member still blind on the board no result', () => {
    renderReport(true);
    const dialog = screen.getByRole('dialog', { name: 'Model report' });
    expect(within(dialog).getByText('You are still blind on this board.')).toBeTruthy();
    expect(within(dialog).queryByRole('table')).toBeNull();
    expect(within(dialog).queryByRole('img')).toBeNull();
    expect(within(dialog).queryByText(/Alpha|Beta|Gamma|credits/)).toBeNull();
  });
});

describe('the Model report of a team board, from the board’s toolbar', () => {
  const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
  const LUMEN = { modelId: 'lumen-canvas', versionId: 'lumen-canvas-v2' };
  const AURORA = { modelId: 'northwind-aurora', versionId: 'northwind-aurora-1' };
  const teamBoard: Board = {
    id: 'board-1',
    connectionId: 'team',
    name: 'Lighthouses',
    createdAt: T0,
    updatedAt: T0,
    setup: {
      category: 'image/default',
      columns: [LUMEN, AURORA],
      rows: [
        { id: 'r1', prompt: 'a lighthouse in fog' },
        { id: 'r2', prompt: 'a harbour at dawn' },
      ],
      shared: {},
      perColumn: {},
    },
    cells: {},
    favourites: {},
    notes: {},
    blind: true,
    decisions: [],
    criteria: [],
    scores: {},
  };
  const spaces: Array<{ space: TeamSpace; boards: TeamBoards; votes: TeamVotes }> = [];
  const member = (id: string) => {
    const space = new TeamSpace(new Y.Doc(), id, () => T0);
    const m = { space, boards: new TeamBoards(space), votes: new TeamVotes(space) };
    spaces.push(m);
    return m;
  };
  const sync = () =>
    act(() => {
      for (const a of spaces)
        for (const b of spaces)
          if (a !== b)
            Y.applyUpdate(b.space.doc, Y.encodeStateAsUpdate(a.space.doc, Y.encodeStateVector(b.space.doc)));
    });
  const teamOf = (m: (typeof spaces)[number]): CompareTeam => ({
    boards: m.boards,
    votes: m.votes,
    memberId: m.space.memberId,
    memberName: () => '',
  });
  const open = async (team: CompareTeam) => {
    const user = userEvent.setup();
    renderWithApi(
      <CompareView
        source={{ kind: 'saved', id: 'board-1' }}
        runner={null}
        me={{ id: team.memberId, credits: { balance: 5000, currency: 'credits' } } as unknown as Me}
        renderParam={() => null}
        onOpen={() => undefined}
        shareUrl={(e) => `https://studio.test/?board=${e}`}
        team={team}
      />,
      fakeClient().client,
    );
    await user.click(await screen.findByRole('button', { name: 'Model report' }));
    return screen.findByRole('dialog', { name: 'Model report' });
  };

  beforeEach(async () => {
    await freshDatabase();
    // Ada's vote and Bea's two: Aurora wins 2 of 3.
    const ada = member('member-a');
    const bea = member('member-b');
    ada.boards.save(teamBoard);
    const candidates = [LUMEN, AURORA].map((c, i) => ({
      key: `${c.modelId}@${c.versionId}`,
      ...c,
      name: i ? 'Aurora XL' : 'Lumen Canvas',
      versionName: 'v',
    }));
    const input = { boardId: 'board-1', category: 'image/default', candidates };
    ada.votes.vote({ ...input, rowId: 'r1', winner: candidates[0]!.key });
    bea.votes.vote({ ...input, rowId: 'r1', winner: candidates[1]!.key });
    bea.votes.vote({ ...input, rowId: 'r2', winner: candidates[1]!.key });
    sync();
  });
  afterEach(() => {
    cleanup();
    spaces.splice(0).forEach((m) => {
      m.boards.destroy();
      m.votes.destroy();
      m.space.destroy();
    });
  });

  it('counts every member’s votes for a member who revealed', async () => {
    const bea = spaces[1]!;
    act(() => bea.boards.reveal('board-1'));
    const dialog = await open(teamOf(bea));
    expect(within(dialog).getByText(/From 3 blind votes of every member of the team/)).toBeTruthy();
    const rows = tableRows();
    expect(rows.map((r) => [r['Model']!.split(' ')[0], r['Wins / losses / ties'], r['Votes']])).toEqual([
      ['Aurora', '2 / 1 / 0', '3'],
      ['Lumen', '1 / 2 / 0', '3'],
    ]);
  });

  it('shows a member still blind on the team board no result, though the others revealed', async () => {
    const [ada, bea] = spaces as [(typeof spaces)[number], (typeof spaces)[number]];
    act(() => bea.boards.reveal('board-1'));
    sync();
    const dialog = await open(teamOf(ada));
    expect(within(dialog).getByText('You are still blind on this board.')).toBeTruthy();
    expect(within(dialog).queryByRole('table')).toBeNull();
    expect(within(dialog).queryByText(/Aurora|Lumen/)).toBeNull();
  });
});
