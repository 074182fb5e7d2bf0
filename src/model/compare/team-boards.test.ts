import * as Y from 'yjs';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_COLUMNS, MAX_ROWS, cellKey, columnKey, type Board, type Column, type Decision } from './boards';
import { ROOTS } from '../team/team-doc';
import { TeamSpace } from '../team/team-space';
import { TEAM_CONNECTION, TeamBoards, blankRowId, blindFor, setText, wellFormed } from './team-boards';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

const col = (modelId: string, versionId = 'v1'): Column => ({ modelId, versionId });

function sampleBoard(patch: Partial<Board> = {}): Board {
  const lumen = col('lumen');
  const aurora = col('aurora', 'v2');
  return {
    id: 'board-1',
    connectionId: TEAM_CONNECTION,
    name: 'Lighthouses',
    createdAt: T0,
    updatedAt: T0 + 5,
    setup: {
      category: 'image/default',
      columns: [lumen, aurora],
      rows: [
        { id: 'r1', prompt: 'a lighthouse in fog' },
        { id: 'r2', prompt: 'a lighthouse at dawn 🌅' },
      ],
      shared: { aspect_ratio: '16:9', steps: 30, hdr: true, tags: ['a', 'b'] },
      perColumn: { [columnKey(aurora)]: { style: 'film' } },
    },
    cells: {
      [cellKey('r1', columnKey(lumen))]: {
        idempotencyKey: 'k1',
        taskId: 'task_1',
        request: '{"model":"lumen"}',
        runAt: T0 + 1,
      },
      [cellKey('r2', columnKey(aurora))]: {
        idempotencyKey: 'k2',
        request: '{"model":"aurora"}',
        runAt: T0 + 2,
      },
    },
    favourites: { r1: columnKey(lumen) },
    notes: { [cellKey('r1', columnKey(aurora))]: 'too dark' },
    blind: true,
    decisions: [],
    criteria: [],
    scores: {},
    ...patch,
  };
}

const spaces: TeamSpace[] = [];
const stores: TeamBoards[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.destroy());
  spaces.splice(0).forEach((s) => s.destroy());
});

function member(id: string, clock = () => T0): { team: TeamSpace; boards: TeamBoards } {
  const team = new TeamSpace(new Y.Doc(), id, clock);
  const boards = new TeamBoards(team);
  spaces.push(team);
  stores.push(boards);
  return { team, boards };
}

/** Sends `from` what `to` lacks (one direction of a sync). */
function send(from: Y.Doc, to: Y.Doc): void {
  Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)));
}
function syncAll(docs: readonly Y.Doc[]): void {
  for (const a of docs) for (const b of docs) if (a !== b) send(a, b);
}

