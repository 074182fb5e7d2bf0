import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { memberShareBytes, TEAM_DOC_VERSION } from '../../contract/team-doc';
import { reviewUpdate, RoomShares, type Review } from './authority';
import { nestedTaskUpdate } from './nested-update';

// The referee's judgement of single updates (reviewUpdate), on rooms built in memory: every forgery a
// hostile member tried is refused with its reason, and beside each, its control: the same kind of write
// by the member it belongs to is accepted (so a refusal is the rule seeing the forgery, not a check that
// refuses everything). The hostile-client suite (hostile-members.test.ts) sends the same over the wire.

const A = 'key_alice';
const B = 'key_bob';

/** A room with a few records of each kind, as honest studios write them. */
function seedRoom(): Y.Doc {
  const room = new Y.Doc();
  room.transact(() => {
    room.getMap('meta').set('schemaVersion', 1);
    room.getMap('members').set(A, { name: 'Alice', joinedAt: 1 });
    room.getMap('members').set(B, { name: 'Bob', joinedAt: 2 });
    room.getMap('tasks').set('task_a', { taskId: 'task_a', by: A, status: 'succeeded', createdAt: 5 });
    room.getMap('votes').set(`board_1|row_1|${A}`, vote(A));
    room.getMap('judgements').set(`${A}|task_a#0`, { starred: true, rating: 4, updatedAt: 3 });
    room.getMap('presets').set('preset_a', { id: 'preset_a', by: A, sharedAt: 1, name: 'p' });
    room.getMap('prompts').set('a cat', { text: 'a cat', by: A, sharedAt: 1 });
    const comment = new Y.Map<unknown>();
    for (const [k, v] of Object.entries({
      id: 'c1',
      target: { kind: 'output', outputKey: 'task_a#0' },
      parentId: null,
      author: A,
      body: 'Nice',
      mentions: [],
      createdAt: 4,
    }))
      comment.set(k, v);
    room.getMap('comments').set('c1', comment);
    const board = new Y.Map<unknown>();
    room.getMap('boards').set('board_1', board);
    board.set('id', 'board_1');
    board.set('name', 'Cats');
    board.set('createdBy', A);
    board.set('blind', true);
    const rows = new Y.Array<Y.Map<unknown>>();
    board.set('rows', rows);
    const row = new Y.Map<unknown>();
    row.set('id', 'row_1');
    const text = new Y.Text();
    text.insert(0, 'a cat on a mat');
    row.set('prompt', text);
    rows.push([row]);
    board.set('revealedBy', new Y.Map());
    board.set('cells', new Y.Map());
    board.set('criteria', new Y.Array());
    const scores = new Y.Map<unknown>();
    board.set('scores', scores);
    scores.set(A, sheet(4));
    room.getMap('reviews').set(`${A}|task_a#0`, { state: 'approved', note: 'ok', at: 6 });
    room.getMap('tags').set(`${A}|task_a#0`, { tags: ['portrait', 'client-a'], at: 6 });
    room.getMap('searches').set('search_a', savedSearch(A));
  });
  return room;
}

/** A search saved to the team by `by`. */
function savedSearch(by: string, name = 'Cats at night') {
  return { name, query: 'cat night', by, at: 8 };
}

/** `n` tags of `length` characters each. */
const tagList = (n: number, length = 5) => Array.from({ length: n }, (_, i) => `${i}`.padStart(length, 't'));

/** One member's scores on board_1: its one cell, on criterion c1. */
function sheet(score: number) {
  return { cells: { 'row_1|m@v': { c1: score } }, at: 7 };
}

function vote(memberId: string, boardId = 'board_1', rowId = 'row_1') {
  return {
    id: `${boardId}|${rowId}`,
    boardId,
    rowId,
    memberId,
    at: 9,
    category: 'image',
    candidates: [],
    winner: null,
  };
}

/** A member's copy of the room: whatever `edit` does to it, as the one update it sends. */
function edit(room: Y.Doc, change: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(room));
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  doc.transact(() => change(doc));
  return Y.mergeUpdates(updates);
}

