import { useMemo, useSyncExternalStore } from 'react';
import type { TeamStatus } from '../model/team/team-connection';
import type { Member } from '../model/team/team-members';
import { membersAsKnown } from '../model/team/team-presence';
import type { TeamSession } from '../model/team/team-session';
import type { ShareState } from '../model/team/team-share';
import { NO_SUBSCRIBE } from '../lib/use-optional-store';

const NO_MEMBERS: readonly Member[] = [];

/** The session's connection status, members and this member's share, for the status line and "Members". */
export function useTeamPresence(session: TeamSession | null): {
  status: TeamStatus | null;
  members: readonly Member[];
  share: ShareState | null;
} {
  const share = useSyncExternalStore(
    session?.share.subscribe ?? NO_SUBSCRIBE,
    () => session?.share.snapshot() ?? null,
  );
  const status = useSyncExternalStore(
    session?.connection.subscribe ?? NO_SUBSCRIBE,
    () => session?.connection.snapshot() ?? null,
  );
  const members = useSyncExternalStore(session?.members.subscribe ?? NO_SUBSCRIBE, () =>
    session ? session.members.snapshot() : NO_MEMBERS,
  );
  const link = status?.link;
  const shown = useMemo(() => membersAsKnown(members, link), [link, members]);
  return { status, members: shown, share };
}
