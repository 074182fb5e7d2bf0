import { useCallback, useEffect, useState } from 'react';
import { deleteVote, listVotes, saveVote, voteId, type Candidate, type Vote } from '../../model/boards/votes';

// The blind votes of one board, by row id, read from and written to the votes store (per key).

export function useBoardVotes(connectionId: string, boardId: string, category: string) {
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
