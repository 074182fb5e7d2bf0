import * as Y from 'yjs';
import { afterEach, describe, expect, it } from 'vitest';
import { leaderboard, type Candidate } from './votes';
import { ROOTS } from '../team/team-doc';
import { TeamSpace } from '../team/team-space';
import { TeamVotes, readVote, teamVoteKey } from './team-votes';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const cand = (name: string): Candidate => ({
  key: `${name.toLowerCase()}@v1`,
  modelId: name.toLowerCase(),
  versionId: 'v1',
  name,
  versionName: 'v1',
});
const lumen = cand('Lumen');
const aurora = cand('Aurora');
const pop = cand('Pop');
const CATEGORY = 'image/default';

const made: { team: TeamSpace; votes: TeamVotes }[] = [];
afterEach(() => {
  made.splice(0).forEach(({ team, votes }) => {
    votes.destroy();
    team.destroy();
  });
});

function member(id: string) {
  let clock = T0;
  const team = new TeamSpace(new Y.Doc(), id, () => ++clock);
  const m = { team, votes: new TeamVotes(team) };
  made.push(m);
  return m;
}

function syncAll(docs: readonly Y.Doc[]): void {
  for (const a of docs)
    for (const b of docs) if (a !== b) Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
}

const pick = (
  boardId: string,
  rowId: string,
  winner: Candidate | null,
  candidates = [lumen, aurora, pop],
) => ({
  boardId,
  rowId,
  category: CATEGORY,
  candidates,
  winner: winner?.key ?? null,
});

describe('team votes', () => {
  it('writes a vote under the member’s own key and reads it back', () => {
    const a = member('member-a');
    a.votes.vote(pick('board-1', 'r1', lumen));
    const raw = a.team.doc.getMap(ROOTS.votes).get(teamVoteKey('board-1', 'r1', 'member-a'));
    expect(raw).toMatchObject({ id: 'board-1|r1', memberId: 'member-a', winner: 'lumen@v1', at: T0 + 1 });
    expect(raw).not.toHaveProperty('connectionId');
    expect(a.votes.snapshot()).toHaveLength(1);
    const own = a.votes.ownVotes('board-1');
    expect(own.get('r1')?.winner).toBe('lumen@v1');
    expect(a.votes.ownVotes('board-1')).toBe(own);
  });

  it('one vote per member per row: voting again replaces it, withdraw removes only one’s own', () => {
    const a = member('member-a');
    const b = member('member-b');
    a.votes.vote(pick('board-1', 'r1', lumen));
    b.votes.vote(pick('board-1', 'r1', aurora));
    syncAll([a.team.doc, b.team.doc]);
    a.votes.vote(pick('board-1', 'r1', pop));
    syncAll([a.team.doc, b.team.doc]);
    expect(b.votes.snapshot().map((v) => [v.memberId, v.winner])).toEqual([
      ['member-b', 'aurora@v1'],
      ['member-a', 'pop@v1'],
    ]);
    expect(b.votes.votersByRow('board-1').get('r1')).toBe(2);

    b.votes.withdraw('board-1', 'r1');
    syncAll([a.team.doc, b.team.doc]);
    expect(a.votes.snapshot().map((v) => v.memberId)).toEqual(['member-a']);
    expect(a.votes.ownVotes('board-1').size).toBe(1);
    expect(b.votes.ownVotes('board-1').size).toBe(0);
  });

  it('counts every member’s votes once per member per row in the team leaderboard; Mine only one’s own', () => {
    const a = member('member-a');
    const b = member('member-b');
    const c = member('member-c');
    a.votes.vote(pick('board-1', 'r1', lumen));
    a.votes.vote(pick('board-1', 'r1', lumen)); // again: still one vote
    a.votes.vote(pick('board-1', 'r2', aurora));
    b.votes.vote(pick('board-1', 'r1', lumen));
    c.votes.vote(pick('board-1', 'r1', null));
    syncAll([a.team.doc, b.team.doc, c.team.doc]);

    for (const m of [a, b, c]) {
      const team = leaderboard(m.votes.leaderboardVotes().team, CATEGORY);
      const row = (key: string) => team.find((r) => r.key === key)!;
      expect(row('lumen@v1')).toMatchObject({ wins: 2, losses: 1, ties: 1, votes: 4 });
      expect(row('aurora@v1')).toMatchObject({ wins: 1, losses: 2, ties: 1, votes: 4 });
      expect(row('pop@v1')).toMatchObject({ wins: 0, losses: 3, ties: 1, votes: 4 });
      expect(team[0]!.key).toBe('lumen@v1');
    }
    const mine = leaderboard(a.votes.leaderboardVotes().mine, CATEGORY);
    expect(mine.find((r) => r.key === 'lumen@v1')).toMatchObject({ wins: 1, losses: 1, ties: 0, votes: 2 });
    expect(leaderboard(c.votes.leaderboardVotes().mine, CATEGORY).map((r) => r.ties)).toEqual([1, 1, 1]);
  });

  it('does not count values that are not the vote their key names', () => {
    const a = member('member-a');
    const root = a.team.doc.getMap<unknown>(ROOTS.votes);
    const good = {
      id: 'board-1|r1',
      boardId: 'board-1',
      rowId: 'r1',
      category: CATEGORY,
      candidates: [lumen, aurora],
      winner: 'lumen@v1',
      at: T0,
      memberId: 'member-b',
    };
    a.team.doc.transact(() => {
      root.set(teamVoteKey('board-1', 'r1', 'member-b'), good);
      // Under another member's key: a second vote of member-b on the same row.
      root.set(teamVoteKey('board-1', 'r1', 'member-c'), good);
      root.set(teamVoteKey('board-1', 'r2', 'member-b'), {
        ...good,
        rowId: 'r2',
        id: 'board-1|r2',
        winner: 'nobody',
      });
      root.set(teamVoteKey('board-1', 'r3', 'member-b'), {
        ...good,
        rowId: 'r3',
        id: 'board-1|r3',
        candidates: [lumen],
      });
      root.set('garbage', '<script>');
      // A vote past the contract's bounds (an extra field nested 40 deep), which the server would refuse:
      // the studio's own schema would keep it (it drops unknown fields), the contract's reading leaves it out.
      let deep: unknown = 'x';
      for (let i = 0; i < 40; i++) deep = [deep];
      root.set(teamVoteKey('board-1', 'r4', 'member-b'), { ...good, rowId: 'r4', id: 'board-1|r4', deep });
    });
    expect(a.votes.snapshot()).toEqual([good]);
    expect(readVote('x', good)).toBeNull();
  });
});
