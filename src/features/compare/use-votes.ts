import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import {
  deleteVote,
  listVotes,
  saveVote,
  voteId,
  type Candidate,
  type Vote,
} from '../../model/compare/votes';
import type { CompareTeam } from './compare-team';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// The blind votes of one board, by row id: on this device, read from and written to the votes store (per
// key); on a team board, this member's votes in the team's shared document, which also feed the team's
// Leaderboard.

const NO_VOTES: ReadonlyMap<string, Vote> = new Map();

function useDeviceVotes(connectionId: string, boardId: string, category: string) {
  const [votes, setVotes] = useState<ReadonlyMap<string, Vote>>(new Map());
  useEffect(() => {
    let live = true;
    void listVotes(connectionId).then(
      (all) => live && setVotes(new Map(all.filter((v) => v.boardId === boardId).map((v) => [v.rowId, v]))),
    );
    return () => {
      live = false;
    };
  }, [connectionId, boardId]);

  /** Picks the best of a row (a candidate key), or a tie (null); the same pick again withdraws the vote. */
  const vote = useCallback(
    async (rowId: string, candidates: Candidate[], winner: string | null) => {
      const id = voteId(boardId, rowId);
      const current = votes.get(rowId);
      const next = new Map(votes);
      if (current && current.winner === winner) {
        next.delete(rowId);
        setVotes(next);
        await deleteVote(connectionId, id);
        return;
      }
      const record: Vote = { connectionId, id, boardId, rowId, category, candidates, winner, at: Date.now() };
      next.set(rowId, record);
      setVotes(next);
      await saveVote(record);
    },
    [votes, connectionId, boardId, category],
  );

  return { votes, vote };
}

export function useBoardVotes(
  connectionId: string,
  boardId: string,
  category: string,
  /** The team when the board is a team board. */
  team: CompareTeam | null,
) {
  const device = useDeviceVotes(connectionId, boardId, category);
  const teamVotes = useSyncExternalStore(team?.votes.subscribe ?? NO_SUBSCRIBE, () =>
    team ? team.votes.ownVotes(boardId) : NO_VOTES,
  );
  const votes = team ? teamVotes : device.votes;
  /** Picks the best of a row (a candidate key), or a tie (null); the same pick again withdraws the vote. */
  const vote = (rowId: string, candidates: Candidate[], winner: string | null) => {
    if (!team) return void device.vote(rowId, candidates, winner);
    // The same pick again withdraws the vote, as on a board of this device.
    if (teamVotes.get(rowId)?.winner === winner) team.votes.withdraw(boardId, rowId);
    else team.votes.vote({ boardId, rowId, category, candidates, winner });
  };
  /** The team's votes for its Leaderboard (every member's, and this member's); null on this device. */
  const leaderboardVotes = useSyncExternalStore(team?.votes.subscribe ?? NO_SUBSCRIBE, () =>
    team ? team.votes.leaderboardVotes() : null,
  );
  return { votes, vote, leaderboardVotes };
}
