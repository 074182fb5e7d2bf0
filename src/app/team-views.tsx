import { useCallback, useMemo, type ReactNode } from 'react';
import { CommentsRegion } from '../features/comments/comments-region';
import type { CompareTeam } from '../features/compare/compare-team';
import type { RenderCellExtras } from '../features/compare/cell-extras';
import type { HistoryStore } from '../model/history/history-store';
import { taskIdOfKey } from '../model/history/output-key';
import {
  ReviewDisclosure,
  reviewLines,
  type LocalReviewStore,
  type ReviewLine,
  type ReviewTeam,
} from '../components/history/review-control';
import type { Member } from '../model/team/team-members';
import type { TeamSession } from '../model/team/team-session';

// What the views take of an open team session (features never import each other, so the app hands each
// its part): Compare's boards and votes, a board cell's Review and comments region, the Viewer's comments,
// and which outputs are this member's (for new-comment notices). A cell's Review
// is there without the team space too (this member's own reviews).

export interface TeamViews {
  compare: CompareTeam | null;
  renderCellExtras: RenderCellExtras | undefined;
  renderOutputExtras: ((outputKey: string) => ReactNode) | undefined;
  /** Whether an output is this member's: made on this device, or on another of theirs. */
  isMine: (outputKey: string) => boolean;
  /** Everyone's reviews of outputs, with members' names (the Viewer's and the Gallery's Review). */
  reviewTeam: ReviewTeam | null;
  /** An output's reviews as words, this member's and the team's (the exported Model report's). */
  reviewLinesOf: ((outputKey: string) => ReviewLine[]) | null;
  /** A member's display name by id ('' for one not in the room). */
  memberName: (memberId: string) => string;
}

export function useTeamViews(
  session: TeamSession | null,
  members: readonly Member[],
  history: HistoryStore | null,
  /** This member's reviews on this device (the connection's ReviewStore). */
  reviews: LocalReviewStore | null = null,
): TeamViews {
  const nameOf = useCallback((id: string) => members.find((m) => m.id === id)?.name ?? '', [members]);
  const mentionable = useMemo(() => members.map((m) => ({ id: m.id, name: m.name })), [members]);
  const compare = useMemo<CompareTeam | null>(
    () =>
      session
        ? { boards: session.boards, votes: session.votes, memberId: session.memberId, memberName: nameOf }
        : null,
    [session, nameOf],
  );
  const comments = useCallback(
    (target: Parameters<typeof CommentsRegion>[0]['target']) =>
      session ? (
        <CommentsRegion
          comments={session.comments}
          target={target}
          memberId={session.memberId}
          memberName={nameOf}
          members={mentionable}
        />
      ) : null,
    [session, nameOf, mentionable],
  );
  const reviewTeam = useMemo<ReviewTeam | null>(
    () => (session ? { reviews: session.reviews, memberId: session.memberId, memberName: nameOf } : null),
    [session, nameOf],
  );
  const renderCellExtras = useMemo<RenderCellExtras | undefined>(
    () =>
      session || reviews
        ? (t) => (
            <>
              {reviews && t.outputKey && (
                <ReviewDisclosure
                  key={t.outputKey}
                  outputKey={t.outputKey}
                  reviews={reviews}
                  team={reviewTeam}
                />
              )}
              {comments({ kind: 'cell', boardId: t.boardId, cellKey: t.cellKey })}
            </>
          )
        : undefined,
    [session, reviews, reviewTeam, comments],
  );
  const renderOutputExtras = useMemo(
    () => (session ? (outputKey: string) => comments({ kind: 'output', outputKey }) : undefined),
    [session, comments],
  );
  const isMine = useCallback(
    (outputKey: string) => {
      const entry = history?.get(taskIdOfKey(outputKey));
      return entry !== undefined && !entry.by;
    },
    [history],
  );
  const reviewLinesOf = useMemo(
    () => (reviews ? (outputKey: string) => reviewLines(outputKey, reviews, reviewTeam) : null),
    [reviews, reviewTeam],
  );
  return {
    compare,
    renderCellExtras,
    renderOutputExtras,
    isMine,
    reviewTeam,
    reviewLinesOf,
    memberName: nameOf,
  };
}
