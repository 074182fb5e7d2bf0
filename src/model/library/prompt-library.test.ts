import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { matchesQuery, PromptLibrary } from './prompt-library';
import { reloadAtOnce } from '../../test/page-unload';

const A = 'conn-a';
const B = 'conn-b';
let clock = 1_000;
const open = (connectionId = A) => PromptLibrary.open(connectionId, { db, now: () => clock });

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  clock = 1_000;
});

const reload = async () => {
  (await db()).close();
  resetDbForTests();
};

describe('PromptLibrary', () => {
  it('keeps a prompt sent and a pin made just before the page goes (an immediate reload)', async () => {
    const library = await open();
    await library.record(['a red fox']);
    const writing = Promise.all([library.record(['a blue whale']), library.pin('a red fox', true)]);
    await reloadAtOnce();
    await writing;
    await reload();
    expect((await open()).list().map((r) => [r.text, r.pinned])).toEqual([
      ['a red fox', true],
      ['a blue whale', false],
    ]);
  });

  it('keeps each prompt once, counting its uses; newest first; per connection; across a reload', async () => {
    const library = await open();
    await library.record(['a red fox', 'a blue whale']);
    clock = 2_000;
    await library.record(['  a red fox ', 'a red fox', '', '   ']);
    expect(library.list().map((r) => [r.text, r.uses])).toEqual([
      ['a red fox', 3],
      ['a blue whale', 1],
    ]);
    expect(library.last()).toBe('a red fox');

    await reload();
    const again = await open();
    expect(again.list().map((r) => r.text)).toEqual(['a red fox', 'a blue whale']);
    expect(again.list()[0]).toMatchObject({ firstUsedAt: 1_000, lastUsedAt: 2_000, uses: 3 });
    expect((await open(B)).list()).toEqual([]);
  });

  it('searches by every word, in any order and case', async () => {
    const library = await open();
    await library.record(['A Red Fox in snow', 'a red barn', 'fox and hound']);
    expect(library.search('fox RED').map((r) => r.text)).toEqual(['A Red Fox in snow']);
    expect(
      library
        .search('fox')
        .map((r) => r.text)
        .sort(),
    ).toEqual(['A Red Fox in snow', 'fox and hound']);
    expect(library.search('  ')).toHaveLength(3);
    expect(matchesQuery('abc', 'zzz')).toBe(false);
  });

  it('lists pinned prompts first, and keeps the pin across a reload; removes one', async () => {
    const library = await open();
    await library.record(['old favourite']);
    clock = 2_000;
    await library.record(['newer']);
    await library.pin('old favourite', true);
    expect(library.list().map((r) => r.text)).toEqual(['old favourite', 'newer']);
    // The last prompt sent is still the newest, pinned or not.
    expect(library.last()).toBe('newer');
    await reload();
    const again = await open();
    expect(again.list()[0]).toMatchObject({ text: 'old favourite', pinned: true });
    await again.remove('newer');
    await reload();
    expect((await open()).list().map((r) => r.text)).toEqual(['old favourite']);
  });

  it('puts a removed prompt back with its uses, dates and pin, across a reload (Undo)', async () => {
    const library = await open();
    await library.record(['a red fox', 'a red fox']);
    await library.pin('a red fox', true);
    const before = library.list()[0];
    const removed = await library.remove('a red fox');
    expect(removed).toEqual(before);
    expect(library.list()).toEqual([]);
    await library.restore(removed!);
    await reload();
    expect((await open()).list()).toEqual([before]);
  });

  it('does not undo a prompt sent again since it was removed', async () => {
    const library = await open();
    await library.record(['a red fox']);
    const removed = await library.remove('a red fox');
    clock = 2_000;
    await library.record(['a red fox']);
    await library.restore(removed!);
    expect(library.list()).toEqual([expect.objectContaining({ uses: 1, firstUsedAt: 2_000 })]);
  });

  it('imports without duplicating, merging uses and pins; skips unreadable items', async () => {
    const library = await open();
    await library.record(['a red fox']);
    const exported = library.portable();
    expect(JSON.stringify(exported)).not.toContain(A);
    const other = await open(B);
    await other.record(['a red fox']);
    const result = await other.importPortable([
      ...exported.map((p) => ({ ...p, pinned: true })),
      { text: 5 },
    ]);
    expect(result).toEqual({ added: 1, skipped: 1 });
    expect(other.list()).toHaveLength(1);
    expect(other.list()[0]).toMatchObject({ text: 'a red fox', uses: 2, pinned: true, connectionId: B });
  });
});
