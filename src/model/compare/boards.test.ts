import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_COLUMNS,
  decodeSetup,
  emptySetup,
  deleteBoard,
  encodeSetup,
  getBoard,
  listBoards,
  saveBoard,
  subscribeBoards,
  type Board,
  type BoardSetup,
} from './boards';
import { DB_NAME, db, resetDbForTests } from '../db';
import { reloadAtOnce } from '../../test/page-unload';

const A = 'conn-a';
const B = 'conn-b';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const setup = (patch: Partial<BoardSetup> = {}): BoardSetup => ({
  category: 'image/default',
  columns: [
    { modelId: 'lumen-canvas', versionId: 'v2' },
    { modelId: 'northwind-aurora', versionId: 'v1' },
  ],
  rows: [{ id: 'r1', prompt: 'a lighthouse at dusk' }],
  shared: { aspect_ratio: '16:9' },
  perColumn: { 'lumen-canvas@v2': { num_images: 2, enhance: true, image_urls: ['https://cdn/a.png'] } },
  ...patch,
});

const board = (id: string, updatedAt: number, patch: Partial<Board> = {}): Board => ({
  id,
  connectionId: A,
  name: `Board ${id}`,
  createdAt: 1_000,
  updatedAt,
  setup: setup(),
  cells: {},
  favourites: {},
  notes: {},
  blind: false,
  decisions: [],
  criteria: [],
  scores: {},
  ...patch,
});

/** Decodes base64url (no padding) to the UTF-8 text it carries, independently of the module. */
const rawText = (encoded: string) => Buffer.from(encoded, 'base64url').toString('utf8');

describe('board storage', () => {
  it('a board saved just before a reload is there after it (written at once)', async () => {
    const saved = board('b1', 2_000, { name: 'Typed, then reloaded' });
    await db(); // the studio's database is open by the time anyone votes or edits
    const written = Promise.allSettled([saveBoard(saved)]);
    await reloadAtOnce();
    await written;
    (await db()).close();
    resetDbForTests();
    expect(await getBoard(A, 'b1')).toEqual(saved);
  });

  it('saves and gets a board by connection and id', async () => {
    const saved = board('b1', 2_000, {
      cells: { 'r1|lumen-canvas@v2': { idempotencyKey: 'k1', taskId: 't1', request: '{}', runAt: 1_500 } },
      favourites: { r1: 'lumen-canvas@v2' },
      notes: { r1: 'the sharper one' },
    });
    await saveBoard(saved);
    expect(await getBoard(A, 'b1')).toEqual(saved);
    expect(await getBoard(B, 'b1')).toBeNull();
    expect(await getBoard(A, 'missing')).toBeNull();
  });

  it('overwrites a board saved again under the same id', async () => {
    await saveBoard(board('b1', 2_000));
    await saveBoard(board('b1', 3_000, { name: 'Renamed' }));
    const listed = await listBoards(A);
    expect(listed.map((b) => [b.id, b.name, b.updatedAt])).toEqual([['b1', 'Renamed', 3_000]]);
  });

  it("lists only this connection's boards, most recently updated first", async () => {
    await saveBoard(board('old', 1_000));
    await saveBoard(board('new', 9_000));
    await saveBoard(board('mid', 5_000));
    await saveBoard(board('other', 7_000, { connectionId: B }));
    expect((await listBoards(A)).map((b) => b.id)).toEqual(['new', 'mid', 'old']);
    expect((await listBoards(B)).map((b) => b.id)).toEqual(['other']);
    expect(await listBoards('conn-none')).toEqual([]);
  });

  it('skips stored records that do not parse', async () => {
    await saveBoard(board('good', 1_000));
    const store = await db();
    await store.put('boards', { ...board('no-setup', 2_000), setup: undefined } as never);
    await store.put('boards', { ...board('bad-name', 3_000), name: 42 } as never);
    await store.put('boards', {
      ...board('bad-columns', 4_000),
      setup: { ...setup(), columns: [{ modelId: '', versionId: 'v1' }] },
    } as never);
    expect((await listBoards(A)).map((b) => b.id)).toEqual(['good']);
    expect(await getBoard(A, 'bad-name')).toBeNull();
  });

  it('fills the defaults of an older record without cells, favourites or notes', async () => {
    const { cells: _c, favourites: _f, notes: _n, ...bare } = board('bare', 1_000);
    await (await db()).put('boards', bare as never);
    const got = await getBoard(A, 'bare');
    expect(got).toMatchObject({ id: 'bare', cells: {}, favourites: {}, notes: {} });
  });

  it('deletes one board of one connection only', async () => {
    await saveBoard(board('b1', 1_000));
    await saveBoard(board('b2', 2_000));
    await saveBoard(board('b1', 3_000, { connectionId: B }));
    await deleteBoard(A, 'b1');
    expect(await getBoard(A, 'b1')).toBeNull();
    expect((await listBoards(A)).map((b) => b.id)).toEqual(['b2']);
    expect((await listBoards(B)).map((b) => b.id)).toEqual(['b1']);
    await expect(deleteBoard(A, 'never-existed')).resolves.toBeUndefined();
  });

  it('announces each save and delete, once it is on disk, with the connection it changed', async () => {
    const heard: { connectionId: string; ids: string[] }[] = [];
    const unsubscribe = subscribeBoards((connectionId) => {
      void listBoards(connectionId).then((list) => heard.push({ connectionId, ids: list.map((b) => b.id) }));
    });
    await saveBoard(board('b1', 1_000));
    await saveBoard(board('b2', 2_000, { connectionId: B }));
    await deleteBoard(A, 'b1');
    unsubscribe();
    await saveBoard(board('b3', 3_000));
    await listBoards(A);
    expect(heard).toEqual([
      { connectionId: A, ids: ['b1'] },
      { connectionId: B, ids: ['b2'] },
      { connectionId: A, ids: [] },
    ]);
  });
});

