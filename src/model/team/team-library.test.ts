import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../db';
import { PresetStore, type Preset } from '../library/presets';
import { PromptLibrary } from '../library/prompt-library';
import { ROOTS } from './team-doc';
import { MAX_PRESET_CHARS, TeamLibrary } from './team-library';
import { TeamSpace } from './team-space';

let clock = 1_000;
const spaces: TeamSpace[] = [];
const libraries: TeamLibrary[] = [];

function member(memberId: string, doc = new Y.Doc()) {
  const space = new TeamSpace(doc, memberId, () => clock);
  const library = new TeamLibrary(space);
  spaces.push(space);
  libraries.push(library);
  return { doc, space, library };
}

/** Two members' copies of the room, each update of one applied to the other (as the provider does). */
function syncedPair() {
  const a = member('key_a');
  const b = member('key_b');
  a.doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(b.doc, update, 'remote');
  });
  b.doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(a.doc, update, 'remote');
  });
  return { a, b };
}

const preset = (patch: Partial<Preset> = {}): Preset => ({
  id: 'p1',
  connectionId: 'conn-a',
  name: 'Wide lighthouse',
  itemName: 'Lumen Canvas',
  category: 'image/default',
  request: {
    interfaceId: 'lumen-canvas',
    versionId: 'lumen-canvas-v3',
    params: { prompt: 'a lighthouse', aspect_ratio: '16:9' },
  },
  createdAt: 500,
  updatedAt: 600,
  ...patch,
});

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  clock = 1_000;
});

afterEach(() => {
  for (const l of libraries.splice(0)) l.destroy();
  for (const s of spaces.splice(0)) s.destroy();
});

