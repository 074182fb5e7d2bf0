import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { migrateTeamDoc, TEAM_DOC_ROOTS } from '../../../contract/team-doc';
import type { Board } from '../compare/boards';
import { TeamBoards, TEAM_CONNECTION } from '../compare/team-boards';
import { TeamComments } from './team-comments';
import { TeamJudgements } from './team-judgements';
import { TeamLibrary } from './team-library';
import { TeamMembers } from './team-members';
import { TeamSearches } from './team-searches';
import { TeamTags } from './team-tags';
import { TeamTasks } from './team-tasks';
import { TeamVotes } from '../compare/team-votes';
import { makeEntry } from '../../test/gallery-test-utils';
import { member } from '../../test/team-test-utils';
import { reviewUpdate } from '../../../server/team-space/authority';

// The referee never refuses an honest studio: two members' real stores (src/model/team/) do what the
// studio does, and every update either sends goes through reviewUpdate against the server's copy of the
// room before it is applied there and relayed to the other member, as the server does. A refusal here
// would drop a member's copy of the room in production (a refused change): it must never happen to a
// studio that follows the contract. The control at the end shows the relay does refuse a forgery.

type Space = ReturnType<typeof member>;

function refereedRoom({ migrated = false } = {}) {
  const server = new Y.Doc();
  if (migrated)
    migrateTeamDoc(server, undefined, undefined, 'migration', {
      array: () => new Y.Array(),
      map: () => new Y.Map(),
    });
  const refused: string[] = [];
  const spaces: Space[] = [];
  const relay = (from: Space) => (update: Uint8Array, origin: unknown) => {
    if (origin === 'remote') return;
    const review = reviewUpdate(server, update, from.memberId);
    if (!review.ok) {
      refused.push(`${from.memberId}: ${review.reason} (${review.detail})`);
      return;
    }
    Y.applyUpdate(server, update, 'remote');
    for (const to of spaces) if (to !== from) Y.applyUpdate(to.doc, update, 'remote');
  };
  const join = (memberId: string) => {
    const space = member(memberId);
    Y.applyUpdate(space.doc, Y.encodeStateAsUpdate(server), 'remote');
    space.doc.on('update', relay(space));
    spaces.push(space);
    return space;
  };
  return { server, refused, join };
}

const board = (id: string, more: Partial<Board> = {}): Board => ({
  id,
  connectionId: TEAM_CONNECTION,
  name: 'Lighthouses',
  createdAt: 1,
  updatedAt: 1,
  setup: {
    category: 'image/default',
    columns: [
      { modelId: 'lumen', versionId: 'v1' },
      { modelId: 'aurora', versionId: 'v2' },
    ],
    rows: [
      { id: 'r1', prompt: 'a lighthouse in fog' },
      { id: 'r2', prompt: 'a lighthouse at dawn' },
    ],
    shared: { ratio: '1:1' },
    perColumn: { 'lumen@v1': { steps: 20 } },
  },
  cells: {},
  favourites: {},
  notes: {},
  blind: true,
  decisions: [],
  criteria: [],
  scores: {},
  ...more,
});

const candidate = (modelId: string) => ({
  key: `${modelId}@v1`,
  modelId,
  versionId: 'v1',
  name: modelId,
  versionName: 'v1',
});

