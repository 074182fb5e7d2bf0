import type { HistoryStore } from '../model/history/history-store';
import { promptOf } from '../model/history/download-name';
import { TeamCommentNotices } from '../features/comments/new-comment-notices';
import { FreeSpaceDialog } from '../features/team/free-space-dialog';
import { TeamStatusLine } from '../features/team/team-status-line';
import type { StudioTeam } from './use-studio-team';

// Under the header while a team space is on: its status line, the dialog that frees this member's space
// in it, and the notices of new comments (each opens its output in the gallery).

export function TeamBar({
  team: { space, presence, views },
  history,
  onOpenOutput,
}: {
  team: StudioTeam;
  history: HistoryStore | null;
  onOpenOutput: (outputKey: string) => void;
}) {
  const session = space.session;
  if (!session) return null;
  return (
    <>
      {presence.status && (
        <TeamStatusLine
          status={presence.status}
          members={presence.members}
          share={presence.share}
          stopped={space.stopped}
          onFreeSpace={() => space.setFreeSpaceOpen(true)}
        />
      )}
      {presence.share && (
        <FreeSpaceDialog
          open={space.freeSpaceOpen}
          onOpenChange={space.setFreeSpaceOpen}
          share={presence.share}
          items={session.share.ownItems.bind(session.share)}
          onDelete={session.freeSpace.bind(session)}
          detailOf={(item) => {
            const entry = item.root === 'tasks' ? history?.get(item.key) : undefined;
            return entry && (promptOf(entry) || undefined);
          }}
        />
      )}
      <div className="px-4 pt-2 empty:hidden">
        <TeamCommentNotices
          comments={session.comments}
          memberId={session.memberId}
          isMine={views.isMine}
          memberName={(id) => presence.members.find((m) => m.id === id)?.name ?? ''}
          onOpen={onOpenOutput}
        />
      </div>
    </>
  );
}