describe('TeamLibrary: presets', () => {
  it('shares a preset without its connection, with its author and time; unshares it', () => {
    const { doc, library } = member('key_a');
    let calls = 0;
    library.subscribe(() => calls++);
    const before = library.snapshot();
    expect(before.presets).toEqual([]);
    expect(library.sharePreset(preset())).toEqual({ ok: true });
    expect(calls).toBeGreaterThan(0);
    const stored = doc.getMap(ROOTS.presets).get('p1') as Record<string, unknown>;
    expect(stored).not.toHaveProperty('connectionId');
    expect(stored).toMatchObject({ id: 'p1', by: 'key_a', sharedAt: 1_000 });
    const after = library.snapshot();
    expect(after).not.toBe(before);
    expect(library.snapshot()).toBe(after);
    expect(after.presets).toEqual([
      expect.objectContaining({ id: 'p1', name: 'Wide lighthouse', by: 'key_a', mine: true, byName: null }),
    ]);
    expect(library.unsharePreset('p1')).toBe(true);
    expect(library.snapshot().presets).toEqual([]);
    expect(library.unsharePreset('p1')).toBe(false);
  });

  it('sees another member’s shares through the synced document, names them, and only unshares its own', () => {
    const { a, b } = syncedPair();
    a.space.transact(() => a.doc.getMap(ROOTS.members).set('key_a', { name: 'Ada', joinedAt: 1 }));
    expect(a.library.sharePreset(preset())).toEqual({ ok: true });
    clock = 2_000;
    expect(b.library.sharePreset(preset({ id: 'p2', name: 'Square' }))).toEqual({ ok: true });

    const seenByB = b.library.snapshot().presets;
    expect(seenByB.map((p) => [p.id, p.by, p.byName, p.mine])).toEqual([
      ['p2', 'key_b', null, true],
      ['p1', 'key_a', 'Ada', false],
    ]);
    // B cannot unshare A's, nor take its id.
    expect(b.library.unsharePreset('p1')).toBe(false);
    expect(b.library.sharePreset(preset({ name: 'Hijack' }))).toEqual({ ok: false, reason: 'taken' });
    expect(a.library.snapshot().presets.find((p) => p.id === 'p1')?.name).toBe('Wide lighthouse');
    // A renames itself: the name follows.
    a.space.transact(() => a.doc.getMap(ROOTS.members).set('key_a', { name: 'Ada L.', joinedAt: 1 }));
    expect(b.library.snapshot().presets.find((p) => p.id === 'p1')?.byName).toBe('Ada L.');
    expect(a.library.unsharePreset('p1')).toBe(true);
    expect(b.library.snapshot().presets.map((p) => p.id)).toEqual(['p2']);
  });

  it('merges concurrent shares made offline', () => {
    const a = member('key_a');
    const b = member('key_b');
    a.library.sharePreset(preset({ id: 'pa' }));
    b.library.sharePreset(preset({ id: 'pb' }));
    Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b.doc));
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc));
    expect(
      a.library
        .snapshot()
        .presets.map((p) => p.id)
        .sort(),
    ).toEqual(['pa', 'pb']);
    expect(
      b.library
        .snapshot()
        .presets.map((p) => p.id)
        .sort(),
    ).toEqual(['pa', 'pb']);
  });

  it('copies a team preset into the local store under an id of its own', async () => {
    const { a, b } = syncedPair();
    a.library.sharePreset(preset());
    const store = await PresetStore.open('conn-b', { db, newId: () => 'local-1', now: () => 3_000 });
    const team = b.library.snapshot().presets[0]!;
    const saved = await store.save(b.library.presetToSave(team));
    expect(saved).toMatchObject({
      id: 'local-1',
      connectionId: 'conn-b',
      name: 'Wide lighthouse',
      itemName: 'Lumen Canvas',
      category: 'image/default',
      request: preset().request,
    });
    // The copy is B's: sharing it is a share of B's own, beside A's.
    expect(b.library.sharePreset(saved)).toEqual({ ok: true });
    expect(
      a.library
        .snapshot()
        .presets.map((p) => [p.id, p.by])
        .sort(),
    ).toEqual([
      ['local-1', 'key_b'],
      ['p1', 'key_a'],
    ]);
  });

  it('skips hostile values: wrong shapes, a 1 MB name, a huge request, an id that is not its key', () => {
    const { doc, space, library } = member('key_b');
    const good = { ...preset(), by: 'key_a', sharedAt: 5 };
    const { connectionId: _c, ...portable } = good;
    space.transact(() => {
      const presets = doc.getMap(ROOTS.presets);
      presets.set('p1', portable);
      presets.set('junk', 'not a preset');
      presets.set('nul', null);
      presets.set('shape', { ...portable, id: 'shape', request: 'nope' });
      presets.set('huge-name', { ...portable, id: 'huge-name', name: 'x'.repeat(1024 * 1024) });
      presets.set('huge-params', {
        ...portable,
        id: 'huge-params',
        request: { params: { prompt: 'y'.repeat(MAX_PRESET_CHARS) } },
      });
      presets.set('elsewhere', { ...portable, id: 'p-other' });
      presets.set('no-author', { ...portable, id: 'no-author', by: '' });
      doc.getMap(ROOTS.members).set('key_a', { name: 'z'.repeat(1024 * 1024), joinedAt: 1 });
    });
    const shown = library.snapshot().presets;
    expect(shown.map((p) => p.id)).toEqual(['p1']);
    // An unreadable display name is no name, not a megabyte on screen.
    expect(shown[0]!.byName).toBeNull();
    // Garbage under an id names no owner: the server lets nobody overwrite it, so sharing over it is
    // refused here rather than refused whole by the server.
    expect(library.sharePreset(preset({ id: 'junk' }))).toEqual({ ok: false, reason: 'taken' });
    expect(doc.getMap(ROOTS.presets).get('junk')).toBe('not a preset');
    expect(library.sharePreset(preset({ id: 'p9', name: ' ' }))).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('TeamLibrary: prompts', () => {
  it('shares a prompt under its trimmed text, sees the other member’s, and unshares only its own', () => {
    const { a, b } = syncedPair();
    expect(a.library.sharePrompt({ text: '  a red fox  ', uses: 3, pinned: true })).toEqual({ ok: true });
    clock = 2_000;
    expect(b.library.sharePrompt({ text: 'a blue whale' })).toEqual({ ok: true });
    expect(a.doc.getMap(ROOTS.prompts).get('a red fox')).toEqual({
      text: 'a red fox',
      by: 'key_a',
      sharedAt: 1_000,
      uses: 3,
      pinned: true,
    });
    // Pinned by its sharer first, then newest.
    expect(b.library.snapshot().prompts.map((p) => [p.text, p.by, p.mine])).toEqual([
      ['a red fox', 'key_a', false],
      ['a blue whale', 'key_b', true],
    ]);
    expect(b.library.sharePrompt({ text: 'a red fox' })).toEqual({ ok: false, reason: 'taken' });
    expect(b.library.unsharePrompt('a red fox')).toBe(false);
    expect(a.library.unsharePrompt(' a red fox')).toBe(true);
    expect(b.library.snapshot().prompts.map((p) => p.text)).toEqual(['a blue whale']);
    expect(a.library.sharePrompt({ text: '   ' })).toEqual({ ok: false, reason: 'invalid' });
    expect(a.library.sharePrompt({ text: 'q'.repeat(10_001) })).toEqual({ ok: false, reason: 'invalid' });
  });

  it('copies a team prompt into the local library as one use of its own', async () => {
    const { a, b } = syncedPair();
    a.library.sharePrompt({ text: 'a red fox', uses: 7 });
    clock = 4_000;
    const library = await PromptLibrary.open('conn-b', { db, now: () => clock });
    const team = b.library.snapshot().prompts[0]!;
    await library.importPortable([b.library.promptToSave(team)]);
    expect(library.list()).toEqual([
      {
        connectionId: 'conn-b',
        text: 'a red fox',
        firstUsedAt: 4_000,
        lastUsedAt: 4_000,
        uses: 1,
        pinned: false,
      },
    ]);
  });

  it('skips hostile prompts: wrong shapes, a text over the cap, a text filed under another key', () => {
    const { doc, space, library } = member('key_b');
    space.transact(() => {
      const prompts = doc.getMap(ROOTS.prompts);
      prompts.set('ok', { text: 'ok', by: 'key_a', sharedAt: 1, uses: 'many', pinned: 'yes' });
      prompts.set('num', 42);
      prompts.set('no-by', { text: 'no-by', sharedAt: 1 });
      prompts.set('innocent', { text: 'something else entirely', by: 'key_a', sharedAt: 1 });
      const long = 'w'.repeat(1024 * 1024);
      prompts.set(long, { text: long, by: 'key_a', sharedAt: 1 });
    });
    // Bad optional fields are dropped, not the prompt.
    expect(library.snapshot().prompts).toEqual([
      { text: 'ok', by: 'key_a', byName: null, sharedAt: 1, mine: false, uses: undefined, pinned: undefined },
    ]);
  });
});

describe('TeamLibrary: never writes what the server refuses', () => {
  it('does not overwrite another member’s prompt under the same text, even one this studio cannot read', () => {
    const { doc, space, library } = member('key_b');
    const theirs = {
      text: 'a red fox, at dusk',
      by: 'key_a',
      sharedAt: 1,
      style: { from: 'a newer studio' },
    };
    // Filed under the trimmed text, but its own text differs: unreadable here, still key_a's for the server.
    space.transact(() => doc.getMap(ROOTS.prompts).set('a red fox', theirs));
    expect(library.snapshot().prompts).toEqual([]);
    expect(library.sharePrompt({ text: 'a red fox' })).toEqual({ ok: false, reason: 'taken' });
    expect(doc.getMap(ROOTS.prompts).get('a red fox')).toEqual(theirs);
  });

  it('does not overwrite another member’s preset this studio cannot read', () => {
    const { doc, space, library } = member('key_b');
    const theirs = { id: 'p1', by: 'key_a', sharedAt: 1, name: 'x', request: 'from a newer studio' };
    space.transact(() => doc.getMap(ROOTS.presets).set('p1', theirs));
    expect(library.sharePreset(preset())).toEqual({ ok: false, reason: 'taken' });
    expect(doc.getMap(ROOTS.presets).get('p1')).toEqual(theirs);
  });

  it('writes a preset as JSON: no field left undefined (the server refuses what is not JSON)', () => {
    const { doc, library } = member('key_a');
    expect(library.sharePreset(preset({ category: undefined }))).toEqual({ ok: true });
    const stored = doc.getMap(ROOTS.presets).get('p1') as Record<string, unknown>;
    expect(Object.values(stored).includes(undefined)).toBe(false);
  });

  it('refuses to share past this member’s share of the room, and says so', () => {
    const doc = new Y.Doc();
    const space = new TeamSpace(doc, 'key_a', () => clock);
    spaces.push(space);
    const library = new TeamLibrary(space, { allows: () => false });
    libraries.push(library);
    expect(library.sharePrompt({ text: 'a red fox' })).toEqual({ ok: false, reason: 'full' });
    expect(library.sharePreset(preset())).toEqual({ ok: false, reason: 'full' });
    expect(doc.getMap(ROOTS.prompts).size + doc.getMap(ROOTS.presets).size).toBe(0);
  });
});
