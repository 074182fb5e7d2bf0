import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import * as Y from 'yjs';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../contract/me';
import { CompareView } from '../features/compare/compare-view';
import type { Board } from '../model/compare/boards';
import { TeamMembers } from '../model/team/team-members';
import { TeamSession } from '../model/team/team-session';
import { TeamSpace } from '../model/team/team-space';
import { fakeClient, renderWithApi } from '../test/catalog-test-utils';
import { freshDatabase, storeWith } from '../test/gallery-test-utils';
import { useTeamPresence } from './use-team-presence';
import { useTeamViews } from './team-views';

// A team board open in Compare while another member comes online, composed as connected-studio.tsx
// composes it: the session's members (useTeamPresence) make the Compare view's team (useTeamViews), and
// the board's "Open by" line tells the room this member has it open. Two members, each a document and a
// presence of their own, relayed here as the server relays them.

const me = { id: 'user-1', credits: { balance: 5000, currency: 'credits' } } as unknown as Me;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

const board: Board = {
  id: 'board-1',
  connectionId: 'team',
  name: 'Lighthouses',
  createdAt: T0,
  updatedAt: T0,
  setup: {
    category: 'image/default',
    columns: [{ modelId: 'lumen-canvas', versionId: 'lumen-canvas-v2' }],
    rows: [{ id: 'r1', prompt: 'a lighthouse in fog' }],
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
};

function Studio({ session }: { session: TeamSession }) {
  const presence = useTeamPresence(session);
  const views = useTeamViews(session, presence.members, null);
  return (
    <CompareView
      source={{ kind: 'saved', id: 'board-1' }}
      runner={null}
      me={me}
      renderParam={() => null}
      onOpen={() => undefined}
      shareUrl={(e) => `https://studio.test/?board=${e}`}
      team={views.compare}
      renderCellExtras={views.renderCellExtras}
    />
  );
}

const cleanups: Array<() => void> = [];

beforeEach(async () => {
  await freshDatabase();
});
afterEach(() => {
  cleanup();
  cleanups.splice(0).forEach((f) => f());
  vi.restoreAllMocks();
});

/**
 * Member A's session (the studio's, not started: no provider, no IndexedDB) with the board open, and
 * member B's document and presence, relayed live (presence) or when asked (the document).
 */
async function twoMembers() {
  // Time moves on between two renders; here the clock moves on at every read.
  let t = T0;
  const session = new TeamSession({
    url: 'ws://team.test/sync',
    room: 'team:t1',
    token: () => 'key-a',
    memberId: 'member-a',
    displayName: 'Ada',
    history: await storeWith([]),
    connectionId: 'conn-a',
    sharedSince: T0,
    now: () => t++,
    createPersistence: () => ({
      whenSynced: Promise.resolve(),
      destroy: () => undefined,
      clearData: () => undefined,
    }),
  });
  const b = new TeamSpace(new Y.Doc(), 'member-b', () => T0);
  const bMembers = new TeamMembers(b);
  const a = session.space;
  const relay = (from: TeamSpace, to: TeamSpace) => (_: unknown, origin: unknown) => {
    if (origin === 'remote') return;
    applyAwarenessUpdate(to.awareness, encodeAwarenessUpdate(from.awareness, [from.doc.clientID]), 'remote');
  };
  const ab = relay(a, b);
  const ba = relay(b, a);
  a.awareness.on('update', ab);
  b.awareness.on('update', ba);
  cleanups.push(() => {
    a.awareness.off('update', ab);
    b.awareness.off('update', ba);
    void session.close();
    bMembers.destroy();
    b.destroy();
  });
  const syncDocs = () => {
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc, Y.encodeStateVector(b.doc)), 'remote');
    Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b.doc, Y.encodeStateVector(a.doc)), 'remote');
  };
  session.members.setName('Ada');
  session.boards.save(board);
  syncDocs();
  return { session, b, bMembers, syncDocs };
}

describe('a team board open while another member comes online', () => {
  it('keeps showing the board when their presence arrives before their record, and names them', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { session, b, bMembers, syncDocs } = await twoMembers();
    renderWithApi(<Studio session={session} />, fakeClient().client);
    const prompt = await screen.findByLabelText('Prompt 1');
    expect(screen.getByTestId('board-viewers').textContent).toMatch(/No one else has it open/);
    expect(session.space.awareness.getLocalState()?.board).toBe('board-1');
    // A's presence on the board is said once, not again for each change of the members list.
    const setOpen = vi.spyOn(session.boards, 'setOpen');

    // B's studio joins (presence first: the record is a document update, still on its way), then opens
    // the board. Before the fix, each presence change gave A a new members list, so a new Compare team,
    // so the "Open by" line said A's presence again, a presence change: React's maximum update depth.
    act(() => b.awareness.setLocalStateField('member', { id: 'member-b', name: 'Bea' }));
    act(() => b.awareness.setLocalStateField('board', 'board-1'));
    await waitFor(() => expect(screen.getByTestId('board-viewers').textContent).toBe('Also open by Bea'));
    expect(screen.getByLabelText('Prompt 1')).toBe(prompt);

    // B's record arrives.
    act(() => {
      bMembers.setName('Bea Lima');
      syncDocs();
    });
    await waitFor(() =>
      expect(screen.getByTestId('board-viewers').textContent).toBe('Also open by Bea Lima'),
    );
    expect(setOpen).not.toHaveBeenCalled();
    expect(session.space.awareness.getLocalState()?.board).toBe('board-1');
    expect(errors.mock.calls.flat().join('\n')).not.toMatch(/Maximum update depth/);
  });

  it('keeps showing the board beside a member whose record it cannot read (within the server’s bounds)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { session, b, syncDocs } = await twoMembers();
    // A name the server takes (contract/team-doc.ts: up to 400 characters) and the studio does not read.
    b.doc.getMap('members').set('member-b', { name: 'x'.repeat(300), joinedAt: T0 });
    syncDocs();
    renderWithApi(<Studio session={session} />, fakeClient().client);
    await screen.findByLabelText('Prompt 1');
    act(() => b.awareness.setLocalStateField('member', { id: 'member-b', name: 'Bea' }));
    act(() => b.awareness.setLocalStateField('board', 'board-1'));
    await waitFor(() => expect(screen.getByTestId('board-viewers').textContent).toBe('Also open by Bea'));
    // B comes and goes from the board, again and again: each is one change for A, never a loop.
    for (let i = 0; i < 5; i++) {
      act(() => b.awareness.setLocalStateField('board', null));
      act(() => b.awareness.setLocalStateField('board', 'board-1'));
    }
    await waitFor(() => expect(screen.getByTestId('board-viewers').textContent).toBe('Also open by Bea'));
    expect(screen.getByLabelText('Prompt 1')).toBeTruthy();
    expect(errors.mock.calls.flat().join('\n')).not.toMatch(/Maximum update depth/);
  });
});
