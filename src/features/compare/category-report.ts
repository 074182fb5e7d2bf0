import { listBoards, type Board } from '../../model/compare/boards';
import { scoresOfBoard, type ModelReportInput } from '../../model/compare/model-report';
import { listVotes, type Vote } from '../../model/compare/votes';
import type { HistoryEntry } from '../../model/history/history-types';
import type { CompareTeam } from './compare-team';

// What a report over every board of a category reads (product-notes "Deciding with evidence": one board,
// or every board of a category): in a team, the team's boards of the category and every member's votes;
// on this device, its boards and votes. A board still blind to this member is left out: its results are
// not theirs to see yet (and would unblind it).

/**
 * @internal
 * The boards of `category` this member may see the results of.
 */
export function visibleBoards(
  category: string,
  team: CompareTeam | null,
  deviceBoards: readonly Board[],
): Board[] {
  if (team)
    return team.boards
      .snapshot()
      .filter((r) => r.board.setup.category === category && !team.boards.blindForMe(r))
      .map((r) => r.board);
  return deviceBoards.filter((b) => b.setup.category === category && !b.blind);
}

/** The report's input over every board of `category` (votes of other boards are left out by the report). */
export async function categoryReportInput({
  category,
  team,
  teamVotes,
  connectionId,
  tasks,
}: {
  category: string;
  team: CompareTeam | null;
  /** Every member's votes in the team (null on this device). */
  teamVotes: readonly Vote[] | null;
  connectionId: string;
  tasks: readonly HistoryEntry[];
}): Promise<ModelReportInput> {
  const boards = visibleBoards(category, team, team ? [] : await listBoards(connectionId));
  const votes = teamVotes ?? (await listVotes(connectionId));
  return { boards, tasks, votes, scores: boards.flatMap(scoresOfBoard) };
}