describe('the referee and the studio’s own stores', () => {
  it('everything two honest members do is accepted, and both see the same room as the server', () => {
    const { server, refused, join } = refereedRoom();
    const a = join('key-a');
    const b = join('key-b');

    // Names, tasks (shared, then finished), the library.
    new TeamMembers(a).setName('Ana');
    new TeamMembers(b).setName('Ben');
    const tasksA = new TeamTasks(a);
    tasksA.share([makeEntry('t1', { status: 'running' }), makeEntry('t2')]);
    tasksA.share([makeEntry('t1', { status: 'succeeded' })]);
    new TeamTasks(b).share([makeEntry('t9')]);
    const libraryA = new TeamLibrary(a);
    const libraryB = new TeamLibrary(b);
    libraryA.sharePrompt({ text: 'a red fox' });
    // The same text shared by the other member: theirs is left alone.
    libraryB.sharePrompt({ text: 'a red fox' });
    libraryB.sharePrompt({ text: 'a blue whale' });
    libraryA.unsharePrompt('a red fox');

    // Stars and ratings, votes, comments with replies, resolved and reopened by the other member.
    const judgementsA = new TeamJudgements(a);
    judgementsA.setMine([{ outputKey: 't1#0', starred: true, rating: 4 }]);
    judgementsA.setMine([{ outputKey: 't1#0', starred: false, rating: null }]);
    const votesA = new TeamVotes(a);
    const votesB = new TeamVotes(b);
    const vote = {
      boardId: 'b1',
      rowId: 'r1',
      category: 'image/default',
      candidates: [candidate('lumen'), candidate('aurora')],
    };
    votesA.vote({ ...vote, winner: 'lumen@v1' });
    votesB.vote({ ...vote, winner: 'aurora@v1' });
    votesA.withdraw('b1', 'r1');
    const commentsA = new TeamComments(a);
    const commentsB = new TeamComments(b);
    const first = commentsA.add({ kind: 'output', outputKey: 't1#0' }, 'nice fog @Ben', [
      { id: 'key-b', name: 'Ben' },
    ]);
    commentsB.reply(first, 'agreed');
    commentsB.resolve(first);
    commentsA.reopen(first);
    commentsA.delete(first); // with a reply: kept without its body
    const lone = commentsB.add({ kind: 'cell', boardId: 'b1', cellKey: 'r1|lumen@v1' }, 'try 30 steps');
    commentsB.delete(lone);

    // A board: made by one, edited by both, revealed by each, blind again, deleted and brought back.
    const boardsA = new TeamBoards(a);
    const boardsB = new TeamBoards(b);
    boardsA.save(board('b1'));
    boardsB.save({
      ...board('b1'),
      name: 'Lighthouses at night',
      setup: {
        ...board('b1').setup,
        rows: [...board('b1').setup.rows, { id: 'r3', prompt: 'a lighthouse in a storm' }],
      },
      notes: { 'r1|lumen@v1': 'too dark' },
      favourites: { r1: 'lumen@v1' },
    });
    boardsA.reveal('b1');
    boardsB.reveal('b1');
    boardsB.blind('b1');
    const undoDelete = boardsA.delete('b1');
    undoDelete();
    boardsB.save(board('b2', { blind: false }));

    expect(refused).toEqual([]);
    for (const root of Object.values(TEAM_DOC_ROOTS)) {
      expect(a.doc.getMap(root).toJSON(), root).toEqual(server.getMap(root).toJSON());
      expect(b.doc.getMap(root).toJSON(), root).toEqual(server.getMap(root).toJSON());
    }
    expect(Object.keys(server.getMap('boards').toJSON()).sort()).toEqual(['b1', 'b2']);
    // Ben's "a red fox" was Ana's record when he shared it (left alone), and Ana has since unshared it.
    expect(Object.keys(server.getMap('prompts').toJSON()).sort()).toEqual(['a blue whale']);
  });

  it('in a room of the current version, criteria, scores and decisions from two honest members are accepted', () => {
    const { server, refused, join } = refereedRoom({ migrated: true });
    const a = join('key-a');
    const b = join('key-b');
    const boardsA = new TeamBoards(a);
    const boardsB = new TeamBoards(b);
    const look = { id: 'c1', name: 'Look' };
    boardsA.save(board('b1', { criteria: [look] }));
    boardsB.save({ ...boardsB.get('b1')!.board, criteria: [look, { id: 'c2', name: 'Adherence' }] });
    boardsA.save({
      ...boardsA.get('b1')!.board,
      criteria: [
        { id: 'c1', name: 'Aesthetics' },
        { id: 'c2', name: 'Adherence' },
      ],
    });
    boardsA.score('b1', 'r1|lumen@v1', 'c1', 4);
    boardsB.score('b1', 'r1|lumen@v1', 'c1', 2);
    boardsB.score('b1', 'r1|aurora@v2', 'c2', 5);
    boardsB.score('b1', 'r1|lumen@v1', 'c1', null);
    boardsA.history('b1')!.undo();
    boardsA.reveal('b1');
    boardsA.decide('b1', { column: 'lumen@v1', reason: 'crisper' });
    boardsB.decide('b1', { column: 'aurora@v2', reason: 'warmer' });
    const undoDelete = boardsB.delete('b1');
    undoDelete();

    expect(refused).toEqual([]);
    for (const root of Object.values(TEAM_DOC_ROOTS)) {
      expect(a.doc.getMap(root).toJSON(), root).toEqual(server.getMap(root).toJSON());
      expect(b.doc.getMap(root).toJSON(), root).toEqual(server.getMap(root).toJSON());
    }
    const back = boardsA.get('b1')!.board;
    expect(back.criteria.map((c) => c.name)).toEqual(['Aesthetics', 'Adherence']);
    expect(back.scores).toEqual({
      'key-b': { cells: { 'r1|aurora@v2': { c2: 5 } }, at: expect.any(Number) },
    });
  });

  it('in a room of the current version, tags and saved searches from two honest members are accepted', () => {
    const { server, refused, join } = refereedRoom({ migrated: true });
    const a = join('key-a');
    const b = join('key-b');
    const tagsA = new TeamTags(a);
    const tagsB = new TeamTags(b);
    tagsA.setMine([{ outputKey: 't1#0', tags: ['cat', 'night'] }]);
    tagsB.setMine([{ outputKey: 't1#0', tags: ['blue', ...Array.from({ length: 30 }, (_, i) => `t${i}`)] }]);
    tagsA.setMine([{ outputKey: 't1#0', tags: [] }]);
    const searchesA = new TeamSearches(a);
    const searchesB = new TeamSearches(b);
    searchesA.setMine([{ id: 'sa', search: { name: 'Cats', query: 'cat', at: 1 } }]);
    searchesB.setMine([{ id: 'sb', search: { name: 'Dogs', query: 'dog', at: 2 } }]);
    // Bob's studio never touches Ana's search, whatever it is asked.
    searchesB.setMine([
      { id: 'sa', search: { name: 'Mine now', query: 'x', at: 3 } },
      { id: 'sa', search: null },
    ]);
    searchesA.setMine([{ id: 'sa', search: { name: 'Night cats', query: 'cat night', at: 4 } }]);
    searchesB.setMine([{ id: 'sb', search: null }]);

    expect(refused).toEqual([]);
    for (const root of [TEAM_DOC_ROOTS.tags, TEAM_DOC_ROOTS.searches]) {
      expect(a.doc.getMap(root).toJSON(), root).toEqual(server.getMap(root).toJSON());
      expect(b.doc.getMap(root).toJSON(), root).toEqual(server.getMap(root).toJSON());
    }
    expect(Object.keys(server.getMap('tags').toJSON())).toEqual(['key-b|t1#0']);
    expect(server.getMap('searches').toJSON()).toEqual({
      sa: { name: 'Night cats', query: 'cat night', by: 'key-a', at: 4 },
    });
  });

  it('the control: the same relay refuses a member who deletes another’s saved search', () => {
    const { refused, join } = refereedRoom({ migrated: true });
    const a = join('key-a');
    const b = join('key-b');
    new TeamSearches(a).setMine([{ id: 'sa', search: { name: 'Cats', query: 'cat', at: 1 } }]);
    b.doc.getMap('searches').delete('sa');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^key-b: not-yours/);
  });

  it('the control: the same relay refuses a member who writes another’s scores', () => {
    const { refused, join } = refereedRoom({ migrated: true });
    const a = join('key-a');
    const b = join('key-b');
    const boardsA = new TeamBoards(a);
    new TeamBoards(b);
    boardsA.save(board('b1', { criteria: [{ id: 'c1', name: 'Look' }] }));
    const scores = (b.doc.getMap('boards').get('b1') as Y.Map<unknown>).get('scores') as Y.Map<unknown>;
    scores.set('key-a', { cells: { 'r1|lumen@v1': { c1: 1 } }, at: 1 });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^key-b: not-yours/);
  });

  it('the control: the same relay refuses a member who writes another’s vote', () => {
    const { refused, join } = refereedRoom();
    const a = join('key-a');
    const b = join('key-b');
    new TeamVotes(a).vote({
      boardId: 'b1',
      rowId: 'r1',
      category: 'image/default',
      candidates: [candidate('lumen'), candidate('aurora')],
      winner: 'lumen@v1',
    });
    b.doc
      .getMap('votes')
      .set('b1|r1|key-a', { id: 'b1|r1', boardId: 'b1', rowId: 'r1', memberId: 'key-a', at: 1 });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^key-b: not-yours/);
  });
});