const refusedAs = (review: Review) => (review.ok ? 'accepted' : review.reason);

/** Reviews `change` as `writer`; an accepted one is applied to the room, as the server would. */
function write(room: Y.Doc, writer: string, change: (doc: Y.Doc) => void): string {
  const update = edit(room, change);
  const before = Y.encodeStateAsUpdate(room);
  const review = reviewUpdate(room, update, writer);
  // Reviewing never changes the room.
  expect(Y.encodeStateAsUpdate(room)).toEqual(before);
  if (review.ok) Y.applyUpdate(room, update);
  return refusedAs(review);
}

const comment = (doc: Y.Doc, id = 'c1') => doc.getMap('comments').get(id) as Y.Map<unknown>;
const boardOf = (doc: Y.Doc) => doc.getMap('boards').get('board_1') as Y.Map<unknown>;

describe('forgery is refused, and its honest twin accepted', () => {
  const cases: Array<{
    what: string;
    forged: [string, (d: Y.Doc) => void];
    honest: [string, (d: Y.Doc) => void];
  }> = [
    {
      what: 'a vote under another member’s id',
      forged: [B, (d) => d.getMap('votes').set(`board_1|row_2|${A}`, vote(A, 'board_1', 'row_2'))],
      honest: [A, (d) => d.getMap('votes').set(`board_1|row_2|${A}`, vote(A, 'board_1', 'row_2'))],
    },
    {
      what: 'a vote under a made-up member id (ballot stuffing)',
      forged: [B, (d) => d.getMap('votes').set('board_1|row_1|key_ghost', vote('key_ghost'))],
      honest: [B, (d) => d.getMap('votes').set(`board_1|row_1|${B}`, vote(B))],
    },
    {
      what: 'a vote whose key says one member and whose value another',
      forged: [B, (d) => d.getMap('votes').set(`board_1|row_1|${B}`, vote(A))],
      honest: [B, (d) => d.getMap('votes').set(`board_1|row_1|${B}`, vote(B))],
    },
    {
      what: 'removing another member’s vote',
      forged: [B, (d) => d.getMap('votes').delete(`board_1|row_1|${A}`)],
      honest: [A, (d) => d.getMap('votes').delete(`board_1|row_1|${A}`)],
    },
    {
      what: 'renaming another member',
      forged: [B, (d) => d.getMap('members').set(A, { name: 'Mallory', joinedAt: 1 })],
      honest: [A, (d) => d.getMap('members').set(A, { name: 'Alice W.', joinedAt: 1 })],
    },
    {
      what: 'editing another member’s comment body',
      forged: [B, (d) => comment(d).set('body', 'I take it back')],
      honest: [A, (d) => comment(d).set('body', 'Nice!')],
    },
    {
      what: 'deleting another member’s comment',
      forged: [B, (d) => d.getMap('comments').delete('c1')],
      honest: [A, (d) => d.getMap('comments').delete('c1')],
    },
    {
      what: 'a comment in another member’s name',
      forged: [
        B,
        (d) => {
          const c = new Y.Map<unknown>();
          c.set('id', 'c2');
          c.set('author', A);
          c.set('body', 'forged');
          d.getMap('comments').set('c2', c);
        },
      ],
      honest: [
        B,
        (d) => {
          const c = new Y.Map<unknown>();
          c.set('id', 'c2');
          c.set('author', B);
          c.set('body', 'mine');
          d.getMap('comments').set('c2', c);
        },
      ],
    },
    {
      what: 'resolving a thread in another member’s name',
      forged: [B, (d) => comment(d).set('resolution', { resolved: true, by: A, at: 5 })],
      honest: [B, (d) => comment(d).set('resolution', { resolved: true, by: B, at: 5 })],
    },
    {
      what: 'reassigning a task’s “By”',
      forged: [
        B,
        (d) =>
          d.getMap('tasks').set('task_a', { taskId: 'task_a', by: B, status: 'succeeded', createdAt: 5 }),
      ],
      honest: [
        A,
        (d) => d.getMap('tasks').set('task_a', { taskId: 'task_a', by: A, status: 'failed', createdAt: 5 }),
      ],
    },
    {
      what: 'a task in another member’s name',
      forged: [
        B,
        (d) => d.getMap('tasks').set('task_b', { taskId: 'task_b', by: A, status: 'queued', createdAt: 5 }),
      ],
      honest: [
        B,
        (d) => d.getMap('tasks').set('task_b', { taskId: 'task_b', by: B, status: 'queued', createdAt: 5 }),
      ],
    },
    {
      what: 'another member’s star',
      forged: [
        B,
        (d) => d.getMap('judgements').set(`${A}|task_a#0`, { starred: false, rating: 1, updatedAt: 9 }),
      ],
      honest: [
        B,
        (d) => d.getMap('judgements').set(`${B}|task_a#0`, { starred: false, rating: 1, updatedAt: 9 }),
      ],
    },
    {
      what: 'another member’s review',
      forged: [B, (d) => d.getMap('reviews').set(`${A}|task_a#0`, { state: 'rejected', note: '', at: 9 })],
      honest: [B, (d) => d.getMap('reviews').set(`${B}|task_a#0`, { state: 'rejected', note: '', at: 9 })],
    },
    {
      what: 'taking back another member’s review',
      forged: [B, (d) => d.getMap('reviews').delete(`${A}|task_a#0`)],
      honest: [A, (d) => d.getMap('reviews').delete(`${A}|task_a#0`)],
    },
    {
      what: 'another member’s tags',
      forged: [B, (d) => d.getMap('tags').set(`${A}|task_a#0`, { tags: ['rejected'], at: 9 })],
      honest: [B, (d) => d.getMap('tags').set(`${B}|task_a#0`, { tags: ['rejected'], at: 9 })],
    },
    {
      what: 'taking away another member’s tags',
      forged: [B, (d) => d.getMap('tags').delete(`${A}|task_a#0`)],
      honest: [A, (d) => d.getMap('tags').delete(`${A}|task_a#0`)],
    },
    {
      what: 'a saved search in another member’s name',
      forged: [B, (d) => d.getMap('searches').set('search_b', savedSearch(A))],
      honest: [B, (d) => d.getMap('searches').set('search_b', savedSearch(B))],
    },
    {
      what: 'renaming another member’s saved search (in their name or in one’s own)',
      forged: [B, (d) => d.getMap('searches').set('search_a', savedSearch(B, 'Mine now'))],
      honest: [A, (d) => d.getMap('searches').set('search_a', savedSearch(A, 'Cats by night'))],
    },
    {
      what: 'deleting another member’s saved search',
      forged: [B, (d) => d.getMap('searches').delete('search_a')],
      honest: [A, (d) => d.getMap('searches').delete('search_a')],
    },
    {
      what: 'scoring a board’s cell in another member’s name',
      forged: [B, (d) => (boardOf(d).get('scores') as Y.Map<unknown>).set(A, sheet(1))],
      honest: [B, (d) => (boardOf(d).get('scores') as Y.Map<unknown>).set(B, sheet(1))],
    },
    {
      what: 'removing another member’s scores',
      forged: [B, (d) => (boardOf(d).get('scores') as Y.Map<unknown>).delete(A)],
      honest: [A, (d) => (boardOf(d).get('scores') as Y.Map<unknown>).delete(A)],
    },
    {
      what: 'overwriting another member’s shared prompt',
      forged: [B, (d) => d.getMap('prompts').set('a cat', { text: 'a cat', by: B, sharedAt: 2 })],
      honest: [A, (d) => d.getMap('prompts').set('a cat', { text: 'a cat', by: A, sharedAt: 2 })],
    },
    {
      what: 'unsharing another member’s preset',
      forged: [B, (d) => d.getMap('presets').delete('preset_a')],
      honest: [A, (d) => d.getMap('presets').delete('preset_a')],
    },
    {
      what: 'revealing a blind board for another member',
      forged: [B, (d) => (boardOf(d).get('revealedBy') as Y.Map<number>).set(A, 10)],
      honest: [B, (d) => (boardOf(d).get('revealedBy') as Y.Map<number>).set(B, 10)],
    },
    {
      what: 'taking over a board’s creator',
      forged: [B, (d) => boardOf(d).set('createdBy', B)],
      honest: [B, (d) => boardOf(d).set('name', 'Cats and dogs')],
    },
  ];
  for (const { what, forged, honest } of cases) {
    it(what, () => {
      const room = seedRoom();
      expect(write(room, forged[0], forged[1]), 'forged').toBe('not-yours');
      expect(write(room, honest[0], honest[1]), 'honest').toBe('accepted');
    });
  }

  it('anyone edits a shared board: its prompts, rows and cells', () => {
    const room = seedRoom();
    expect(
      write(room, B, (d) => {
        const row = (boardOf(d).get('rows') as Y.Array<Y.Map<unknown>>).get(0);
        (row.get('prompt') as Y.Text).insert(0, 'Big ');
        (boardOf(d).get('cells') as Y.Map<unknown>).set('row_1|m@v', { taskId: 't', status: 'queued' });
      }),
    ).toBe('accepted');
    expect(write(room, B, (d) => (boardOf(d).get('rows') as Y.Array<unknown>).delete(0, 1))).toBe('accepted');
  });

  describe('a board’s decisions: anyone adds one in their own name, nobody removes or rewrites any', () => {
    const decision = (by: string, at = 20) => ({ column: 'm@v', reason: 'sharper', by, at });
    const decisionsOf = (d: Y.Doc) => boardOf(d).get('decisions') as Y.Array<unknown>;
    /** The room with the list and one decision of Alice's in it. */
    const decided = () => {
      const room = seedRoom();
      room.transact(() => {
        const list = new Y.Array<unknown>();
        boardOf(room).set('decisions', list);
        list.push([decision(A, 10)]);
      });
      return room;
    };
    it('adds a decision of one’s own; one naming another member is refused', () => {
      expect(write(decided(), B, (d) => decisionsOf(d).push([decision(B)]))).toBe('accepted');
      expect(write(decided(), B, (d) => decisionsOf(d).push([decision(A)]))).toBe('not-yours');
    });
    it('removing a decision is refused, one’s own too; so is replacing the list', () => {
      expect(write(decided(), A, (d) => decisionsOf(d).delete(0, 1))).toBe('not-yours');
      expect(write(decided(), B, (d) => decisionsOf(d).delete(0, 1))).toBe('not-yours');
      expect(write(decided(), A, (d) => boardOf(d).set('decisions', new Y.Array()))).toBe('not-yours');
      expect(write(decided(), A, (d) => boardOf(d).delete('decisions'))).toBe('not-yours');
      // The list made where the board has none yet (its creator's first decision): accepted.
      expect(
        write(seedRoom(), B, (d) => {
          const list = new Y.Array<unknown>();
          boardOf(d).set('decisions', list);
          list.push([decision(B)]);
        }),
      ).toBe('accepted');
    });
    it('a decision of the wrong shape is refused', () => {
      expect(
        write(decided(), B, (d) => decisionsOf(d).push([{ ...decision(B), reason: 'x'.repeat(2_001) }])),
      ).toBe('invalid-value');
      expect(write(decided(), B, (d) => decisionsOf(d).push([new Y.Map()]))).toBe('unknown-field');
    });
    it('removing the whole board takes its decisions with it', () => {
      expect(write(decided(), B, (d) => d.getMap('boards').delete('board_1'))).toBe('accepted');
    });
  });

  it('anyone names a board’s criteria; a criterion of the wrong shape, or scores out of 1-5, are refused', () => {
    const criteria = (d: Y.Doc) => boardOf(d).get('criteria') as Y.Array<unknown>;
    expect(write(seedRoom(), B, (d) => criteria(d).push([{ id: 'c1', name: 'Look' }]))).toBe('accepted');
    expect(write(seedRoom(), B, (d) => criteria(d).push([{ id: 'c1', name: 'x'.repeat(81) }]))).toBe(
      'invalid-value',
    );
    const scores = (d: Y.Doc) => boardOf(d).get('scores') as Y.Map<unknown>;
    expect(write(seedRoom(), B, (d) => scores(d).set(B, sheet(6)))).toBe('invalid-value');
    expect(write(seedRoom(), B, (d) => scores(d).set(B, sheet(0)))).toBe('invalid-value');
    expect(write(seedRoom(), B, (d) => scores(d).set(B, sheet(5)))).toBe('accepted');
  });

  it('making a board blind again removes everyone’s Reveal (anyone may remove Reveal entries)', () => {
    const room = seedRoom();
    expect(write(room, A, (d) => (boardOf(d).get('revealedBy') as Y.Map<number>).set(A, 1))).toBe('accepted');
    expect(write(room, B, (d) => (boardOf(d).get('revealedBy') as Y.Map<number>).delete(A))).toBe('accepted');
  });
});

