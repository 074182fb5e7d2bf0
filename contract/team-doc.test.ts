import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  acceptedRecord,
  migrateTeamDoc,
  outOfBounds,
  ownerOf,
  rootNode,
  schemaVersionOf,
  TEAM_DOC_BOARD_KEYS,
  TEAM_DOC_MIGRATIONS,
  TEAM_DOC_ROOTS,
  TEAM_DOC_VERSION,
  type Migration,
} from './team-doc';

// The contract's pure parts: the version and its migrations (run by the server as a room loads), who owns
// a record, and the bounds checked without recursion. The server's use of them is tested in
// server/team-space/authority.test.ts and hostile-members.test.ts.

const sync = (a: Y.Doc, b: Y.Doc) => {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
};

describe('the version and its migrations', () => {
  it('a document nobody stamped is version 0, and migrating stamps the current version once', () => {
    const doc = new Y.Doc();
    expect(schemaVersionOf(doc)).toBe(0);
    expect(migrateTeamDoc(doc)).toEqual({ kind: 'upgraded', from: 0, to: TEAM_DOC_VERSION });
    expect(schemaVersionOf(doc)).toBe(TEAM_DOC_VERSION);
    expect(migrateTeamDoc(doc)).toEqual({ kind: 'current', version: TEAM_DOC_VERSION });
  });

  it('version 2 -> 3 gives every board its list of decisions; a board with one keeps it, a value that is no board is left', () => {
    const doc = new Y.Doc();
    const kept = new Y.Array<unknown>();
    doc.transact(() => {
      doc.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', 2);
      const boards = doc.getMap<unknown>(TEAM_DOC_ROOTS.boards);
      boards.set('b1', new Y.Map());
      const b2 = new Y.Map<unknown>();
      boards.set('b2', b2);
      b2.set('decisions', kept);
      kept.push([{ column: 'm@v', reason: '', by: 'a', at: 1 }]);
      boards.set('junk', 'not a board');
    });
    const types = { array: () => new Y.Array(), map: () => new Y.Map() };
    expect(migrateTeamDoc(doc, undefined, undefined, 'migration', types)).toEqual({
      kind: 'upgraded',
      from: 2,
      to: TEAM_DOC_VERSION,
    });
    const boards = doc.getMap<Y.Map<unknown>>(TEAM_DOC_ROOTS.boards);
    expect(boards.get('b1')!.get('decisions')).toBeInstanceOf(Y.Array);
    expect(boards.get('b2')!.get('decisions')).toBe(kept);
    expect(kept.length).toBe(1);
    expect(doc.getMap(TEAM_DOC_ROOTS.boards).get('junk')).toBe('not a board');
  });

  it('version 3 -> 4 gives every board its criteria and a map of scores; what a board holds is kept', () => {
    const doc = new Y.Doc();
    const kept = new Y.Array<unknown>();
    doc.transact(() => {
      doc.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', 3);
      const boards = doc.getMap<unknown>(TEAM_DOC_ROOTS.boards);
      boards.set('b1', new Y.Map());
      const b2 = new Y.Map<unknown>();
      boards.set('b2', b2);
      b2.set('criteria', kept);
      kept.push([{ id: 'c1', name: 'Look' }]);
    });
    const types = { array: () => new Y.Array(), map: () => new Y.Map() };
    expect(migrateTeamDoc(doc, undefined, undefined, 'migration', types)).toEqual({
      kind: 'upgraded',
      from: 3,
      to: TEAM_DOC_VERSION,
    });
    const boards = doc.getMap<Y.Map<unknown>>(TEAM_DOC_ROOTS.boards);
    expect(boards.get('b1')!.get('criteria')).toBeInstanceOf(Y.Array);
    expect(boards.get('b1')!.get('scores')).toBeInstanceOf(Y.Map);
    expect(boards.get('b2')!.get('criteria')).toBe(kept);
    expect(kept.toJSON()).toEqual([{ id: 'c1', name: 'Look' }]);
    expect(boards.get('b2')!.get('scores')).toBeInstanceOf(Y.Map);
  });

  it("a review is its member's (the key names them) and of the three states", () => {
    const review = { state: 'approved', note: '', at: 1 };
    expect(ownerOf('reviews', 'm1|t1#0', () => undefined)).toBe('m1');
    expect(acceptedRecord('reviews', 'm1|t1#0', review)).toBe(true);
    expect(acceptedRecord('reviews', 'm1|t1#0', { ...review, state: 'maybe' })).toBe(false);
    expect(acceptedRecord('reviews', 'no-bar', review)).toBe(false);
  });

  it('version 4 -> 5 stamps the version and leaves every record as it was (tags and searches are new roots)', () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      doc.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', 4);
      doc.getMap(TEAM_DOC_ROOTS.reviews).set('m1|t1#0', { state: 'approved', note: '', at: 1 });
      doc.getMap(TEAM_DOC_ROOTS.boards).set('b1', new Y.Map());
    });
    const before = {
      reviews: doc.getMap(TEAM_DOC_ROOTS.reviews).toJSON(),
      boards: doc.getMap(TEAM_DOC_ROOTS.boards).toJSON(),
    };
    expect(migrateTeamDoc(doc)).toEqual({ kind: 'upgraded', from: 4, to: 5 });
    expect(schemaVersionOf(doc)).toBe(5);
    expect(doc.getMap(TEAM_DOC_ROOTS.reviews).toJSON()).toEqual(before.reviews);
    expect(doc.getMap(TEAM_DOC_ROOTS.boards).toJSON()).toEqual(before.boards);
    expect(doc.getMap(TEAM_DOC_ROOTS.tags).size).toBe(0);
    expect(doc.getMap(TEAM_DOC_ROOTS.searches).size).toBe(0);
  });

  it("a list of tags is its member's (the key names them), within the bounds of count and length", () => {
    const list = { tags: ['portrait', 'client-a'], at: 1 };
    expect(ownerOf('tags', 'm1|t1#0', () => undefined)).toBe('m1');
    expect(acceptedRecord('tags', 'm1|t1#0', list)).toBe(true);
    expect(
      acceptedRecord('tags', 'm1|t1#0', { ...list, tags: Array.from({ length: 20 }, (_, i) => `t${i}`) }),
    ).toBe(true);
    expect(
      acceptedRecord('tags', 'm1|t1#0', { ...list, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
    ).toBe(false);
    expect(acceptedRecord('tags', 'm1|t1#0', { ...list, tags: ['x'.repeat(41)] })).toBe(false);
    expect(acceptedRecord('tags', 'm1|t1#0', { ...list, tags: [''] })).toBe(false);
    expect(acceptedRecord('tags', 'no-bar', list)).toBe(false);
  });

  it('a saved search is its author’s (`by`), its name 1-80 characters and its query at most 500', () => {
    const search = { name: 'Cats at night', query: 'cat night', by: 'm1', at: 1 };
    expect(ownerOf('searches', 's1', (f) => (search as Record<string, unknown>)[f])).toBe('m1');
    expect(acceptedRecord('searches', 's1', search)).toBe(true);
    expect(acceptedRecord('searches', 's1', { ...search, name: 'x'.repeat(80) })).toBe(true);
    expect(acceptedRecord('searches', 's1', { ...search, name: 'x'.repeat(81) })).toBe(false);
    expect(acceptedRecord('searches', 's1', { ...search, name: '' })).toBe(false);
    expect(acceptedRecord('searches', 's1', { ...search, query: 'q'.repeat(501) })).toBe(false);
    expect(acceptedRecord('searches', 's1', { name: 'n', query: '', at: 1 })).toBe(false);
    expect(acceptedRecord('searches', 'x'.repeat(201), search)).toBe(false);
  });

  it('an old document is upgraded step by step, its data moved, never dropped', () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      doc.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', TEAM_DOC_VERSION);
      doc.getMap('legacyTasks').set('t1', { taskId: 't1' });
    });
    const steps: Migration[] = [
      ...TEAM_DOC_MIGRATIONS,
      {
        from: TEAM_DOC_VERSION,
        describe: 'legacyTasks -> tasks',
        run: (d) => {
          const legacy = d.getMap('legacyTasks');
          for (const id of [...legacy.keys()]) {
            d.getMap(TEAM_DOC_ROOTS.tasks).set(id, legacy.get(id));
            legacy.delete(id);
          }
        },
      },
    ];
    const next = TEAM_DOC_VERSION + 1;
    expect(migrateTeamDoc(doc, steps, next)).toEqual({ kind: 'upgraded', from: TEAM_DOC_VERSION, to: next });
    expect(doc.getMap(TEAM_DOC_ROOTS.tasks).get('t1')).toEqual({ taskId: 't1' });
    expect(schemaVersionOf(doc)).toBe(next);
  });

  it('two nodes running the same migration before they sync end with one copy of the data', () => {
    const step: Migration = {
      from: TEAM_DOC_VERSION,
      describe: 'copy a setting',
      run: (d) => d.getMap('meta').set('copied', true),
    };
    const a = new Y.Doc();
    a.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', TEAM_DOC_VERSION);
    const b = new Y.Doc();
    sync(a, b);
    migrateTeamDoc(a, [...TEAM_DOC_MIGRATIONS, step], TEAM_DOC_VERSION + 1);
    migrateTeamDoc(b, [...TEAM_DOC_MIGRATIONS, step], TEAM_DOC_VERSION + 1);
    sync(a, b);
    expect(schemaVersionOf(a)).toBe(TEAM_DOC_VERSION + 1);
    expect(a.getMap('meta').get('copied')).toBe(true);
    expect(b.getMap('meta').toJSON()).toEqual(a.getMap('meta').toJSON());
  });

  it('a document of a newer version is left as it is', () => {
    const doc = new Y.Doc();
    doc.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', TEAM_DOC_VERSION + 1);
    expect(migrateTeamDoc(doc)).toEqual({ kind: 'newer', version: TEAM_DOC_VERSION + 1 });
    expect(schemaVersionOf(doc)).toBe(TEAM_DOC_VERSION + 1);
  });

  it('a missing step is an error, not a silent skip', () => {
    expect(() => migrateTeamDoc(new Y.Doc(), [], 1)).toThrow(/No migration from team-space schema version 0/);
  });
});

