import type { TeamStatus } from './team-connection';
import type { Member } from './team-members';

// Who is online, as far as this device can know: the members as the room's presence last showed them,
// corrected for a link that is down. Offline (or refused), who else is online is not known: the last
// presence heard may be stale (the browser said offline before the socket closed), so only this member
// counts as online.

/**
 * The members to show for the session's link (`undefined`: no session). Online, or with no link to judge
 * by, the list is returned as it is (the same array, so a view keyed on it does not re-render).
 */
export function membersAsKnown(
  members: readonly Member[],
  link: TeamStatus['link'] | undefined,
): readonly Member[] {
  if (link === 'online' || link === undefined) return members;
  return members.map((m) => (m.online && !m.you ? { ...m, online: false } : m));
}