/** A seeded generator (mulberry32): a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a board in the document and back', () => {
  it('keeps every field', () => {
    const { team, boards } = member('member-a');
    const board = sampleBoard();
    boards.save(board);
    const record = boards.get(board.id)!;
    expect(record.board).toEqual(board);
    expect(record.createdBy).toBe('member-a');
    expect(record.revealedBy).toEqual({});
    expect(boards.snapshot()).toEqual([record]);

    // Another member's copy reads the same board from the document alone.
    const other = member('member-b');
    send(team.doc, other.team.doc);
    expect(other.boards.get(board.id)?.board).toEqual(board);
  });

  it('keeps its shape: nested Yjs types where members edit at once', () => {
    const { team, boards } = member('member-a');
    boards.save(sampleBoard());
    const map = team.doc.getMap<Y.Map<unknown>>(ROOTS.boards).get('board-1')!;
    expect(map.get('columns')).toBeInstanceOf(Y.Array);
    const rows = map.get('rows') as Y.Array<Y.Map<unknown>>;
    expect(rows.get(0).get('prompt')).toBeInstanceOf(Y.Text);
    for (const key of ['shared', 'perColumn', 'cells', 'favourites', 'notes', 'revealedBy'])
      expect(map.get(key), key).toBeInstanceOf(Y.Map);
  });

  it('writes only what changed', () => {
    const { team, boards } = member('member-a');
    const board = sampleBoard();
    boards.save(board);
    const before = Y.encodeStateVector(team.doc);
    boards.save(board);
    expect(Y.encodeStateVector(team.doc)).toEqual(before);

    const updates: Uint8Array[] = [];
    team.doc.on('update', (u: Uint8Array) => updates.push(u));
    boards.save({ ...board, name: 'Lighthouses 2' });
    expect(updates).toHaveLength(1);
    // A rename travels as a few bytes, not the whole board again.
    expect(updates[0]!.length).toBeLessThan(Y.encodeStateAsUpdate(team.doc).length / 4);
  });

  it('reads what a hostile or confused client wrote as far as it is a board', () => {
    const { team, boards } = member('member-a');
    boards.save(sampleBoard());
    const root = team.doc.getMap<unknown>(ROOTS.boards);
    team.doc.transact(() => {
      root.set('junk', 42);
      root.set('other-id', root.get('board-1') instanceof Y.Map ? new Y.Map() : null);
      const map = root.get('board-1') as Y.Map<unknown>;
      (map.get('cells') as Y.Map<unknown>).set('bad', { idempotencyKey: 3 });
      (map.get('notes') as Y.Map<unknown>).set('x', { script: true });
      (map.get('columns') as Y.Array<unknown>).push([{ modelId: '' }, col('lumen')]);
      (map.get('revealedBy') as Y.Map<unknown>).set('m', 'yesterday');
    });
    const record = boards.get('board-1')!;
    expect(record.board).toEqual(sampleBoard());
    expect(record.revealedBy).toEqual({});
    expect(boards.get('junk')).toBeNull();
    expect(boards.snapshot().map((r) => r.board.id)).toEqual(['board-1']);
  });

  it('is rebuilt only when the boards change, and only the board that changed', () => {
    const { team, boards } = member('member-a');
    boards.save(sampleBoard());
    boards.save(sampleBoard({ id: 'board-2', updatedAt: T0 }));
    const first = boards.snapshot();
    const two = boards.get('board-2');
    team.doc.getMap(ROOTS.votes).set('x', 1);
    expect(boards.snapshot()).toBe(first);
    boards.save({ ...boards.get('board-1')!.board, name: 'Renamed' });
    expect(boards.snapshot()).not.toBe(first);
    expect(boards.get('board-2')).toBe(two);
  });

  it('deletes', () => {
    const { boards } = member('member-a');
    boards.save(sampleBoard());
    boards.delete('board-1');
    expect(boards.get('board-1')).toBeNull();
    expect(boards.snapshot()).toEqual([]);
  });

  it('puts a deleted board back whole for every member when the deletion is undone', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard());
    a.boards.reveal('board-1');
    syncAll([a.team.doc, b.team.doc]);
    const before = a.boards.get('board-1');
    const undo = a.boards.delete('board-1');
    syncAll([a.team.doc, b.team.doc]);
    expect(b.boards.get('board-1')).toBeNull();
    undo();
    syncAll([a.team.doc, b.team.doc]);
    expect(a.boards.get('board-1')).toEqual(before);
    expect(b.boards.get('board-1')).toEqual(before);
    expect(before?.revealedBy).toHaveProperty('member-a');
  });

  it('undoing a deletion writes nothing of another member’s: the board comes back created by this member, with only their reveal', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard());
    a.boards.reveal('board-1');
    syncAll([a.team.doc, b.team.doc]);
    b.boards.reveal('board-1');
    const undo = b.boards.delete('board-1');
    undo();
    const restored = b.team.doc.getMap(ROOTS.boards).get('board-1') as Y.Map<unknown>;
    // The server refuses a createdBy not the writer's, and a reveal of another member's (contract/team-doc.ts).
    expect(restored.get('createdBy')).toBe('member-b');
    expect(Object.keys((restored.get('revealedBy') as Y.Map<unknown>).toJSON())).toEqual(['member-b']);
    expect(b.boards.get('board-1')?.board).toEqual(sampleBoard());
  });

  it('undoing "Blind" never writes the other members’ reveals again in this member’s name', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard({ blind: true }));
    syncAll([a.team.doc, b.team.doc]);
    b.boards.reveal('board-1');
    syncAll([a.team.doc, b.team.doc]);
    a.boards.save({ ...a.boards.get('board-1')!.board, blind: false });
    const history = a.boards.history('board-1')!;
    a.boards.blind('board-1');
    expect(a.boards.get('board-1')!.revealedBy).toEqual({});
    history.undo();
    expect(a.boards.get('board-1')!.board.blind).toBe(false);
    expect(a.boards.get('board-1')!.revealedBy).not.toHaveProperty('member-b');
  });

  it('undoes only the deletion: an edit of another board made since stays', () => {
    const { boards } = member('member-a');
    boards.save(sampleBoard());
    boards.save(sampleBoard({ id: 'board-2', name: 'Second' }));
    const undo = boards.delete('board-1');
    boards.save({ ...boards.get('board-2')!.board, name: 'Second, renamed' });
    undo();
    expect(boards.get('board-1')?.board.name).toBe('Lighthouses');
    expect(boards.get('board-2')?.board.name).toBe('Second, renamed');
  });

  it('types a prompt as text edits, never splitting a surrogate pair', () => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    for (const [from, to] of [
      ['', 'abc'],
      ['abc', 'abXc'],
      ['abXc', 'ac'],
      ['a🌅c', 'a🌄c'],
      ['🌅', ''],
      ['same', 'same'],
    ] as const) {
      setText(text, from);
      setText(text, to);
      expect(text.toString()).toBe(to);
    }
  });
});

describe('per-member reveal', () => {
  it('keeps a member blind until they reveal, whoever else did', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard({ blind: false }));
    a.boards.blind('board-1');
    syncAll([a.team.doc, b.team.doc]);
    expect(blindFor(a.boards.get('board-1')!, 'member-a')).toBe(true);
    expect(blindFor(b.boards.get('board-1')!, 'member-b')).toBe(true);

    a.boards.reveal('board-1');
    syncAll([a.team.doc, b.team.doc]);
    expect(blindFor(b.boards.get('board-1')!, 'member-a')).toBe(false);
    expect(blindFor(b.boards.get('board-1')!, 'member-b')).toBe(true);
    expect(b.boards.get('board-1')!.board.blind).toBe(true);

    // Blind again on a board this member revealed: hidden again from them only.
    a.boards.blind('board-1');
    syncAll([a.team.doc, b.team.doc]);
    expect(blindFor(a.boards.get('board-1')!, 'member-a')).toBe(true);
  });

  it('a board turned blind again starts a new round for everyone', () => {
    const a = member('member-a');
    a.boards.save(sampleBoard({ blind: true }));
    a.boards.reveal('board-1');
    a.boards.save({ ...a.boards.get('board-1')!.board, blind: false });
    a.boards.blind('board-1');
    expect(a.boards.get('board-1')!.revealedBy).toEqual({});
  });
});

describe('convergence', () => {
  const POOL = ['lumen', 'aurora', 'pop', 'zen', 'nova', 'echo', 'iris', 'kite', 'moss', 'sky'];

  /** One random edit of a member's copy of the board, as the editor would make it. */
  function edit(rnd: () => number, boards: TeamBoards, id: string, seq: number): void {
    const record = boards.get(id);
    if (!record) return;
    const b = record.board;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const rows = b.setup.rows;
    let next: Board = b;
    switch (Math.floor(rnd() * 10)) {
      case 0:
        next = { ...b, name: `${b.name.slice(0, 8)}${seq}` };
        break;
      case 1:
      case 2: {
        const row = pick(rows);
        const at = Math.floor(rnd() * (row.prompt.length + 1));
        const prompt =
          rnd() < 0.8
            ? `${row.prompt.slice(0, at)}${String.fromCharCode(97 + (seq % 26))}${row.prompt.slice(at)}`
            : `${row.prompt.slice(0, at)}${row.prompt.slice(at + 1)}`;
        next = {
          ...b,
          setup: { ...b.setup, rows: rows.map((r) => (r.id === row.id ? { ...r, prompt } : r)) },
        };
        break;
      }
      case 3:
        if (rows.length < MAX_ROWS)
          next = { ...b, setup: { ...b.setup, rows: [...rows, { id: `row-${seq}`, prompt: '' }] } };
        break;
      case 4:
        if (rows.length > 1) {
          const gone = pick(rows).id;
          next = { ...b, setup: { ...b.setup, rows: rows.filter((r) => r.id !== gone) } };
        }
        break;
      case 5: {
        const model = pick(POOL);
        const cols = b.setup.columns;
        if (cols.length < MAX_COLUMNS && !cols.some((c) => c.modelId === model))
          next = { ...b, setup: { ...b.setup, columns: [...cols, col(model)] } };
        else if (cols.length > 0) {
          const gone = pick(cols);
          next = { ...b, setup: { ...b.setup, columns: cols.filter((c) => c !== gone) } };
        }
        break;
      }
      case 6: {
        const row = pick(rows);
        const favourites = { ...b.favourites };
        if (favourites[row.id] || b.setup.columns.length === 0) delete favourites[row.id];
        else favourites[row.id] = columnKey(pick(b.setup.columns));
        next = { ...b, favourites };
        break;
      }
      case 7:
        next = { ...b, notes: { ...b.notes, [cellKey(pick(rows).id, `m${seq % 3}@v1`)]: `note ${seq}` } };
        break;
      case 8:
        next = { ...b, setup: { ...b.setup, shared: { ...b.setup.shared, steps: seq } } };
        break;
      case 9:
        next = {
          ...b,
          cells: {
            ...b.cells,
            [cellKey(pick(rows).id, `m${seq % 3}@v1`)]: {
              idempotencyKey: `k${seq}`,
              request: '{}',
              runAt: seq,
            },
          },
        };
        break;
    }
    boards.save({ ...next, updatedAt: T0 + seq });
  }

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`four members with random edits and partitions end equal (seed ${seed})`, () => {
      const rnd = random(seed);
      const members = ['m-a', 'm-b', 'm-c', 'm-d'].map((id) => member(id));
      const docs = members.map((m) => m.team.doc);
      members[0]!.boards.save(sampleBoard({ blind: false }));
      syncAll(docs);
      for (let round = 0; round < 12; round++) {
        // A partition: each member edits offline, then only some pairs exchange.
        for (let i = 0; i < 12; i++)
          edit(rnd, members[Math.floor(rnd() * members.length)]!.boards, 'board-1', round * 100 + i);
        for (let i = 0; i < 2; i++) {
          const a = docs[Math.floor(rnd() * docs.length)]!;
          const b = docs[Math.floor(rnd() * docs.length)]!;
          if (a !== b) {
            send(a, b);
            send(b, a);
          }
        }
      }
      syncAll(docs);
      const state = Y.encodeStateAsUpdate(docs[0]!);
      const vector = Y.encodeStateVector(docs[0]!);
      const board = members[0]!.boards.get('board-1')!.board;
      expect(board.setup.rows.length).toBeGreaterThan(0);
      for (const m of members.slice(1)) {
        expect(Y.encodeStateVector(m.team.doc)).toEqual(vector);
        expect(Y.encodeStateAsUpdate(m.team.doc)).toEqual(state);
        expect(m.boards.get('board-1')!.board).toEqual(board);
      }
    });
  }

  it('two members editing the same board offline: both edits survive', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard());
    syncAll([a.team.doc, b.team.doc]);

    // Offline: A types into prompt 1 and renames; B types into prompt 2 and adds a column.
    const fromA = a.boards.get('board-1')!.board;
    a.boards.save({
      ...fromA,
      name: 'Lighthouses, final',
      setup: {
        ...fromA.setup,
        rows: fromA.setup.rows.map((r) => (r.id === 'r1' ? { ...r, prompt: `${r.prompt}, at night` } : r)),
      },
    });
    const fromB = b.boards.get('board-1')!.board;
    b.boards.save({
      ...fromB,
      setup: {
        ...fromB.setup,
        columns: [...fromB.setup.columns, col('pop')],
        rows: fromB.setup.rows.map((r) => (r.id === 'r2' ? { ...r, prompt: `stormy, ${r.prompt}` } : r)),
      },
      notes: { ...fromB.notes, 'r2|pop@v1': 'watch this one' },
    });

    syncAll([a.team.doc, b.team.doc]);
    for (const m of [a, b]) {
      const board = m.boards.get('board-1')!.board;
      expect(board.name).toBe('Lighthouses, final');
      expect(board.setup.columns.map(columnKey)).toEqual(['lumen@v1', 'aurora@v2', 'pop@v1']);
      expect(board.setup.rows).toEqual([
        { id: 'r1', prompt: 'a lighthouse in fog, at night' },
        { id: 'r2', prompt: 'stormy, a lighthouse at dawn 🌅' },
      ]);
      expect(board.notes['r2|pop@v1']).toBe('watch this one');
    }
  });

  it('both typing into the same prompt offline keep both words', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard());
    syncAll([a.team.doc, b.team.doc]);
    const typeInto = (m: ReturnType<typeof member>, prompt: (p: string) => string) => {
      const board = m.boards.get('board-1')!.board;
      m.boards.save({
        ...board,
        setup: {
          ...board.setup,
          rows: board.setup.rows.map((r) => (r.id === 'r1' ? { ...r, prompt: prompt(r.prompt) } : r)),
        },
      });
    };
    typeInto(a, (p) => `misty ${p}`);
    typeInto(b, (p) => `${p} with gulls`);
    syncAll([a.team.doc, b.team.doc]);
    expect(a.boards.get('board-1')!.board.setup.rows[0]!.prompt).toBe('misty a lighthouse in fog with gulls');
  });

  it('each removing a different one of two rows leaves a blank row every member reads alike', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard());
    syncAll([a.team.doc, b.team.doc]);
    const drop = (m: ReturnType<typeof member>, rowId: string) => {
      const board = m.boards.get('board-1')!.board;
      m.boards.save({
        ...board,
        setup: { ...board.setup, rows: board.setup.rows.filter((r) => r.id !== rowId) },
      });
    };
    drop(a, 'r1');
    drop(b, 'r2');
    syncAll([a.team.doc, b.team.doc]);
    expect(a.boards.get('board-1')!.board.setup.rows).toEqual([{ id: blankRowId('board-1'), prompt: '' }]);
    expect(b.boards.get('board-1')!.board.setup.rows).toEqual(a.boards.get('board-1')!.board.setup.rows);
  });

  it('columns past the limit added by two members at once are read up to the limit', () => {
    const a = member('member-a');
    const b = member('member-b');
    const seven = POOL.slice(0, 7).map((m) => col(m));
    a.boards.save(sampleBoard({ setup: { ...sampleBoard().setup, columns: seven } }));
    syncAll([a.team.doc, b.team.doc]);
    for (const [m, model] of [
      [a, 'x1'],
      [b, 'x2'],
    ] as const) {
      const board = m.boards.get('board-1')!.board;
      m.boards.save({ ...board, setup: { ...board.setup, columns: [...board.setup.columns, col(model)] } });
    }
    syncAll([a.team.doc, b.team.doc]);
    expect(a.boards.get('board-1')!.board.setup.columns).toHaveLength(MAX_COLUMNS);
    expect(b.boards.get('board-1')!.board).toEqual(a.boards.get('board-1')!.board);
  });
});

