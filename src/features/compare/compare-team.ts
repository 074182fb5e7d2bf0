import type { TeamBoards } from '../../model/compare/team-boards';
import type { TeamVotes } from '../../model/compare/team-votes';

// The team's stores come in as props and are imported as types only: the team space's code (and Yjs) loads
// on demand, never with the compare view.

/** What the compare view needs of the team space (made by the app from the member's TeamSpace). */
export interface CompareTeam {
  boards: TeamBoards;
  votes: TeamVotes;
  /** This member's id (the key's id from GET /me). */
  memberId: string;
  /** A member's display name as the team knows it ('' when unknown): untrusted text. */
  memberName: (id: string) => string;
}
