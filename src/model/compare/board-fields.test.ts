import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { BoardSchema, type Board } from './boards';
import { rootNode, TEAM_DOC_BOARD_KEYS, type DocNode, type Who } from '../../../contract/team-doc';
import { BOARD_FIELDS, LOCAL_ONLY, TEAM_CONNECTION, readBoard, writeBoard } from './board-fields';
import { ROOTS } from '../team/team-doc';
import { TeamSpace } from '../team/team-space';
import { TeamBoards } from './team-boards';

// The table of a board's fields against the two things it maps between: the contract's board, which the
// server checks every change with, and the studio's Board. A field added to either without an entry here
// fails these tests; how each entry reads and writes is tested through the store (team-boards.test.ts).

/** The node the server checks a board's map with (any board id: every board has the same). */
function boardNode(): Extract<DocNode, { kind: 'map' }> {
  const boards = rootNode(ROOTS.boards);
  const board = boards.kind === 'map' ? boards.entry('board-1') : undefined;
  if (board?.kind !== 'map') throw new Error('the contract holds no board map');
  return board;
}

/** Every field of an object schema, descending into nested objects (a board's setup): `setup.rows`. */
function leafPaths(schema: unknown, prefix: string): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape) return [prefix];
  return Object.entries(shape).flatMap(([name, inner]) => leafPaths(inner, `${prefix}.${name}`));
}

describe('the table of a board’s fields', () => {
  it('has one entry for each key the contract lets a board hold, and the server takes each', () => {
    expect(Object.keys(BOARD_FIELDS).sort()).toEqual([...TEAM_DOC_BOARD_KEYS].sort());
    const node = boardNode();
    for (const key of Object.keys(BOARD_FIELDS)) expect(node.entry(key), key).toBeDefined();
  });

  it('maps every field of the Board, each once: to a key of the room, or to a value read locally', () => {
    const paths = [...Object.values(BOARD_FIELDS).map((f) => f.path), ...Object.keys(LOCAL_ONLY)];
    expect(new Set(paths).size).toBe(paths.length);
    const wanted = [...leafPaths(BoardSchema, 'board'), 'createdBy', 'revealedBy'];
    expect([...paths].sort()).toEqual(wanted.sort());
  });

  it('holds each key as the kind of node the contract checks it with', () => {
    const node = boardNode();
    const kindOf = { value: 'value', list: 'array', record: 'map', records: 'map' } as const;
    for (const [key, f] of Object.entries(BOARD_FIELDS))
      expect(node.entry(key)?.kind, key).toBe(kindOf[f.shape]);
  });

  it('leaves to their own operations the parts the contract keeps for one member; createdBy is written once', () => {
    const node = boardNode();
    // Who may write the key, or each of its entries or elements.
    const whoOf = (n: DocNode | undefined): Who | undefined =>
      n?.who ?? (n?.kind === 'map' ? n.entry('member-a')?.who : n?.kind === 'array' ? n.item.who : undefined);
    for (const [key, f] of Object.entries(BOARD_FIELDS)) {
      const who = whoOf(node.entry(key));
      const members = who === 'self-key' || who === 'own-key' || who === 'append';
      expect(f.writtenBy, key).toBe(who === 'once' ? 'once' : members ? 'own' : 'save');
    }
  });
});

describe('reading and writing by the table', () => {
  const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
  const board = (patch: Partial<Board> = {}): Board => ({
    id: 'board-1',
    connectionId: TEAM_CONNECTION,
    name: 'Lighthouses',
    createdAt: T0,
    updatedAt: T0,
    setup: {
      category: 'image/default',
      columns: [{ modelId: 'lumen', versionId: 'v1' }],
      rows: [{ id: 'r1', prompt: 'a lighthouse' }],
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

  function room(version: number): Y.Map<unknown> {
    const doc = new Y.Doc();
    doc.getMap(ROOTS.meta).set('schemaVersion', version);
    const map = new Y.Map<unknown>();
    doc.getMap(ROOTS.boards).set('board-1', map);
    return map;
  }

  it('a new board has the lists and maps its room keeps, and its creator, once', () => {
    const old = room(2);
    writeBoard(old, board(), { createdBy: 'member-a' });
    expect(['decisions', 'criteria', 'scores'].filter((k) => old.has(k))).toEqual([]);
    const map = room(4);
    writeBoard(map, board(), { createdBy: 'member-a' });
    expect(map.get('decisions')).toBeInstanceOf(Y.Array);
    expect(map.get('criteria')).toBeInstanceOf(Y.Array);
    expect(map.get('scores')).toBeInstanceOf(Y.Map);
    writeBoard(map, board({ name: 'Renamed' }), { createdBy: 'member-b' });
    expect(readBoard(map)?.createdBy).toBe('member-a');
  });

  it('a save leaves the reveals, and writes neither the decisions nor the scores its Board carries', () => {
    const map = room(4);
    writeBoard(map, board(), { createdBy: 'member-a' });
    (map.get('revealedBy') as Y.Map<unknown>).set('member-b', T0);
    const decision = { column: 'lumen@v1', reason: 'sharp', by: 'member-b', at: T0 };
    const sheet = { cells: { 'r1|lumen@v1': { c1: 5 } }, at: T0 };
    writeBoard(map, board({ decisions: [decision], scores: { 'member-b': sheet } }));
    expect((map.get('decisions') as Y.Array<unknown>).length).toBe(0);
    expect((map.get('scores') as Y.Map<unknown>).size).toBe(0);
    expect(readBoard(map)?.revealedBy).toEqual({ 'member-b': T0 });
  });

  it('writes the cells apart from the rest, and both when asked for neither part', () => {
    const map = room(5);
    writeBoard(map, board(), { createdBy: 'member-a' });
    const cells = { 'r1|lumen@v1': { idempotencyKey: 'k1', request: '{}', runAt: T0 } };
    writeBoard(map, board({ name: 'Renamed', cells }), { part: 'tracked' });
    expect(readBoard(map)?.board).toEqual(board({ name: 'Renamed' }));
    writeBoard(map, board({ name: 'Renamed', cells }), { part: 'untracked' });
    expect(readBoard(map)?.board).toEqual(board({ name: 'Renamed', cells }));
  });

  it('reads a board as the room has it: a map of another board, a missing id or category, no board', () => {
    const map = room(5);
    writeBoard(map, board(), { createdBy: 'member-a' });
    expect(readBoard(map)?.board.connectionId).toBe(TEAM_CONNECTION);
    map.set('category', '');
    expect(readBoard(map)).toBeNull();
    map.set('category', 'image/default');
    map.delete('id');
    expect(readBoard(map)).toBeNull();
  });

  it('the store still saves through it: another member’s save leaves the creator', () => {
    const a = new TeamSpace(new Y.Doc(), 'member-a', () => T0);
    const b = new TeamSpace(new Y.Doc(), 'member-b', () => T0);
    const boardsA = new TeamBoards(a);
    const boardsB = new TeamBoards(b);
    boardsA.save(board());
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc));
    boardsB.save(board({ name: 'Renamed by b' }));
    expect(boardsB.get('board-1')?.createdBy).toBe('member-a');
    expect(boardsB.get('board-1')?.board.name).toBe('Renamed by b');
    boardsA.destroy();
    boardsB.destroy();
    a.destroy();
    b.destroy();
  });
});