describe('the schema', () => {
  it('a root the schema does not know is refused', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('mystery').set('x', 1))).toBe('unknown-field');
    expect(write(seedRoom(), A, (d) => d.getArray('tasks2').push([1]))).toBe('unknown-field');
  });

  it('a key the schema does not know inside a record is refused; a known one accepted', () => {
    expect(write(seedRoom(), A, (d) => boardOf(d).set('payload', 'x'))).toBe('unknown-field');
    expect(write(seedRoom(), A, (d) => boardOf(d).set('name', 'x'))).toBe('accepted');
  });

  it('a type where a value goes (and the reverse) is refused', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('tasks').set('t', new Y.Map()))).toBe('unknown-field');
    expect(write(seedRoom(), A, (d) => boardOf(d).set('rows', 'not a list'))).toBe('unknown-field');
    expect(write(seedRoom(), A, (d) => d.getMap('comments').set('c3', new Y.Array()))).toBe('unknown-field');
  });

  it('a value of the wrong shape is refused', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('members').set(A, { name: 5 }))).toBe('invalid-value');
    expect(write(seedRoom(), A, (d) => d.getMap('judgements').set(`${A}|t#0`, { rating: 99 }))).toBe(
      'invalid-value',
    );
  });

  it('formatting and embeds in a prompt are refused; characters accepted', () => {
    const prompt = (d: Y.Doc) =>
      (boardOf(d).get('rows') as Y.Array<Y.Map<unknown>>).get(0).get('prompt') as Y.Text;
    expect(write(seedRoom(), A, (d) => prompt(d).format(0, 3, { bold: true }))).toBe('unknown-field');
    expect(write(seedRoom(), A, (d) => prompt(d).insertEmbed(0, { image: 'x' }))).toBe('unknown-field');
    expect(write(seedRoom(), A, (d) => prompt(d).insert(3, 'fat '))).toBe('accepted');
  });

  it('a prompt past the text bound is refused', () => {
    const prompt = (d: Y.Doc) =>
      (boardOf(d).get('rows') as Y.Array<Y.Map<unknown>>).get(0).get('prompt') as Y.Text;
    expect(write(seedRoom(), A, (d) => prompt(d).insert(0, 'x'.repeat(10_000)))).toBe('invalid-value');
    expect(write(seedRoom(), A, (d) => prompt(d).insert(0, 'x'.repeat(9_000)))).toBe('accepted');
  });

  it('a list of more than 20 tags, or a tag past 40 characters, is refused; 20 of 40 accepted', () => {
    const set = (tags: string[]) => (d: Y.Doc) => d.getMap('tags').set(`${B}|task_a#0`, { tags, at: 9 });
    expect(write(seedRoom(), B, set(tagList(21)))).toBe('invalid-value');
    expect(write(seedRoom(), B, set(['x'.repeat(41)]))).toBe('invalid-value');
    expect(write(seedRoom(), B, set(['']))).toBe('invalid-value');
    expect(write(seedRoom(), B, set(tagList(20, 40)))).toBe('accepted');
  });

  it('a saved search whose name is empty or past 80 characters, or whose query is past 500, is refused', () => {
    const save = (more: object) => (d: Y.Doc) =>
      d.getMap('searches').set('search_b', { ...savedSearch(B), ...more });
    expect(write(seedRoom(), B, save({ name: 'x'.repeat(81) }))).toBe('invalid-value');
    expect(write(seedRoom(), B, save({ name: '' }))).toBe('invalid-value');
    expect(write(seedRoom(), B, save({ query: 'q'.repeat(501) }))).toBe('invalid-value');
    expect(write(seedRoom(), B, save({ name: 'x'.repeat(80), query: 'q'.repeat(500) }))).toBe('accepted');
    // Its author renames it past the bound: refused as well.
    expect(
      write(seedRoom(), A, (d) => d.getMap('searches').set('search_a', savedSearch(A, 'x'.repeat(81)))),
    ).toBe('invalid-value');
  });

  it('a value past the byte bound is refused', () => {
    const big = { taskId: 't', by: A, status: 'queued', createdAt: 1, blob: 'x'.repeat(200_000) };
    expect(write(seedRoom(), A, (d) => d.getMap('tasks').set('t', big))).toBe('invalid-value');
  });
});

