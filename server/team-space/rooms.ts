import type { Me } from '../../contract/me';
import { memberIdOf, teamRoomOf } from '../../contract/team-room';

// Which room a key's GET /me admits it to (docs/team-space.md "Who gets in"). The rule itself is in
// contract/team-room.ts, so the studio computes the same name; here is what the server does with it.

export interface Admission {
  /** The key's id from /me: how the team sees this member. */
  memberId: string;
  /** The one document this key may open. */
  room: string;
  /** The team, for a team key. */
  teamId?: string;
}

export function admissionOf(me: Me): Admission {
  return {
    memberId: memberIdOf(me),
    room: teamRoomOf(me),
    ...(me.team ? { teamId: me.team.id } : {}),
  };
}

/**
 * A client never chooses its room: Hocuspocus keys a document by the name the client sends, so the
 * server accepts exactly the name it derived from /me and nothing else (no prefix match, no case folding).
 */
export const mayOpen = (admission: Admission, documentName: string): boolean =>
  documentName === admission.room;
