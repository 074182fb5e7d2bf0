import * as Y from 'yjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Board } from '../../model/compare/boards';
import { TeamBoards } from '../../model/compare/team-boards';
import { TeamSpace } from '../../model/team/team-space';
import { TeamVotes } from '../../model/compare/team-votes';
import { visibleBoards } from './category-report';

// Which boards a category report covers: the category's, less those still blind to this member.

const board = (id: string, more: Partial<Board> = {}): Board => ({
  id,
  connectionId: 'c',
  name: id,
  createdAt: 1,
  updatedAt: 1,
  setup: {
    category: 'image/default',
    columns: [],
    rows: [{ id: 'r1', prompt: '' }],
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
  ...more,
});
const video = (b: Board): Board => ({ ...b, setup: { ...b.setup, category: 'video/default' } });

const spaces: TeamSpace[] = [];
afterEach(() => spaces.splice(0).forEach((s) => s.destroy()));

describe('visibleBoards', () => {
  it('on this device: the category’s boards, not a blind one, not another category’s', () => {
    const boards = [board('a'), board('b', { blind: true }), video(board('c'))];
    expect(visibleBoards('image/default', null, boards).map((b) => b.id)).toEqual(['a']);
  });

  it('in a team: a blind board only once this member revealed it', () => {
    const space = new TeamSpace(new Y.Doc(), 'member-a', () => 1);
    spaces.push(space);
    const boards = new TeamBoards(space);
    boards.save(board('open'));
    boards.save(board('blind', { blind: true }));
    boards.save(board('revealed', { blind: true }));
    boards.reveal('revealed');
    boards.save(video(board('other')));
    const team = { boards, votes: new TeamVotes(space), memberId: 'member-a', memberName: () => '' };
    expect(
      visibleBoards('image/default', team, [])
        .map((b) => b.id)
        .sort(),
    ).toEqual(['open', 'revealed']);
  });
});