/** A JSON array nested `depth` deep. */
function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** What a member's copy of the room sends when it writes the task `t` with an array nested `depth` deep. */
function deepUpdate(room: Y.Doc, depth: number): Uint8Array {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(room));
  return nestedTaskUpdate(copy, 't', A, depth);
}

describe('nesting', () => {
  for (const depth of [1_000, 3_000, 5_000, 10_000]) {
    it(`a value nested ${depth} deep is refused and the room still reads`, () => {
      const room = seedRoom();
      const before = Y.encodeStateAsUpdate(room);
      expect(refusedAs(reviewUpdate(room, deepUpdate(room, depth), A))).toBe('invalid-value');
      expect(Y.encodeStateAsUpdate(room)).toEqual(before);
      expect(() => room.getMap('tasks').toJSON()).not.toThrow();
    });
  }

  it('the hand-built update is a real one: at depth 3 it is accepted and reads back nested', () => {
    const room = seedRoom();
    const update = deepUpdate(room, 3);
    expect(refusedAs(reviewUpdate(room, update, A))).toBe('accepted');
    Y.applyUpdate(room, update);
    expect((room.getMap('tasks').get('t') as { deep: unknown }).deep).toEqual([[['x']]]);
  });

  it('a value nested just within the bound is accepted (the control)', () => {
    expect(
      write(seedRoom(), A, (d) =>
        d.getMap('tasks').set('t', { taskId: 't', by: A, status: 'queued', createdAt: 1, deep: nested(10) }),
      ),
    ).toBe('accepted');
  });
});

