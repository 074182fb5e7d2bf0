import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptySetup, getBoard, listBoards, type Board } from '../../model/compare/boards';
import { TeamBoards } from '../../model/compare/team-boards';
import { TeamSpace } from '../../model/team/team-space';
import { freshDatabase } from '../../test/gallery-test-utils';
import { useBoardRecord } from './use-board-record';

// Where a board is kept: a new board is saved (on this device, or in the team's document) once it holds
// something, and a name typed is something.

const CONNECTION = 'conn-boards';
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

/** A new board as the Compare view makes it: the default name, one empty prompt, no model. */
const NEW_BOARD: Board = {
  id: 'board-1',
  connectionId: CONNECTION,
  name: 'Board · 5 Jan 2026, 09:00',
  createdAt: T0,
  updatedAt: T0,
  setup: emptySetup('image/default'),
  cells: {},
  favourites: {},
  notes: {},
  blind: false,
  decisions: [],
  criteria: [],
  scores: {},
};

const named = (name: string) => (b: Board) => ({ ...b, name });

const members: Array<{ space: TeamSpace; boards: TeamBoards }> = [];
function member(id: string) {
  const space = new TeamSpace(new Y.Doc(), id, () => T0);
  const m = { space, boards: new TeamBoards(space) };
  members.push(m);
  return m;
}

beforeEach(async () => {
  await freshDatabase();
});
afterEach(() => {
  members.splice(0).forEach((m) => {
    m.boards.destroy();
    m.space.destroy();
  });
});

describe('useBoardRecord on this device', () => {
  it('leaves an untouched new board unsaved, and saves it once it has a name, nothing else', async () => {
    const onFirstSave = vi.fn<(b: Board) => void>();
    const { result } = renderHook(() => useBoardRecord(NEW_BOARD, onFirstSave, null));
    // A change that adds nothing (an empty prompt) is no reason to keep it.
    act(() => result.current.setSetup((s) => s));
    await act(() => listBoards(CONNECTION));
    expect(await listBoards(CONNECTION)).toEqual([]);

    act(() => result.current.update(named('Lighthouses')));
    await waitFor(() => expect(onFirstSave).toHaveBeenCalledTimes(1));
    expect(onFirstSave.mock.calls[0]![0]).toMatchObject({ id: 'board-1', name: 'Lighthouses' });
    expect(await getBoard(CONNECTION, 'board-1')).toMatchObject({ name: 'Lighthouses' });

    // Saved once, every change is saved, the name it opened with included.
    act(() => result.current.update(named(NEW_BOARD.name)));
    await waitFor(async () => expect((await getBoard(CONNECTION, 'board-1'))?.name).toBe(NEW_BOARD.name));
    expect(onFirstSave).toHaveBeenCalledTimes(1);
  });
});

describe('useBoardRecord in the team space', () => {
  it('puts a new board with only a name in the team, where the others get it', async () => {
    const a = member('member-a');
    const b = member('member-b');
    const onFirstSave = vi.fn<(b: Board) => void>();
    const { result } = renderHook(() => useBoardRecord(NEW_BOARD, onFirstSave, a.boards));
    act(() => result.current.setSetup((s) => s));
    expect(a.boards.get('board-1')).toBeNull();

    act(() => result.current.update(named('Lighthouses')));
    expect(a.boards.get('board-1')).toMatchObject({ createdBy: 'member-a', board: { name: 'Lighthouses' } });
    expect(onFirstSave).toHaveBeenCalledTimes(1);
    expect(result.current.teamRecord?.board.name).toBe('Lighthouses');

    // What the provider does: the other member's document gets the update.
    Y.applyUpdate(b.space.doc, Y.encodeStateAsUpdate(a.space.doc), 'remote');
    expect(b.boards.get('board-1')?.board.name).toBe('Lighthouses');
  });
});