describe('who owns a record', () => {
  const fields = (v: Record<string, unknown>) => (name: string) => v[name];

  it('a vote is its member’s only when its key and its value name the same member', () => {
    const vote = { boardId: 'b', rowId: 'r', memberId: 'm1' };
    expect(ownerOf('votes', 'b|r|m1', fields(vote))).toBe('m1');
    expect(ownerOf('votes', 'b|r|m2', fields(vote))).toBeNull();
  });

  it('a task, a preset and a comment are owned only under their own id', () => {
    expect(ownerOf('tasks', 't1', fields({ taskId: 't1', by: 'm1' }))).toBe('m1');
    expect(ownerOf('tasks', 't2', fields({ taskId: 't1', by: 'm1' }))).toBeNull();
    expect(ownerOf('presets', 'p1', fields({ id: 'p1', by: 'm1' }))).toBe('m1');
    expect(ownerOf('comments', 'c1', fields({ id: 'c1', author: 'm1' }))).toBe('m1');
  });

  it('judgements by their key’s prefix, members by their key, boards are shared, meta the server’s', () => {
    expect(ownerOf('judgements', 'm1|t1#0', fields({}))).toBe('m1');
    expect(ownerOf('members', 'm1', fields({ name: 'x' }))).toBe('m1');
    expect(ownerOf('boards', 'b1', fields({}))).toBe('shared');
    expect(ownerOf('meta', 'schemaVersion', fields({}))).toBe('server');
  });
});

