import { acceptedRecord } from '../../../contract/team-doc';
import type * as Y from 'yjs';
import { z } from 'zod/mini';
import { VoteSchema, voteId, type Candidate, type Vote } from './votes';
import { ROOTS, rootMap, type TeamContext } from '../team/team-doc';
import { Listeners } from '../../lib/store';

// Blind votes shared by a team (docs/team-space.md, `votes`): one member's vote
// on one row of a team board, a plain JSON value under `${boardId}|${rowId}|${memberId}` in the `votes`
// root. Only its member writes it (the key names them), so a vote needs no merge: the last write of that
// member wins. The key also makes "one vote per member per row" hold by construction; a value whose
// fields disagree with its key (a hostile client writing under another member's key) is not counted.

/** A vote as the team keeps it: the Vote without this device's connection, with its member. */
const TeamVoteSchema = z.extend(z.omit(VoteSchema, { connectionId: true }), {
  memberId: z.string().check(z.minLength(1)),
});
export type TeamVote = z.infer<typeof TeamVoteSchema>;

/** @internal */
export const teamVoteKey = (boardId: string, rowId: string, memberId: string): string =>
  `${boardId}|${rowId}|${memberId}`;

/**
 * The value under `key`, or null when it is not a vote (unparseable, or not the one its key names).
 * @internal
 */
export function readVote(key: string, raw: unknown): TeamVote | null {
  if (!acceptedRecord('votes', key, raw)) return null;
  const parsed = TeamVoteSchema.safeParse(raw);
  if (!parsed.success) return null;
  const v = parsed.data;
  if (key !== teamVoteKey(v.boardId, v.rowId, v.memberId) || v.id !== voteId(v.boardId, v.rowId)) return null;
  if (v.winner !== null && !v.candidates.some((c) => c.key === v.winner)) return null;
  return v;
}

/** As the Vote the leaderboard reads (its connection: the member's, for the record). */
const asVote = ({ memberId, ...v }: TeamVote): Vote => ({ ...v, connectionId: memberId });

export class TeamVotes {
  private readonly root: Y.Map<unknown>;
  private readonly listeners = new Listeners();
  private all: readonly TeamVote[] = [];
  private readonly ownByBoard = new Map<string, ReadonlyMap<string, Vote>>();
  private asVotes: { team: readonly Vote[]; mine: readonly Vote[] } | null = null;

  constructor(private readonly team: TeamContext) {
    this.root = rootMap<unknown>(team.doc, ROOTS.votes);
    this.rebuild();
    this.root.observe(this.onChange);
  }

  get memberId(): string {
    return this.team.memberId;
  }

  private readonly onChange = () => {
    this.rebuild();
    this.listeners.notify();
  };

  private rebuild(): void {
    this.all = [...this.root.entries()]
      .flatMap(([key, raw]) => {
        const vote = readVote(key, raw);
        return vote ? [vote] : [];
      })
      .sort((a, b) => a.at - b.at);
    this.ownByBoard.clear();
    this.asVotes = null;
  }

  readonly subscribe = this.listeners.subscribe;

  /** Every member's votes, oldest first (immutable; a new array after each change). */
  readonly snapshot = (): readonly TeamVote[] => this.all;

  /** This member's votes on one board, by row id, as the board's grid reads them (same map until a change). */
  readonly ownVotes = (boardId: string): ReadonlyMap<string, Vote> => {
    const cached = this.ownByBoard.get(boardId);
    if (cached) return cached;
    const map = new Map(
      this.all
        .filter((v) => v.boardId === boardId && v.memberId === this.team.memberId)
        .map((v) => [v.rowId, asVote(v)]),
    );
    this.ownByBoard.set(boardId, map);
    return map;
  };

  /**
   * Every member's votes (team) and this member's (mine) as the Leaderboard reads them (model/compare/
   * votes.ts), the same arrays until the votes change: a view gets them without importing this module.
   */
  readonly leaderboardVotes = (): { team: readonly Vote[]; mine: readonly Vote[] } => {
    if (!this.asVotes) {
      const team = this.all.map(asVote);
      this.asVotes = { team, mine: team.filter((v) => v.connectionId === this.team.memberId) };
    }
    return this.asVotes;
  };

  /** How many members voted on each row of a board (the count only: a blind vote's pick stays private). */
  votersByRow(boardId: string): ReadonlyMap<string, number> {
    const counts = new Map<string, number>();
    for (const v of this.all) if (v.boardId === boardId) counts.set(v.rowId, (counts.get(v.rowId) ?? 0) + 1);
    return counts;
  }

  /** This member's pick of a row (a candidate key) or a tie (null); replaces their earlier vote. */
  vote(input: {
    boardId: string;
    rowId: string;
    category: string;
    candidates: readonly Candidate[];
    winner: string | null;
  }): void {
    const memberId = this.team.memberId;
    const record: TeamVote = TeamVoteSchema.parse({
      id: voteId(input.boardId, input.rowId),
      boardId: input.boardId,
      rowId: input.rowId,
      category: input.category,
      candidates: input.candidates,
      winner: input.winner,
      at: this.team.now(),
      memberId,
    });
    this.team.transact(() => this.root.set(teamVoteKey(input.boardId, input.rowId, memberId), record));
  }

  /** Withdraws this member's vote on a row (never another member's: the key is always their own). */
  withdraw(boardId: string, rowId: string): void {
    const key = teamVoteKey(boardId, rowId, this.team.memberId);
    if (this.root.has(key)) this.team.transact(() => this.root.delete(key));
  }

  destroy(): void {
    this.root.unobserve(this.onChange);
    this.listeners.clear();
  }
}