describe('undo', () => {
  it("undoes a member's own edit and leaves another member's", () => {
    const a = member('member-a');
    const b = member('member-b');
    a.boards.save(sampleBoard());
    syncAll([a.team.doc, b.team.doc]);
    const history = a.boards.history('board-1')!;
    expect(history.snapshot()).toEqual({ canUndo: false, canRedo: false });

    const fromA = a.boards.get('board-1')!.board;
    a.boards.save({ ...fromA, name: 'Renamed by A' });
    const fromB = b.boards.get('board-1')!.board;
    b.boards.save({
      ...fromB,
      setup: {
        ...fromB.setup,
        rows: fromB.setup.rows.map((r) => (r.id === 'r1' ? { ...r, prompt: 'typed by B' } : r)),
      },
    });
    syncAll([a.team.doc, b.team.doc]);
    expect(history.snapshot().canUndo).toBe(true);

    history.undo();
    syncAll([a.team.doc, b.team.doc]);
    for (const m of [a, b]) {
      const board = m.boards.get('board-1')!.board;
      expect(board.name).toBe('Lighthouses');
      expect(board.setup.rows[0]!.prompt).toBe('typed by B');
    }
    expect(history.snapshot()).toEqual({ canUndo: false, canRedo: true });

    history.redo();
    expect(a.boards.get('board-1')!.board.name).toBe('Renamed by A');
    // B has nothing of their own to undo on this board.
    expect(b.boards.history('board-1')!.snapshot().canUndo).toBe(false);
  });
  it('never undoes a run: the cells of paid tasks stay on the board', () => {
    const a = member('member-a');
    a.boards.save(sampleBoard({ cells: {} }));
    const history = a.boards.history('board-1')!;
    const board = a.boards.get('board-1')!.board;
    a.boards.save({
      ...board,
      name: 'Run now',
      cells: { 'r1|lumen@v1': { idempotencyKey: 'k9', request: '{}', runAt: T0 } },
    });
    history.undo();
    const after = a.boards.get('board-1')!.board;
    expect(after.name).toBe('Lighthouses');
    expect(Object.keys(after.cells)).toEqual(['r1|lumen@v1']);
  });
});