describe('meta', () => {
  it('a schema version beyond the server’s is refused', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('meta').set('schemaVersion', 999))).toBe('server-only');
  });

  it('taking the version back, or removing it, is refused', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('meta').set('schemaVersion', 0))).toBe('server-only');
    expect(write(seedRoom(), A, (d) => d.getMap('meta').delete('schemaVersion'))).toBe('server-only');
  });

  it('an older studio stamping the version the room already has is accepted', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('meta').set('schemaVersion', TEAM_DOC_VERSION))).toBe(
      'accepted',
    );
  });

  it('any other key of meta is refused', () => {
    expect(write(seedRoom(), A, (d) => d.getMap('meta').set('owner', A))).toBe('unknown-field');
  });
});

describe('dependencies', () => {
  it('an update that builds on one the server never got is refused (Yjs would keep it pending, unchecked)', () => {
    const room = seedRoom();
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(room));
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    doc.getMap('votes').set(`board_1|row_2|${A}`, vote(A, 'board_1', 'row_2'));
    doc.getMap('votes').set(`board_1|row_3|${A}`, vote(A, 'board_1', 'row_3'));
    expect(refusedAs(reviewUpdate(room, updates[1]!, A))).toBe('out-of-order');
    expect(refusedAs(reviewUpdate(room, updates[0]!, A))).toBe('accepted');
  });

  it('a deletion of what does not exist yet (another member’s next vote) is refused', () => {
    const room = seedRoom();
    const deleting = Uint8Array.from([0, 1, 0xb2, 0xf2, 0x19, 1, 0, 10]);
    expect(refusedAs(reviewUpdate(room, deleting, A))).toBe('out-of-order');
  });
});