describe('bounds, without recursion', () => {
  it('a value nested 100,000 deep is told apart without exhausting the stack', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(outOfBounds(v)).toBe('depth');
  });

  it('too many bytes, or something that is not JSON, is told; a plain record passes', () => {
    expect(outOfBounds({ a: 'x'.repeat(200_000) })).toBe('bytes');
    expect(outOfBounds({ a: Number.NaN })).toBe('kind');
    expect(outOfBounds({ a: new Uint8Array(2) })).toBe('kind');
    expect(outOfBounds({ taskId: 't', by: 'm', outputs: [{ url: 'https://x' }] })).toBeNull();
  });
});

describe('reading a record as the contract allows it', () => {
  it('takes a record of its root’s shape whose key agrees with its owner', () => {
    expect(acceptedRecord('tasks', 't1', { taskId: 't1', by: 'm1', status: 'queued', createdAt: 1 })).toBe(
      true,
    );
    expect(acceptedRecord('comments', 'c1', { id: 'c1', author: 'm1', body: 'hi', resolution: null })).toBe(
      true,
    );
  });

  it('leaves out a record under another key, with an unknown field of a map record, out of bounds or of the wrong shape', () => {
    expect(acceptedRecord('tasks', 't2', { taskId: 't1', by: 'm1', status: 'queued', createdAt: 1 })).toBe(
      false,
    );
    expect(acceptedRecord('comments', 'c1', { id: 'c1', author: 'm1', script: '<b>' })).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(acceptedRecord('judgements', 'm1|t#0', { starred: true, deep })).toBe(false);
    expect(acceptedRecord('members', 'm1', { name: 7, joinedAt: 1 })).toBe(false);
    expect(acceptedRecord('meta', 'owner', 'm1')).toBe(false);
  });
});

describe('a board’s keys', () => {
  it('are exactly the fields the server takes in a board: each listed key passes, any other is refused', () => {
    const boards = rootNode('boards');
    const board = boards.kind === 'map' ? boards.entry('b1') : undefined;
    expect(board?.kind).toBe('map');
    if (board?.kind !== 'map') return;
    for (const key of TEAM_DOC_BOARD_KEYS) expect(board.entry(key), key).toBeDefined();
    for (const key of ['colour', 'connectionId', 'toString', '__proto__'])
      expect(board.entry(key), key).toBeUndefined();
    expect(acceptedRecord('boards', 'b1', { id: 'b1', name: 'Lighthouses', blind: false })).toBe(true);
    expect(acceptedRecord('boards', 'b1', { id: 'b1', colour: 'red' })).toBe(false);
  });
});
