import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import { PromptLibrary } from '../../model/library/prompt-library';
import { ROOTS } from '../../model/team/team-doc';
import { TeamLibrary } from '../../model/team/team-library';
import { TeamSpace } from '../../model/team/team-space';
import { PromptLibraryDialog } from './prompt-library-dialog';

// The Prompt library with and without the team space: "Mine" / "Team" over a real PromptLibrary (in
// fake IndexedDB) and a real TeamLibrary whose document is synced with a second member's.

const spaces: TeamSpace[] = [];

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

afterEach(() => {
  cleanup();
  for (const s of spaces.splice(0)) s.destroy();
});

function teamOf(memberId: string, doc: Y.Doc, full = false) {
  const space = new TeamSpace(doc, memberId);
  spaces.push(space);
  return { space, library: new TeamLibrary(space, { allows: () => !full }) };
}

async function setup({ withTeam = true, full = false } = {}) {
  const library = await PromptLibrary.open('conn-me', { db });
  await library.record(['a red fox in the snow']);
  const mine = new Y.Doc();
  const theirs = new Y.Doc();
  mine.on(
    'update',
    (u: Uint8Array, origin: unknown) => origin !== 'remote' && Y.applyUpdate(theirs, u, 'remote'),
  );
  theirs.on(
    'update',
    (u: Uint8Array, origin: unknown) => origin !== 'remote' && Y.applyUpdate(mine, u, 'remote'),
  );
  const me = teamOf('key_me', mine, full);
  const other = teamOf('key_other', theirs);
  const onPick = vi.fn();
  render(
    <PromptLibraryDialog
      library={library}
      open
      onOpenChange={() => undefined}
      onPick={onPick}
      {...(withTeam ? { team: me.library } : {})}
    />,
  );
  return { library, me, other, onPick, user: userEvent.setup() };
}

describe('PromptLibraryDialog without the team space', () => {
  it('lists this key’s prompts with no Mine / Team switch and no sharing', async () => {
    await setup({ withTeam: false });
    expect(screen.queryByRole('radiogroup', { name: 'Whose prompts' })).toBeNull();
    expect(screen.getByText('a red fox in the snow')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Share to team/ })).toBeNull();
  });
});

describe('PromptLibraryDialog: Remove', () => {
  it('removes a prompt at once and puts it back with the notice’s Undo, inside the dialog', async () => {
    const { user, library } = await setup({ withTeam: false });
    await user.click(screen.getByRole('button', { name: 'Remove: a red fox in the snow' }));
    await waitFor(() => expect(screen.queryByText('a red fox in the snow')).toBeNull());
    const dialog = screen.getByRole('dialog', { name: 'Prompt library' });
    await user.click(await within(dialog).findByRole('button', { name: 'Undo' }));
    expect(await within(dialog).findByText('a red fox in the snow')).toBeTruthy();
    expect(library.list().map((r) => r.text)).toEqual(['a red fox in the snow']);
  });
});

describe('PromptLibraryDialog: Mine / Team', () => {
  it('shares one of mine, which then shows under Team for both members, and stops sharing it', async () => {
    const { user, other } = await setup();
    const share = screen.getByRole('button', { name: 'Share to team: a red fox in the snow' });
    expect(share.getAttribute('aria-pressed')).toBe('false');
    await user.click(share);
    expect(share.getAttribute('aria-pressed')).toBe('true');
    expect(other.library.snapshot().prompts.map((p) => [p.text, p.by])).toEqual([
      ['a red fox in the snow', 'key_me'],
    ]);

    await user.click(screen.getByRole('radio', { name: 'Team' }));
    const team = screen.getByRole('list', { name: 'Team prompts' });
    const row = within(team).getByText('a red fox in the snow').closest('li')!;
    expect(row.textContent).toContain('Shared by you');
    // Already in Mine: nothing to copy.
    expect(within(row).getByRole('button', { name: 'Copy to mine: a red fox in the snow' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(within(row).getByRole('button', { name: 'Stop sharing: a red fox in the snow' }));
    expect(other.library.snapshot().prompts).toEqual([]);
    expect(screen.getByText(/No team prompts yet/)).toBeTruthy();
  });

  it('lists another member’s prompt with their name as text, copies it into Mine, and uses it', async () => {
    const { user, other, library, onPick } = await setup();
    other.space.transact(() =>
      other.space.doc.getMap(ROOTS.members).set('key_other', { name: '<i>Bea</i>', joinedAt: 1 }),
    );
    expect(other.library.sharePrompt({ text: 'a blue whale at dawn', uses: 9 })).toEqual({ ok: true });

    await user.click(screen.getByRole('radio', { name: 'Team' }));
    const row = (await screen.findByText('a blue whale at dawn')).closest('li')!;
    expect(within(row).getByText('<i>Bea</i>')).toBeTruthy();
    expect(row.querySelector('i')).toBeNull();
    expect(within(row).queryByRole('button', { name: /Stop sharing/ })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Copy to mine: a blue whale at dawn' }));
    expect(await screen.findByText('Copied “a blue whale at dawn” to Mine.')).toBeTruthy();
    expect(library.list().find((r) => r.text === 'a blue whale at dawn')).toMatchObject({
      connectionId: 'conn-me',
      uses: 1,
      pinned: false,
    });
    expect(within(row).getByRole('button', { name: 'Copy to mine: a blue whale at dawn' })).toHaveProperty(
      'disabled',
      true,
    );

    // Back in Mine, the copy cannot be shared again: another member already shares it.
    await user.click(screen.getByRole('radio', { name: 'Mine' }));
    expect(screen.getByRole('button', { name: 'Share to team: a blue whale at dawn' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.type(screen.getByRole('searchbox', { name: 'Search the prompt library' }), 'whale');
    expect(await screen.findByText('1 of 2 prompts')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Team' }));
    await user.click(screen.getByRole('button', { name: 'Use: a blue whale at dawn' }));
    expect(onPick).toHaveBeenCalledWith('a blue whale at dawn');
  });
});

describe('PromptLibraryDialog: a full share', () => {
  it('says the member’s share of the team space is full, and shares nothing', async () => {
    const { user, other } = await setup({ full: true });
    await user.click(screen.getByRole('button', { name: 'Share to team: a red fox in the snow' }));
    expect(
      await screen.findByText(
        'Could not share “a red fox in the snow”: your share of the team space is full. Free some space to share more.',
      ),
    ).toBeTruthy();
    expect(other.library.snapshot().prompts).toEqual([]);
  });
});
