import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useSyncExternalStore } from 'react';
import { Users } from 'lucide-react';
import { formatList } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import type { CompareTeam } from './compare-team';

// Under a team board's toolbar: who else has it open (the team space's awareness), and this member's own
// presence on it, told to the others while it is open.

export function BoardViewers({
  team,
  inTeam,
  boardId,
}: {
  team: CompareTeam;
  /** The board is in the team's document (a new one is once it holds something). */
  inTeam: boolean;
  boardId: string;
}) {
  const { t } = useLingui();
  // Keyed on the boards store, not on `team`: the app makes a new `team` whenever the members list changes,
  // and a presence said again on each would be a presence change, which changes that list again.
  const boards = team.boards;
  useEffect(() => {
    if (!inTeam) return;
    boards.setOpen(boardId);
    return () => boards.setOpen(null);
  }, [boards, inTeam, boardId]);
  const viewers = useSyncExternalStore(team.boards.subscribePresence, () => team.boards.viewers(boardId));
  const viewerNames = formatList(
    viewers.map((v) => displayText(team.memberName(v.memberId) || v.name || t`a member`)),
  );
  return (
    <p
      className="-mt-3 flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400"
      data-testid="board-viewers"
    >
      <Users className="size-3.5 shrink-0" aria-hidden="true" />
      {viewers.length === 0 ? (
        inTeam ? (
          t`Shared with your team. No one else has it open.`
        ) : (
          t`This board is shared with your team once it holds something.`
        )
      ) : (
        <span dir="auto" translate="no">
          <Trans>Also open by {viewerNames}</Trans>
        </span>
      )}
    </p>
  );
}
