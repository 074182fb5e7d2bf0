import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import { PresetStore, type NewPreset } from '../../model/library/presets';
import { ROOTS } from '../../model/team/team-doc';
import { TeamLibrary } from '../../model/team/team-library';
import { TeamSpace } from '../../model/team/team-space';
import { PresetsDialog } from './presets-dialogs';

// The Presets dialog with and without the team space: "Mine" / "Team" over a real PresetStore (in
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

const lighthouse: NewPreset = {
  name: 'Wide lighthouse',
  itemName: 'Lumen Canvas',
  category: 'image/default',
  request: { interfaceId: 'lumen-canvas', versionId: 'v3', params: { prompt: 'a lighthouse' } },
};

function teamOf(memberId: string, doc: Y.Doc) {
  const space = new TeamSpace(doc, memberId);
  spaces.push(space);
  return { space, library: new TeamLibrary(space) };
}

async function setup({ withTeam = true } = {}) {
  const store = await PresetStore.open('conn-me', { db });
  await store.save(lighthouse);
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
  const me = teamOf('key_me', mine);
  const other = teamOf('key_other', theirs);
  const onApply = vi.fn();
  render(
    <PresetsDialog
      store={store}
      open
      onOpenChange={() => undefined}
      item={null}
      onApply={onApply}
      shareUrl={() => 'https://studio.test/?preset=x'}
      {...(withTeam ? { team: me.library } : {})}
    />,
  );
  return { store, me, other, onApply, user: userEvent.setup() };
}

describe('PresetsDialog: Delete', () => {
  it('deletes a preset at once and puts it back, same id and all, with the notice’s Undo', async () => {
    const { user, store } = await setup({ withTeam: false });
    const [before] = store.list();
    await user.click(screen.getByRole('button', { name: 'Delete Wide lighthouse' }));
    expect(await screen.findByText(/No presets yet/)).toBeTruthy();
    const dialog = screen.getByRole('dialog', { name: 'Presets' });
    // The notice renders after the list (on a loaded machine, a moment later): waited for, not assumed.
    expect(await within(dialog).findByText('Deleted "Wide lighthouse".')).toBeTruthy();
    await user.click(await within(dialog).findByRole('button', { name: 'Undo' }));
    const list = await screen.findByRole('list', { name: 'Saved presets' });
    expect(within(list).getByRole('heading', { name: 'Wide lighthouse' })).toBeTruthy();
    expect(store.list()).toEqual([before]);
    expect(await within(dialog).findByText('Restored "Wide lighthouse".')).toBeTruthy();
  });
});

describe('PresetsDialog without the team space', () => {
  it('shows only this key’s presets, with no Mine / Team switch and no sharing', async () => {
    await setup({ withTeam: false });
    expect(screen.queryByRole('radiogroup', { name: 'Whose presets' })).toBeNull();
    const list = screen.getByRole('list', { name: 'Saved presets' });
    expect(within(list).getByRole('heading', { name: 'Wide lighthouse' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Share .* to team/ })).toBeNull();
  });
});

describe('PresetsDialog: Mine / Team', () => {
  it('shares one of mine, which then shows under Team for both members, and stops sharing it', async () => {
    const { user, other, store } = await setup();
    expect(screen.getByRole('radio', { name: 'Mine' })).toHaveProperty('checked', true);
    await user.click(screen.getByRole('button', { name: 'Share Wide lighthouse to team' }));
    expect(screen.getByText('Shared "Wide lighthouse" with the team.')).toBeTruthy();
    expect(screen.getByText('Shared with the team')).toBeTruthy();
    expect(other.library.snapshot().presets.map((p) => [p.name, p.by])).toEqual([
      ['Wide lighthouse', 'key_me'],
    ]);

    // Changed here after it was shared: "Update on team" shares it as it is now.
    expect(screen.queryByRole('button', { name: 'Update Wide lighthouse on team' })).toBeNull();
    const [saved] = store.list();
    await act(() => store.rename(saved!.id, 'Wide lighthouse, dusk'));
    await user.click(await screen.findByRole('button', { name: 'Update Wide lighthouse, dusk on team' }));
    expect(screen.getByText('Updated "Wide lighthouse, dusk" on the team.')).toBeTruthy();
    expect(other.library.snapshot().presets.map((p) => p.name)).toEqual(['Wide lighthouse, dusk']);
    expect(screen.queryByRole('button', { name: /^Update .* on team$/ })).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Team' }));
    const team = screen.getByRole('list', { name: 'Team presets' });
    const row = within(team).getByRole('listitem', { name: 'Wide lighthouse, dusk' });
    expect(row.textContent).toContain('shared by you');
    // Export and import are of Mine only.
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Stop sharing Wide lighthouse, dusk' }));
    expect(other.library.snapshot().presets).toEqual([]);
    expect(screen.getByText(/No team presets yet/)).toBeTruthy();
  });

  it('lists another member’s preset with their name as text, applies it, and copies it into Mine', async () => {
    const { user, other, store, onApply } = await setup();
    other.space.transact(() =>
      other.space.doc.getMap(ROOTS.members).set('key_other', { name: '<b>Bea</b>', joinedAt: 1 }),
    );
    const theirs = await PresetStore.open('conn-other', { db, newId: () => 'their-1' });
    const shared = await theirs.save({ ...lighthouse, name: 'Moody dusk' });
    expect(other.library.sharePreset(shared)).toEqual({ ok: true });

    await user.click(screen.getByRole('radio', { name: 'Team' }));
    const row = await screen.findByRole('listitem', { name: 'Moody dusk' });
    // Untrusted: shown as the text it is, never as markup.
    expect(within(row).getByText('<b>Bea</b>')).toBeTruthy();
    expect(row.querySelector('b')).toBeNull();
    // Not mine: no "Stop sharing".
    expect(within(row).queryByRole('button', { name: /Stop sharing/ })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Copy Moody dusk to mine' }));
    expect(await screen.findByText('Copied "Moody dusk" to Mine.')).toBeTruthy();
    const copy = store.list().find((p) => p.name === 'Moody dusk');
    expect(copy).toMatchObject({ connectionId: 'conn-me', request: lighthouse.request });
    expect(copy?.id).not.toBe('their-1');

    await user.click(within(row).getByRole('button', { name: 'Apply Moody dusk' }));
    expect(onApply).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Moody dusk', connectionId: 'conn-me', request: lighthouse.request }),
    );

    await user.click(screen.getByRole('radio', { name: 'Mine' }));
    const mine = screen.getByRole('list', { name: 'Saved presets' });
    expect(within(mine).getByRole('heading', { name: 'Moody dusk' })).toBeTruthy();
    expect(within(mine).getByRole('heading', { name: 'Wide lighthouse' })).toBeTruthy();
  });
});