describe('decisions', () => {
  /** A member of a room at the schema version that keeps decisions. */
  const decider = (id: string, clock: () => number) => {
    const m = member(id, clock);
    m.team.doc.getMap(ROOTS.meta).set('schemaVersion', 3);
    return m;
  };

  it('each member’s decision joins the board’s history in their name; a revision never rewrites one, and two at once both stay', () => {
    let now = T0 + 100;
    const a = decider('member-a', () => now);
    const b = decider('member-b', () => now);
    a.boards.save(sampleBoard());
    syncAll([a.team.doc, b.team.doc]);
    expect(a.boards.decide('board-1', { column: 'lumen@v1', reason: 'crisper fog' })).toBe(true);
    now += 10;
    // Offline at once: Bob decides for Aurora, Alice revises to Aurora too.
    b.boards.decide('board-1', { column: 'aurora@v2', reason: 'warmer' });
    a.boards.decide('board-1', { column: 'aurora@v2', reason: 'on reflection' });
    syncAll([a.team.doc, b.team.doc]);
    // Bob's decision is concurrent with both of Alice's (he had neither): Yjs orders concurrent inserts
    // by its client ids, so the list's order is not the test's to fix, only that every copy has it.
    const byTime = (ds: readonly Decision[]) =>
      [...ds].sort((x, y) => x.at - y.at || x.by.localeCompare(y.by) || x.reason.localeCompare(y.reason));
    for (const m of [a, b]) {
      expect(byTime(m.boards.get('board-1')!.board.decisions)).toEqual([
        { column: 'lumen@v1', reason: 'crisper fog', by: 'member-a', at: T0 + 100 },
        { column: 'aurora@v2', reason: 'on reflection', by: 'member-a', at: T0 + 110 },
        { column: 'aurora@v2', reason: 'warmer', by: 'member-b', at: T0 + 110 },
      ]);
    }
    expect(b.boards.get('board-1')!.board.decisions).toEqual(a.boards.get('board-1')!.board.decisions);
    // A save of the board (an edit of its name) leaves the decisions as they are.
    a.boards.save({ ...a.boards.get('board-1')!.board, name: 'Renamed', decisions: [] });
    expect(a.boards.get('board-1')!.board.decisions).toHaveLength(3);
  });

  it('is not in the member’s undo history (the server keeps decisions whole), and a room before version 3 takes none', () => {
    const a = decider('member-a', () => T0);
    a.boards.save(sampleBoard());
    const history = a.boards.history('board-1')!;
    a.boards.save({ ...a.boards.get('board-1')!.board, name: 'Edited' });
    a.boards.decide('board-1', { column: 'lumen@v1', reason: '' });
    history.undo();
    expect(a.boards.get('board-1')!.board.name).toBe('Lighthouses');
    expect(a.boards.get('board-1')!.board.decisions).toHaveLength(1);

    const old = member('member-old');
    old.boards.save(sampleBoard());
    expect(old.boards.decide('board-1', { column: 'lumen@v1', reason: '' })).toBe(false);
    expect(old.boards.get('board-1')!.board.decisions).toEqual([]);
  });

  it('a decision of the wrong shape (another studio’s) is left out, the others read', () => {
    const a = decider('member-a', () => T0);
    a.boards.save(sampleBoard());
    a.boards.decide('board-1', { column: 'lumen@v1', reason: 'ok' });
    const list = (a.team.doc.getMap(ROOTS.boards).get('board-1') as Y.Map<unknown>).get(
      'decisions',
    ) as Y.Array<unknown>;
    list.push([{ column: '', reason: 1, by: 'x', at: 'now' }, '<b>not a decision</b>']);
    expect(a.boards.get('board-1')!.board.decisions.map((d) => d.reason)).toEqual(['ok']);
  });

  it('undoing a deletion brings back this member’s decisions, never another’s in their name', () => {
    const a = decider('member-a', () => T0);
    const b = decider('member-b', () => T0 + 1);
    a.boards.save(sampleBoard());
    a.boards.decide('board-1', { column: 'lumen@v1', reason: 'mine' });
    syncAll([a.team.doc, b.team.doc]);
    b.boards.decide('board-1', { column: 'aurora@v2', reason: 'bob’s' });
    const undo = b.boards.delete('board-1');
    undo();
    expect(b.boards.get('board-1')!.board.decisions.map((d) => d.by)).toEqual(['member-b']);
  });
});

