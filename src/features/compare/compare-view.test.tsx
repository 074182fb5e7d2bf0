import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as Y from 'yjs';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Me } from '../../../contract/me';
import { getBoard, saveBoard, type Board } from '../../model/compare/boards';
import type { Candidate } from '../../model/compare/votes';
import { TeamBoards } from '../../model/compare/team-boards';
import { TeamSpace } from '../../model/team/team-space';
import { TeamVotes } from '../../model/compare/team-votes';
import { fakeClient, renderWithApi } from '../../test/catalog-test-utils';
import { freshDatabase } from '../../test/gallery-test-utils';
import { speak, speakEnglish } from '../../test/i18n-test-utils';
import { NoticeArea } from '../../components/notice-area';
import type { CompareTeam } from './compare-team';
import type { BoardSource } from './board-source';
import { CompareView } from './compare-view';
import type { CompareRunner } from './send-cells';

// The compare view with the team space on (docs/team-space.md): a board shared live between members. Each
// member is a Y.Doc of their own, synced here by hand (as the provider would) inside act().

const me = { id: 'user-1', credits: { balance: 5000, currency: 'credits' } } as unknown as Me;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const LUMEN = { modelId: 'lumen-canvas', versionId: 'lumen-canvas-v2' };
const AURORA = { modelId: 'northwind-aurora', versionId: 'northwind-aurora-1' };

const board = (patch: Partial<Board> = {}): Board => ({
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
  blind: false,
  decisions: [],
  criteria: [],
  scores: {},
  ...patch,
});

interface Member {
  space: TeamSpace;
  boards: TeamBoards;
  votes: TeamVotes;
}
const members: Member[] = [];
function member(id: string, name: string): Member {
  const space = new TeamSpace(new Y.Doc(), id, () => T0);
  space.awareness.setLocalStateField('member', { id, name });
  const m = { space, boards: new TeamBoards(space), votes: new TeamVotes(space) };
  members.push(m);
  return m;
}

/** What the provider does: every document gets what it lacks, every presence is heard. */
function sync(): void {
  act(() => {
    for (const a of members)
      for (const b of members)
        if (a !== b) {
          Y.applyUpdate(
            b.space.doc,
            Y.encodeStateAsUpdate(a.space.doc, Y.encodeStateVector(b.space.doc)),
            'remote',
          );
          applyAwarenessUpdate(
            b.space.awareness,
            encodeAwarenessUpdate(a.space.awareness, [a.space.awareness.clientID]),
            'remote',
          );
        }
  });
}

const NAMES: Record<string, string> = { 'member-a': 'Ada', 'member-b': 'Bea' };
const teamOf = (m: Member): CompareTeam => ({
  boards: m.boards,
  votes: m.votes,
  memberId: m.space.memberId,
  memberName: (id) => NAMES[id] ?? '',
});

function renderView(team: CompareTeam | null, source: BoardSource = { kind: 'saved', id: 'board-1' }) {
  const onOpen = vi.fn<(s: BoardSource) => void>();
  const user = userEvent.setup();
  renderWithApi(
    <CompareView
      source={source}
      runner={null}
      me={me}
      renderParam={() => null}
      onOpen={onOpen}
      shareUrl={(e) => `https://studio.test/?board=${e}`}
      team={team}
      renderCellExtras={({ cellKey }) => <span data-testid="cell-extras">{cellKey}</span>}
    />,
    fakeClient().client,
  );
  // The studio's notice area, as the app mounts it beside the view.
  renderWithApi(<NoticeArea />, fakeClient().client);
  return { user, onOpen };
}

const cand = (col: { modelId: string; versionId: string }, name: string): Candidate => ({
  key: `${col.modelId}@${col.versionId}`,
  modelId: col.modelId,
  versionId: col.versionId,
  name,
  versionName: 'v',
});

beforeEach(async () => {
  await freshDatabase();
});
afterEach(() => {
  cleanup();
  members.splice(0).forEach((m) => {
    m.boards.destroy();
    m.votes.destroy();
    m.space.destroy();
  });
  vi.restoreAllMocks();
});

