import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import {
  deleteVote,
  exportVotes,
  importVotes,
  leaderboard,
  leaderboardCsv,
  listVotes,
  saveVote,
  voteId,
  votedCategories,
  type Candidate,
  type Vote,
} from './votes';
import { reloadAtOnce } from '../../test/page-unload';

const A = 'conn-a';
const B = 'conn-b';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

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

let seq = 0;
const vote = (
  winner: Candidate | null,
  candidates = [lumen, aurora, pop],
  patch: Partial<Vote> = {},
): Vote => {
  seq++;
  return {
    connectionId: A,
    id: voteId('board', `row${seq}`),
    boardId: 'board',
    rowId: `row${seq}`,
    category: 'image/default',
    candidates,
    winner: winner?.key ?? null,
    at: seq,
    ...patch,
  };
};

describe('vote store', () => {
  it('a vote cast just before a reload counts after it (written at once)', async () => {
    const cast = vote(lumen);
    await db(); // the studio's database is open by the time anyone votes or edits
    // Not awaited: the vote shows at once, and the user reloads before the write has answered.
    const written = Promise.allSettled([saveVote(cast)]);
    await reloadAtOnce();
    await written;
    (await db()).close();
    resetDbForTests();
    expect((await listVotes(A)).map((v) => v.winner)).toEqual([lumen.key]);
  });

  it('keeps votes per connection, replaces a row vote, deletes one, survives a reopen', async () => {
    const first = vote(lumen);
    await saveVote(first);
    await saveVote(vote(aurora));
    await saveVote(vote(null, [lumen, pop], { connectionId: B }));
    await saveVote({ ...first, winner: pop.key, at: 100 });
    (await db()).close();
    resetDbForTests();
    const mine = await listVotes(A);
    expect(mine).toHaveLength(2);
    expect(mine.map((v) => v.winner)).toEqual([aurora.key, pop.key]);
    expect(await listVotes(B)).toHaveLength(1);
    await deleteVote(A, first.id);
    expect((await listVotes(A)).map((v) => v.winner)).toEqual([aurora.key]);
  });

  it('skips records that do not parse, or whose winner is not a candidate', async () => {
    await saveVote(vote(lumen));
    const database = await db();
    await database.put('votes', { connectionId: A, id: 'junk', candidates: 'no' });
    await database.put('votes', { ...vote(lumen), winner: 'someone-else@v1' });
    expect(await listVotes(A)).toHaveLength(1);
  });

  it('travels in an export without the connection, and imports into another', async () => {
    await saveVote(vote(lumen));
    await saveVote(vote(null));
    const items = await exportVotes(A);
    expect(JSON.stringify(items)).not.toContain(A);
    expect(await importVotes(B, [...items, null, { id: 'x' }])).toEqual({ added: 2, skipped: 2 });
    const theirs = await listVotes(B);
    expect(theirs.map((v) => v.connectionId)).toEqual([B, B]);
    expect(theirs.map((v) => v.winner)).toEqual([lumen.key, null]);
  });
});

describe('leaderboard', () => {
  it('counts a vote once whatever the board’s width: a tie among 8 pulls two models together less than a tie between them alone', () => {
    // Split into pairwise games, a tie among 8 was 28 draws (A with B, and each of them with 6 more)
    // and pulled A and B together harder than their own tie; as one choice among 8 it says less about
    // A against B than a tie between the two of them.
    const eight = ['Lumen', 'Aurora', 'Pop', 'Dusk', 'Ember', 'Fjord', 'Glow', 'Haze'].map(cand);
    const pair = [lumen, aurora];
    const base = [
      vote(lumen, pair),
      vote(lumen, pair),
      vote(lumen, pair),
      vote(aurora, pair),
      vote(null, eight),
    ];
    const gap = (votes: Vote[]) => {
      const rows = new Map(leaderboard(votes, 'image/default').map((r) => [r.key, r.rating]));
      return rows.get(lumen.key)! - rows.get(aurora.key)!;
    };
    const tieOfTwo = gap([...base, vote(null, pair)]);
    const tieOfEight = gap([...base, vote(null, eight)]);
    expect(gap(base)).toBeGreaterThan(tieOfTwo);
    expect(tieOfEight).toBeGreaterThan(tieOfTwo);
  });

  it('counts wins, losses, ties and the win rate, and ranks by rating', () => {
    const votes = [vote(lumen), vote(lumen), vote(aurora), vote(null), vote(lumen, [lumen, aurora])];
    const rows = leaderboard(votes, 'image/default');
    expect(rows.map((r) => r.name)).toEqual(['Lumen', 'Aurora', 'Pop']);
    const byName = new Map(rows.map((r) => [r.name, r]));
    expect(byName.get('Lumen')).toMatchObject({ wins: 3, losses: 1, ties: 1, votes: 5 });
    expect(byName.get('Lumen')!.winRate).toBeCloseTo(3.5 / 5);
    expect(byName.get('Aurora')).toMatchObject({ wins: 1, losses: 3, ties: 1, votes: 5 });
    expect(byName.get('Pop')).toMatchObject({ wins: 0, losses: 3, ties: 1, votes: 4 });
    for (const r of rows) expect(r.low).toBeLessThan(r.high);
  });

  it('keeps categories apart', () => {
    const votes = [vote(lumen), vote(pop, [pop, aurora], { category: 'video/text-ref' })];
    expect(votedCategories(votes)).toEqual(['image/default', 'video/text-ref']);
    expect(leaderboard(votes, 'video/text-ref').map((r) => r.name)).toEqual(['Pop', 'Aurora']);
    expect(leaderboard(votes, 'audio/music')).toEqual([]);
  });

  it('exports as CSV with a header, guarding names that look like formulas', () => {
    const evil = { ...cand('=cmd|x'), key: 'evil@v1' };
    const rows = leaderboard([vote(evil, [evil, lumen])], 'image/default');
    const csv = leaderboardCsv('image/default', rows);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'rank,category,model,version,wins,losses,ties,votes,win_rate,rating,ci95_low,ci95_high',
    );
    expect(lines[1]).toMatch(/^1,image\/default,'=cmd\|x,v1,1,0,0,1,1\.000,\d+,\d+,\d+$/);
    expect(lines).toHaveLength(3);
  });
});