describe('criteria and scores', () => {
  /** A member of a room at the schema version that keeps criteria and scores. */
  const scorer = (id: string, clock: () => number = () => T0) => {
    const m = member(id, clock);
    m.team.doc.getMap(ROOTS.meta).set('schemaVersion', 4);
    return m;
  };
  const LOOK = { id: 'c-look', name: 'Look' };
  const ADHERENCE = { id: 'c-adh', name: 'Prompt adherence' };
  const cell = cellKey('r1', 'lumen@v1');

  it('criteria named on one copy reach the other; two members renaming different criteria at once both stay', () => {
    const a = scorer('member-a');
    const b = scorer('member-b');
    a.boards.save(sampleBoard({ criteria: [LOOK, ADHERENCE] }));
    syncAll([a.team.doc, b.team.doc]);
    expect(b.boards.get('board-1')!.board.criteria).toEqual([LOOK, ADHERENCE]);
    // Offline at once: Ana renames Look, Ben renames Prompt adherence.
    a.boards.save({
      ...a.boards.get('board-1')!.board,
      criteria: [{ ...LOOK, name: 'Aesthetics' }, ADHERENCE],
    });
    b.boards.save({
      ...b.boards.get('board-1')!.board,
      criteria: [LOOK, { ...ADHERENCE, name: 'Adherence' }],
    });
    syncAll([a.team.doc, b.team.doc]);
    for (const m of [a, b])
      expect(
        m.boards
          .get('board-1')!
          .board.criteria.map((c) => c.name)
          .sort(),
      ).toEqual(['Adherence', 'Aesthetics']);
  });

  it('each member scores in their own sheet; both sheets read on every copy; a save of the board leaves them', () => {
    let now = T0 + 50;
    const a = scorer('member-a', () => now);
    const b = scorer('member-b', () => now);
    a.boards.save(sampleBoard({ criteria: [LOOK] }));
    syncAll([a.team.doc, b.team.doc]);
    expect(a.boards.score('board-1', cell, LOOK.id, 4)).toBe(true);
    now += 1;
    expect(b.boards.score('board-1', cell, LOOK.id, 2)).toBe(true);
    syncAll([a.team.doc, b.team.doc]);
    for (const m of [a, b])
      expect(m.boards.get('board-1')!.board.scores).toEqual({
        'member-a': { cells: { [cell]: { [LOOK.id]: 4 } }, at: T0 + 50 },
        'member-b': { cells: { [cell]: { [LOOK.id]: 2 } }, at: T0 + 51 },
      });
    a.boards.save({ ...a.boards.get('board-1')!.board, name: 'Renamed', scores: {} });
    expect(Object.keys(a.boards.get('board-1')!.board.scores).sort()).toEqual(['member-a', 'member-b']);
    // Taking a score back leaves no empty sheet behind.
    a.boards.score('board-1', cell, LOOK.id, null);
    expect(Object.keys(a.boards.get('board-1')!.board.scores)).toEqual(['member-b']);
  });

  it('a score is the member’s own edit (Undo takes it back); a room before version 4 takes no score and no criteria', () => {
    const a = scorer('member-a');
    a.boards.save(sampleBoard({ criteria: [LOOK] }));
    const history = a.boards.history('board-1')!;
    a.boards.score('board-1', cell, LOOK.id, 5);
    history.undo();
    expect(a.boards.get('board-1')!.board.scores).toEqual({});

    const old = member('member-old');
    old.team.doc.getMap(ROOTS.meta).set('schemaVersion', 3);
    old.boards.save(sampleBoard({ criteria: [LOOK] }));
    expect(old.boards.score('board-1', cell, LOOK.id, 5)).toBe(false);
    const map = old.team.doc.getMap(ROOTS.boards).get('board-1') as Y.Map<unknown>;
    // Neither field is written where the server would refuse it as unknown.
    expect(map.has('criteria')).toBe(false);
    expect(map.has('scores')).toBe(false);
  });

  it('a sheet or a criterion of the wrong shape (another studio’s) is left out, the others read', () => {
    const a = scorer('member-a');
    a.boards.save(sampleBoard({ criteria: [LOOK] }));
    a.boards.score('board-1', cell, LOOK.id, 3);
    const map = a.team.doc.getMap(ROOTS.boards).get('board-1') as Y.Map<unknown>;
    (map.get('scores') as Y.Map<unknown>).set('member-x', { cells: { [cell]: { [LOOK.id]: 9 } }, at: 1 });
    (map.get('criteria') as Y.Array<unknown>).push([{ id: '', name: 'x' }, '<img src=x onerror=alert(1)>']);
    const board = a.boards.get('board-1')!.board;
    expect(Object.keys(board.scores)).toEqual(['member-a']);
    expect(board.criteria).toEqual([LOOK]);
  });

  it('undoing a deletion brings back this member’s scores, never another’s in their name', () => {
    const a = scorer('member-a');
    const b = scorer('member-b');
    a.boards.save(sampleBoard({ criteria: [LOOK] }));
    a.boards.score('board-1', cell, LOOK.id, 4);
    syncAll([a.team.doc, b.team.doc]);
    b.boards.score('board-1', cell, LOOK.id, 1);
    const undo = b.boards.delete('board-1');
    undo();
    const board = b.boards.get('board-1')!.board;
    expect(Object.keys(board.scores)).toEqual(['member-b']);
    expect(board.criteria).toEqual([LOOK]);
  });
});