describe('every member’s share', () => {
  it('counts the records a member owns, and a board by its creator, kept current as the room changes', () => {
    const room = seedRoom();
    const shares = new RoomShares(room);
    const before = shares.used(B);
    room.getMap('prompts').set('a dog', { text: 'a dog', by: B, sharedAt: 3 });
    expect(shares.used(B)).toBeGreaterThan(before);
    room.getMap('prompts').delete('a dog');
    expect(shares.used(B)).toBe(before);
    const alice = shares.used(A);
    (boardOf(room).get('cells') as Y.Map<unknown>).set('row_1|x', { note: 'y'.repeat(1000) });
    expect(shares.used(A)).toBeGreaterThan(alice + 1000);
    expect(memberShareBytes(32 * 1024 * 1024)).toBe(8 * 1024 * 1024);
  });
});

describe('fuzz: random updates never break a room or its readers', () => {
  const roots = [
    'tasks',
    'votes',
    'boards',
    'comments',
    'meta',
    'members',
    'prompts',
    'judgements',
    'tags',
    'searches',
    'nope',
  ];
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom('by', 'memberId', 'author', 'taskId', 'id', 'x'), tie('value'), {
        maxKeys: 4,
        noNullPrototype: true,
      }),
    ),
  })).value;
  const op = fc.record({
    writer: fc.constantFrom(A, B, 'key_ghost'),
    root: fc.constantFrom(...roots),
    key: fc.oneof(
      fc.constantFrom(A, B, 'c1', 'board_1', 'task_a', `board_1|row_1|${A}`),
      fc.string({ maxLength: 8 }),
    ),
    kind: fc.constantFrom('value', 'map', 'array', 'text', 'delete', 'nested'),
    value: json,
    depth: fc.integer({ min: 1, max: 40 }),
  });

  it('whatever is accepted leaves a room every reader can read, and refused updates change nothing', () => {
    let runs = 0;
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 8 }), (ops) => {
        runs++;
        const room = seedRoom();
        for (const o of ops) {
          const update = edit(room, (d) => {
            const map = d.getMap(o.root);
            if (o.kind === 'delete') map.delete(o.key);
            else if (o.kind === 'map') {
              const m = new Y.Map<unknown>();
              m.set('author', o.writer);
              m.set('x', o.value);
              map.set(o.key, m);
            } else if (o.kind === 'array') map.set(o.key, Y.Array.from([o.value as object]));
            else if (o.kind === 'text') map.set(o.key, new Y.Text('hi'));
            else if (o.kind === 'nested') map.set(o.key, { by: o.writer, deep: nested(o.depth) });
            else map.set(o.key, o.value);
          });
          const before = Y.encodeStateAsUpdate(room);
          const review = reviewUpdate(room, update, o.writer);
          if (!review.ok) {
            expect(Y.encodeStateAsUpdate(room)).toEqual(before);
            continue;
          }
          accepted++;
          Y.applyUpdate(room, update);
          // A fresh reader (a member's studio joining) loads and reads the whole room.
          const reader = new Y.Doc();
          Y.applyUpdate(reader, Y.encodeStateAsUpdate(room));
          for (const r of roots) expect(() => JSON.stringify(reader.getMap(r).toJSON())).not.toThrow();
        }
      }),
      { numRuns: 300, seed: Number(process.env.FUZZ_SEED ?? 20261128) },
    );
    console.log(`[authority fuzz] ${runs} runs, ${accepted} updates accepted`);
    expect(accepted).toBeGreaterThan(0);
  });
});