describe('CompareView with the team space on', () => {
  it("shows another member's edit of the board, and lists the team's boards", async () => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    a.boards.save(board());
    sync();
    renderView(teamOf(a));
    const name = await screen.findByLabelText('Board name');
    expect(name).toHaveProperty('value', 'Lighthouses');
    expect(within(screen.getByRole('list', { name: 'Team boards' })).getByText('Lighthouses')).toBeTruthy();
    // The app's slot in each cell (two prompts by two models), told which cell it is in.
    const extras = await screen.findAllByTestId('cell-extras');
    expect(extras.map((e) => e.textContent)).toContain('r2|northwind-aurora@northwind-aurora-1');
    expect(extras).toHaveLength(4);

    const fromB = b.boards.get('board-1')!.board;
    b.boards.save({
      ...fromB,
      name: 'Lighthouses <b>by Bea</b>',
      setup: {
        ...fromB.setup,
        rows: fromB.setup.rows.map((r) => (r.id === 'r2' ? { ...r, prompt: 'a harbour at dusk' } : r)),
      },
    });
    sync();
    await waitFor(() => expect(name).toHaveProperty('value', 'Lighthouses <b>by Bea</b>'));
    expect(screen.getByLabelText('Prompt 2')).toHaveProperty('value', 'a harbour at dusk');
    // Untrusted text stays text.
    expect(
      within(screen.getByRole('list', { name: 'Team boards' })).getByText('Lighthouses <b>by Bea</b>'),
    ).toBeTruthy();
  });

  it('writes this member’s edits to the team, and says who else has the board open', async () => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    a.boards.save(board());
    sync();
    const { user } = renderView(teamOf(a));
    await screen.findByLabelText('Board name');
    // This member's own presence is announced once the board is open.
    expect(a.space.awareness.getLocalState()?.board).toBe('board-1');
    expect(screen.getByTestId('board-viewers').textContent).toMatch(/No one else has it open/);

    b.boards.setOpen('board-1');
    sync();
    await waitFor(() => expect(screen.getByTestId('board-viewers').textContent).toBe('Also open by Bea'));

    await user.type(screen.getByLabelText('Prompt 1'), ', at night');
    sync();
    expect(b.boards.get('board-1')!.board.setup.rows[0]!.prompt).toBe('a lighthouse in fog, at night');

    b.boards.setOpen(null);
    sync();
    await waitFor(() => expect(screen.getByTestId('board-viewers').textContent).toMatch(/No one else/));
    cleanup();
    expect(a.space.awareness.getLocalState()?.board).toBeNull();
  });

  it('Undo reverts this member’s own edit and leaves another member’s', async () => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    a.boards.save(board());
    sync();
    const { user } = renderView(teamOf(a));
    const name = await screen.findByLabelText('Board name');
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(undo).toHaveProperty('disabled', true);

    await user.type(name, ' 2');
    const fromB = b.boards.get('board-1')!.board;
    b.boards.save({
      ...fromB,
      setup: {
        ...fromB.setup,
        rows: fromB.setup.rows.map((r) => (r.id === 'r1' ? { ...r, prompt: 'by Bea' } : r)),
      },
    });
    sync();
    await waitFor(() => expect(screen.getByLabelText('Prompt 1')).toHaveProperty('value', 'by Bea'));

    await user.click(undo);
    expect(name).toHaveProperty('value', 'Lighthouses');
    expect(screen.getByLabelText('Prompt 1')).toHaveProperty('value', 'by Bea');
    sync();
    expect(b.boards.get('board-1')!.board.name).toBe('Lighthouses');

    // In a text field, Ctrl+Z is the field's own (the browser's); outside one, it is the board's.
    await user.click(screen.getByLabelText('Prompt 2'));
    await user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(name).toHaveProperty('value', 'Lighthouses');
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    await user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(name).toHaveProperty('value', 'Lighthouses 2');
  });

  it('keeps a member blind after another member’s Reveal, until they reveal', async () => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    a.boards.save(board({ blind: true }));
    sync();
    act(() => b.boards.reveal('board-1'));
    sync();
    const { user } = renderView(teamOf(a));
    const reveal = await screen.findByRole('button', { name: 'Reveal' });
    expect(screen.queryByRole('list', { name: 'Chosen models' })).toBeNull();
    await user.click(reveal);
    expect(await screen.findByRole('button', { name: 'Blind' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Chosen models' })).toBeTruthy();
    sync();
    expect(b.boards.get('board-1')!.revealedBy).toEqual({ 'member-a': T0, 'member-b': T0 });
  });

  it('shows the team’s Leaderboard and this member’s with Team and Mine', async () => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    a.boards.save(board({ blind: true }));
    const candidates = [cand(LUMEN, 'Lumen Canvas'), cand(AURORA, 'Aurora XL')];
    const input = { boardId: 'board-1', category: 'image/default', candidates };
    a.votes.vote({ ...input, rowId: 'r1', winner: candidates[0]!.key });
    b.votes.vote({ ...input, rowId: 'r1', winner: candidates[1]!.key });
    b.votes.vote({ ...input, rowId: 'r2', winner: candidates[1]!.key });
    sync();
    const { user } = renderView(teamOf(a));
    await user.click(await screen.findByRole('button', { name: 'Leaderboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leaderboard' });
    const team = within(dialog).getByRole('button', { name: 'Team' });
    expect(team.getAttribute('aria-pressed')).toBe('true');
    expect(within(dialog).getByText(/3 votes of every member/)).toBeTruthy();
    // The interval is named for how it is computed.
    expect(
      within(dialog).getByRole('columnheader', { name: 'Rating (95 % bootstrap interval)' }),
    ).toBeTruthy();
    const aurora = within(dialog)
      .getByRole('rowheader', { name: /Aurora XL/ })
      .closest('tr')!;
    expect(
      within(aurora)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('2');

    await user.click(within(dialog).getByRole('button', { name: 'Mine' }));
    expect(within(dialog).getByText(/1 vote of yours/)).toBeTruthy();
    const lumen = within(dialog)
      .getByRole('rowheader', { name: /Lumen Canvas/ })
      .closest('tr')!;
    expect(
      within(lumen)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', expect.any(String), '1', '0', '0', '100%']);
  });

  it('makes a new board in the team once it holds something', async () => {
    const a = member('member-a', 'Ada');
    const { user, onOpen } = renderView(teamOf(a), { kind: 'new' });
    await user.type(await screen.findByLabelText('Prompt 1'), 'a cat');
    await waitFor(() => expect(a.boards.snapshot()).toHaveLength(1));
    const made = a.boards.snapshot()[0]!;
    expect(made.board.setup.rows[0]!.prompt).toBe('a cat');
    expect(made.createdBy).toBe('member-a');
    expect(onOpen).toHaveBeenCalledWith({ kind: 'saved', id: made.board.id });
  });
});

describe('CompareView: boards on this device with the team space on', () => {
  it('lists them under On this device, and Share to team puts a copy in the team', async () => {
    const a = member('member-a', 'Ada');
    await saveBoard(board({ id: 'local-1', connectionId: 'test-connection', name: 'Mine alone' }));
    const { user, onOpen } = renderView(teamOf(a), { kind: 'new' });
    const local = await screen.findByRole('list', { name: 'Boards on this device' });
    expect(within(local).getByText('Mine alone')).toBeTruthy();
    await user.click(within(local).getByRole('button', { name: 'Share to team: Mine alone' }));
    const [shared] = a.boards.snapshot();
    expect(shared?.board).toMatchObject({ name: 'Mine alone', setup: board().setup });
    expect(shared?.board.id).not.toBe('local-1');
    expect(onOpen).toHaveBeenLastCalledWith({ kind: 'saved', id: shared?.board.id });
    expect(within(screen.getByRole('list', { name: 'Team boards' })).getByText('Mine alone')).toBeTruthy();
    // The board on this device stays as it was.
    expect(await getBoard('test-connection', 'local-1')).toMatchObject({ name: 'Mine alone' });
  });
});

describe('CompareView with the team space off', () => {
  it('keeps boards on this device and shows no team', async () => {
    renderView(null, { kind: 'new' });
    expect(await screen.findByText('Boards you build are saved here, on this device.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Team boards' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(screen.queryByTestId('board-viewers')).toBeNull();
  });
});

/** The view as the app holds it: a board's first save opens it by id, as the URL then names it. */
function StatefulView({ team, first }: { team: CompareTeam | null; first: BoardSource }) {
  const [source, setSource] = useState<BoardSource>(first);
  return (
    <CompareView
      source={source}
      runner={null}
      me={me}
      renderParam={() => null}
      onOpen={setSource}
      shareUrl={(e) => `https://studio.test/?board=${e}`}
      team={team}
    />
  );
}

/** The setup line of the board named `name` in the list `list`. */
const listedCounts = (list: HTMLElement, name: string) =>
  within(list).getByText(name).closest('button')!.querySelector('span:last-child')!.textContent;

describe('CompareView: the Boards list follows the board being edited', () => {
  async function buildBoard(user: ReturnType<typeof userEvent.setup>, name: string) {
    const boardName = await screen.findByLabelText('Board name');
    await user.clear(boardName);
    await user.type(boardName, name);
    const add = screen.getByRole('combobox', { name: 'Add model' });
    await waitFor(() => expect(add).toHaveProperty('disabled', false));
    await user.selectOptions(add, 'lumen-canvas@lumen-canvas-v2');
  }

  async function growBoard(user: ReturnType<typeof userEvent.setup>) {
    const add = screen.getByRole('combobox', { name: 'Add model' });
    await user.selectOptions(add, 'lumen-canvas@lumen-canvas-v3');
    await user.selectOptions(add, 'northwind-aurora@northwind-aurora-1');
    await user.click(screen.getByRole('button', { name: 'Add prompt' }));
    await user.type(screen.getByLabelText('Prompt 2'), 'a harbour at dawn');
  }

  it('updates a board on this device from "1 model · 1 prompt" to "3 models · 2 prompts" without a reload', async () => {
    const user = userEvent.setup();
    renderWithApi(<StatefulView team={null} first={{ kind: 'new' }} />, fakeClient().client);
    await buildBoard(user, 'Harbours');
    const list = await screen.findByRole('navigation', { name: 'Boards' });
    await waitFor(() => expect(listedCounts(list, 'Harbours')).toBe('1 model · 1 prompt'));
    await growBoard(user);
    await waitFor(() => expect(listedCounts(list, 'Harbours')).toBe('3 models · 2 prompts'));
    // A rename shows too, and what is listed is what is on disk.
    await user.type(screen.getByLabelText('Board name'), ' at dawn');
    await waitFor(() => expect(within(list).getByText('Harbours at dawn')).toBeTruthy());
  });

  it('updates a team board in the Team boards list without a reload', async () => {
    const a = member('member-a', 'Ada');
    const user = userEvent.setup();
    renderWithApi(<StatefulView team={teamOf(a)} first={{ kind: 'new' }} />, fakeClient().client);
    await buildBoard(user, 'Harbours');
    const list = await screen.findByRole('list', { name: 'Team boards' });
    await waitFor(() => expect(listedCounts(list, 'Harbours')).toBe('1 model · 1 prompt'));
    await growBoard(user);
    await waitFor(() => expect(listedCounts(list, 'Harbours')).toBe('3 models · 2 prompts'));
  });
});

describe('CompareView: Delete board', () => {
  it('deletes a board on this device at once, and Undo in the notice puts it back', async () => {
    const kept = board({ id: 'local-1', connectionId: 'test-connection', name: 'Kites' });
    await saveBoard(kept);
    const { user } = renderView(null, { kind: 'new' });
    await user.click(await screen.findByRole('button', { name: 'Delete board Kites' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete board Kites' })).toBeNull());
    expect(await getBoard('test-connection', 'local-1')).toBeNull();
    const notice = within(screen.getByRole('region', { name: /^Notices/ }))
      .getByText('Deleted the board “Kites”. Its tasks stay in the history.')
      .closest('li')!;
    await user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('button', { name: 'Delete board Kites' })).toBeTruthy();
    expect(await getBoard('test-connection', 'local-1')).toEqual(kept);
  });

  it('deletes a team board for everyone, without a confirm box, and Undo brings it back for everyone', async () => {
    // A confirm box would refuse (happy-dom has none): the board is gone only if none is asked.
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    onTestFinished(() => void vi.unstubAllGlobals());
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    a.boards.save(board({ name: 'Kites' }));
    sync();
    const before = b.boards.get('board-1');
    const { user, onOpen } = renderView(teamOf(a));
    await user.click(await screen.findByRole('button', { name: 'Delete board Kites' }));
    sync();
    expect(b.boards.get('board-1')).toBeNull();
    expect(onOpen).toHaveBeenLastCalledWith({ kind: 'new' });
    const notice = within(screen.getByRole('region', { name: /^Notices/ }))
      .getByText('Deleted the board “Kites” for everyone in the team.')
      .closest('li')!;
    await user.click(within(notice).getByRole('button', { name: 'Undo' }));
    sync();
    expect(b.boards.get('board-1')).toEqual(before);
    expect(confirm).not.toHaveBeenCalled();
  });
});

const HELD = {
  items: [
    {
      idempotencyKey: 'key-1',
      held: { position: 1024, paused: false, queuedAt: T0, credits: 2, blocked: null, newPrice: null },
    },
  ],
  settings: { paused: false, pausedReason: null, sendAtOnce: false, stopAfterCredits: null },
  sentCredits: 0,
};
const NO_TASKS: never[] = [];

describe('CompareView in the studio’s language', () => {
  afterEach(() => act(() => speakEnglish()));

  /** A board on this device with one cell that cannot run (no prompt) and a model this key cannot see. */
  const unready = () =>
    saveBoard(
      board({
        id: 'local-1',
        connectionId: 'test-connection',
        setup: {
          category: 'image/default',
          columns: [LUMEN, { modelId: 'retired', versionId: 'retired-1' }],
          rows: [{ id: 'r1', prompt: '' }],
          shared: {},
          perColumn: {},
        },
      }),
    );

  it('says one cell and one model in the singular', async () => {
    await unready();
    renderView(null, { kind: 'saved', id: 'local-1' });
    expect(await screen.findByText('1 model of this board is not in the catalog for this key.')).toBeTruthy();
    expect(screen.getByText(/ 1 cell cannot run yet\.$/)).toBeTruthy();
  });

  it('follows a change of language, the problems of its cells too', async () => {
    await unready();
    renderView(null, { kind: 'saved', id: 'local-1' });
    await waitFor(() => expect(screen.getByTestId('cell-status').textContent).toBe('Needs a prompt'));
    act(() =>
      speak({
        'Needs a prompt': 'Il manque le prompt',
        'Run all': 'Tout lancer',
        '{problems, plural, one {# cell cannot run yet.} other {# cells cannot run yet.}}':
          '{problems, plural, one {# case ne peut pas partir.} other {# cases ne peuvent pas partir.}}',
      }),
    );
    expect(screen.getByTestId('cell-status').textContent).toBe('Il manque le prompt');
    expect(screen.getByRole('button', { name: 'Tout lancer' })).toBeTruthy();
    expect(screen.getByText(/ 1 case ne peut pas partir\.$/)).toBeTruthy();
  });

  it('says a cell held in the queue in the language of the moment', async () => {
    await saveBoard(
      board({
        id: 'local-1',
        connectionId: 'test-connection',
        cells: { 'r1|lumen-canvas@lumen-canvas-v2': { idempotencyKey: 'key-1', request: '{}', runAt: T0 } },
      }),
    );
    // What the board reads of the runner: an empty history, and the cell's task held in the queue.
    const runner = {
      store: { subscribe: () => () => undefined, list: () => NO_TASKS, whenLoaded: async () => undefined },
      queue: {
        subscribe: () => () => undefined,
        snapshot: () => HELD,
        unsent: async () => null,
      },
    } as unknown as CompareRunner;
    renderWithApi(
      <CompareView
        source={{ kind: 'saved', id: 'local-1' }}
        runner={runner}
        me={me}
        renderParam={() => null}
        onOpen={() => undefined}
        shareUrl={(e) => e}
      />,
      fakeClient().client,
    );
    const held = 'Held in your queue until the pool has room; nothing is charged yet.';
    expect(await screen.findByText(held)).toBeTruthy();
    act(() => speak({ [held]: 'Gardée dans ta file ; rien n’est encore facturé.' }));
    expect(screen.getByText('Gardée dans ta file ; rien n’est encore facturé.')).toBeTruthy();
  });
});

describe('CompareView: Decide', () => {
  /** Members of a room whose server keeps decisions (schema version 3). */
  const deciders = () => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    for (const m of [a, b]) m.space.doc.getMap('meta').set('schemaVersion', 3);
    return { a, b };
  };

  it('records the model chosen and why in this member’s name; the other member has it, and the Boards list names it', async () => {
    const { a, b } = deciders();
    a.boards.save(board());
    sync();
    const { user } = renderView(teamOf(a));
    await user.click(await screen.findByRole('button', { name: 'Decide' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decide' });
    await user.click(within(dialog).getByRole('radio', { name: /^Lumen Canvas/ }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Crisper fog');
    await user.click(within(dialog).getByRole('button', { name: 'Save decision' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Decide' })).toBeNull());
    const decision = await screen.findByRole('region', { name: 'Decision' });
    expect(decision.textContent).toMatch(/Chosen model:\s*Lumen Canvas/);
    expect(decision.textContent).toContain('by Ada');
    expect(decision.textContent).toContain('Crisper fog');
    sync();
    expect(b.boards.get('board-1')!.board.decisions).toMatchObject([
      { column: 'lumen-canvas@lumen-canvas-v2', reason: 'Crisper fog', by: 'member-a' },
    ]);
    const list = screen.getByRole('list', { name: 'Team boards' });
    expect(await within(list).findByText(/^Chosen: Lumen Canvas/)).toBeTruthy();

    // Bea revises: the decision in force is hers, Ada's stays in the history.
    act(() => void b.boards.decide('board-1', { column: 'northwind-aurora@northwind-aurora-1', reason: '' }));
    sync();
    await waitFor(() => expect(decision.textContent).toContain('by Bea'));
    expect(within(decision).getByText('Earlier decisions (1)')).toBeTruthy();
  });

  it('a member still blind on the board has no Decide and sees no decision, in the board or the list', async () => {
    const { a, b } = deciders();
    a.boards.save(board({ blind: true }));
    act(() => a.boards.reveal('board-1'));
    act(() => void a.boards.decide('board-1', { column: 'lumen-canvas@lumen-canvas-v2', reason: 'fog' }));
    sync();
    renderView(teamOf(b));
    expect(await screen.findByRole('button', { name: 'Reveal' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Decide' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Decision' })).toBeNull();
    expect(screen.queryByText(/^Chosen:/)).toBeNull();
  });

  it('on this device: a decision, then a revision, both kept on the board', async () => {
    await saveBoard(board({ id: 'local-1', connectionId: 'test-connection', name: 'Kites' }));
    const { user } = renderView(null, { kind: 'saved', id: 'local-1' });
    for (const [model, reason] of [
      [/^Lumen Canvas/, 'first'],
      [/^Aurora/, 'second'],
    ] as const) {
      await user.click(await screen.findByRole('button', { name: 'Decide' }));
      const dialog = await screen.findByRole('dialog', { name: 'Decide' });
      await user.click(within(dialog).getByRole('radio', { name: model }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), reason);
      await user.click(within(dialog).getByRole('button', { name: 'Save decision' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Decide' })).toBeNull());
    }
    const decision = screen.getByRole('region', { name: 'Decision' });
    expect(decision.textContent).toMatch(/Chosen model:\s*Aurora/);
    expect(decision.textContent).toContain('by You');
    await waitFor(async () =>
      expect((await getBoard('test-connection', 'local-1'))!.decisions.map((d) => d.reason)).toEqual([
        'first',
        'second',
      ]),
    );
  });
});

describe('CompareView: Criteria', () => {
  const inRoom = (version: number) => {
    const a = member('member-a', 'Ada');
    const b = member('member-b', 'Bea');
    for (const m of [a, b]) m.space.doc.getMap('meta').set('schemaVersion', version);
    return { a, b };
  };

  it('names a team board’s criteria for every member', async () => {
    const { a, b } = inRoom(4);
    a.boards.save(board());
    sync();
    const { user } = renderView(teamOf(a));
    await user.click(await screen.findByRole('button', { name: 'Criteria' }));
    const dialog = await screen.findByRole('dialog', { name: 'Criteria' });
    await user.click(within(dialog).getByRole('button', { name: 'Add criterion' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Criterion 1' }), 'Look');
    await user.click(within(dialog).getByRole('button', { name: 'Save criteria' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Criteria' })).toBeNull());
    sync();
    expect(b.boards.get('board-1')!.board.criteria.map((c) => c.name)).toEqual(['Look']);
  });

  it('in a room whose server cannot keep them, says so and saves nothing', async () => {
    const { a } = inRoom(3);
    a.boards.save(board());
    const { user } = renderView(teamOf(a));
    await user.click(await screen.findByRole('button', { name: 'Criteria' }));
    const dialog = await screen.findByRole('dialog', { name: 'Criteria' });
    expect(within(dialog).getByRole('alert').textContent).toContain('cannot keep criteria or scores');
    expect(within(dialog).getByRole('button', { name: 'Save criteria' })).toHaveProperty('disabled', true);
  });

  it('on this device: criteria kept on the board', async () => {
    await saveBoard(board({ id: 'local-1', connectionId: 'test-connection', name: 'Kites' }));
    const { user } = renderView(null, { kind: 'saved', id: 'local-1' });
    await user.click(await screen.findByRole('button', { name: 'Criteria' }));
    const dialog = await screen.findByRole('dialog', { name: 'Criteria' });
    await user.click(within(dialog).getByRole('button', { name: 'Add criterion' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Criterion 1' }), 'Artefacts');
    await user.click(within(dialog).getByRole('button', { name: 'Save criteria' }));
    await waitFor(async () =>
      expect((await getBoard('test-connection', 'local-1'))!.criteria.map((c) => c.name)).toEqual([
        'Artefacts',
      ]),
    );
  });
});