describe('presence', () => {
  it('lists the other members who have a board open, once per member, from awareness', () => {
    const a = member('member-a');
    const b = member('member-b');
    const c = member('member-c');
    const cOther = member('member-c');
    b.team.awareness.setLocalStateField('member', { id: 'member-b', name: 'Bea' });
    c.team.awareness.setLocalStateField('member', { id: 'member-c', name: '<b>Cy</b>' });
    cOther.team.awareness.setLocalStateField('member', { id: 'member-c', name: '<b>Cy</b>' });
    b.boards.setOpen('board-1');
    c.boards.setOpen('board-1');
    cOther.boards.setOpen('board-1');
    let changes = 0;
    a.boards.subscribePresence(() => changes++);
    for (const m of [b, c, cOther])
      applyAwarenessUpdate(
        a.team.awareness,
        encodeAwarenessUpdate(m.team.awareness, [m.team.awareness.clientID]),
        'remote',
      );
    expect(a.boards.viewers('board-1')).toEqual([
      { memberId: 'member-b', name: 'Bea' },
      { memberId: 'member-c', name: '<b>Cy</b>' },
    ]);
    expect(changes).toBeGreaterThan(0);
    const before = a.boards.viewers('board-1');

    b.boards.setOpen(null);
    applyAwarenessUpdate(
      a.team.awareness,
      encodeAwarenessUpdate(b.team.awareness, [b.team.awareness.clientID]),
      'remote',
    );
    expect(a.boards.viewers('board-1')).toEqual([{ memberId: 'member-c', name: '<b>Cy</b>' }]);
    expect(a.boards.viewers('board-1')).not.toBe(before);
    expect(a.boards.viewers('other')).toEqual([]);
  });

  it('ignores awareness states that do not name a member', () => {
    const a = member('member-a');
    const b = member('member-b');
    b.team.awareness.setLocalState({ board: 'board-1', member: { name: 'nobody' } });
    applyAwarenessUpdate(
      a.team.awareness,
      encodeAwarenessUpdate(b.team.awareness, [b.team.awareness.clientID]),
      'remote',
    );
    expect(a.boards.viewers('board-1')).toEqual([]);
  });
});

it('half of a surrogate pair reads as U+FFFD on every copy, the one that made the edit too', () => {
  const local = new Y.Doc();
  const text = local.getText('t');
  text.insert(0, 'a😀b');
  text.delete(1, 1); // leaves the low half alone here; another copy receives it as U+FFFD (UTF-8)
  const remote = new Y.Doc();
  Y.applyUpdate(remote, Y.encodeStateAsUpdate(local));
  expect(wellFormed(text.toString())).toBe(wellFormed(remote.getText('t').toString()));
  expect(wellFormed('a\uDE00b')).toBe('a\uFFFDb');
  expect(wellFormed('a😀b')).toBe('a😀b');
});