describe('share links', () => {
  it('round-trips a setup', () => {
    const s = setup();
    expect(decodeSetup(encodeSetup(s))).toEqual(s);
  });

  it('round-trips non-ASCII prompts (emoji, Japanese)', () => {
    const s = setup({
      rows: [
        { id: 'r1', prompt: '夕暮れの灯台、油絵風 🌅🐈‍⬛' },
        { id: 'r2', prompt: 'café — naïve “quotes” 👩🏽‍🚀' },
      ],
      shared: { style: 'アニメ' },
    });
    const decoded = decodeSetup(encodeSetup(s));
    expect(decoded).toEqual(s);
    expect(decoded!.rows[0]!.prompt).toBe('夕暮れの灯台、油絵風 🌅🐈‍⬛');
  });

  it('produces URL-safe output without +, / or = padding', () => {
    // Many prompt lengths so every padding length and both 62nd/63rd base64 characters come up.
    const prompts = Array.from({ length: 40 }, (_, i) => `${'?>~'.repeat(i)}ÿþ🌅${'x'.repeat(i % 3)}`);
    for (const prompt of prompts) {
      const encoded = encodeSetup(setup({ rows: [{ id: 'r1', prompt }] }));
      expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeSetup(encoded)!.rows[0]!.prompt).toBe(prompt);
    }
    // The sample does exercise the characters that standard base64 would have produced.
    const standard = prompts.map((prompt) =>
      Buffer.from(JSON.stringify({ v: 1, ...setup({ rows: [{ id: 'r1', prompt }] }) })).toString('base64'),
    );
    expect(standard.some((s) => s.includes('+'))).toBe(true);
    expect(standard.some((s) => s.includes('/'))).toBe(true);
    expect(standard.some((s) => s.endsWith('='))).toBe(true);
  });

  it('fills the defaults of a link without shared or perColumn', () => {
    const { shared: _s, perColumn: _p, ...bare } = setup();
    const encoded = Buffer.from(JSON.stringify(bare)).toString('base64url');
    expect(decodeSetup(encoded)).toEqual({ ...bare, shared: {}, perColumn: {} });
  });

  it('returns null for garbage', () => {
    for (const garbage of ['', '!!!not base64!!!', '%%%', 'a', '🌅', '....']) {
      expect(decodeSetup(garbage)).toBeNull();
    }
  });

  it('returns null for valid base64 of text that is not JSON', () => {
    expect(decodeSetup(Buffer.from('{"category": "image/default", ').toString('base64url'))).toBeNull();
    expect(decodeSetup(Buffer.from('hello world').toString('base64url'))).toBeNull();
  });

  it('returns null for JSON that is not a setup', () => {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    expect(decodeSetup(enc(null))).toBeNull();
    expect(decodeSetup(enc([1, 2]))).toBeNull();
    expect(decodeSetup(enc({ ...setup(), rows: [] }))).toBeNull();
    expect(decodeSetup(enc({ ...setup(), category: '' }))).toBeNull();
    expect(decodeSetup(enc({ ...setup(), shared: { seed: { nested: 1 } } }))).toBeNull();
  });

  it('returns null for a setup with more than MAX_COLUMNS columns', () => {
    const columns = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ modelId: `m${i}`, versionId: 'v1' }));
    const atMax = setup({ columns: columns(MAX_COLUMNS) });
    expect(decodeSetup(encodeSetup(atMax))).toEqual(atMax);
    const tooMany = Buffer.from(JSON.stringify({ ...setup(), columns: columns(MAX_COLUMNS + 1) })).toString(
      'base64url',
    );
    expect(decodeSetup(tooMany)).toBeNull();
  });

  it('strips fields that are not part of a setup, such as an apiKey, at every level', () => {
    const hostile = {
      v: 1,
      ...setup(),
      apiKey: 'sk-live-secret',
      columns: [
        { modelId: 'lumen-canvas', versionId: 'v2', apiKey: 'sk-col' },
        { modelId: 'northwind-aurora', versionId: 'v1' },
      ],
      rows: [{ id: 'r1', prompt: 'p', taskId: 't-injected' }],
    };
    const decoded = decodeSetup(Buffer.from(JSON.stringify(hostile)).toString('base64url'));
    expect(decoded).not.toBeNull();
    expect(decoded).not.toHaveProperty('apiKey');
    expect(decoded).not.toHaveProperty('v');
    expect(decoded!.columns[0]).toEqual({ modelId: 'lumen-canvas', versionId: 'v2' });
    expect(decoded!.rows[0]).toEqual({ id: 'r1', prompt: 'p' });
    expect(JSON.stringify(decoded)).not.toContain('sk-');
    expect(Object.keys(decoded!).sort()).toEqual(['category', 'columns', 'perColumn', 'rows', 'shared']);
  });

  it('never encodes fields that are not part of the setup', () => {
    const withExtras = {
      ...setup(),
      apiKey: 'sk-live-secret',
      cells: { 'r1|lumen-canvas@v2': { taskId: 't1' } },
      columns: [
        { modelId: 'lumen-canvas', versionId: 'v2', apiKey: 'sk-col' },
        { modelId: 'northwind-aurora', versionId: 'v1' },
      ],
    } as BoardSetup;
    const encoded = encodeSetup(withExtras);
    const text = rawText(encoded);
    expect(text).not.toContain('sk-');
    expect(text).not.toContain('apiKey');
    expect(text).not.toContain('cells');
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual([
      'category',
      'columns',
      'perColumn',
      'rows',
      'shared',
      'v',
    ]);
    expect(decodeSetup(encoded)).toEqual(setup());
  });

  it('refuses to encode a board instead of its setup (the board has no setup fields at the top)', () => {
    expect(() => encodeSetup(board('b1', 1_000) as unknown as BoardSetup)).toThrow();
  });
});

describe('share links of large setups', () => {
  it('encodes a setup with a 200,000-character prompt', () => {
    const setup = emptySetup('image/default');
    setup.rows[0]!.prompt = 'é'.repeat(200_000);
    expect(decodeSetup(encodeSetup(setup))?.rows[0]!.prompt).toHaveLength(200_000);
  });
});
