import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { isTeamSpaceReason, type TeamSpaceReason } from '../../../contract/team-room';

// The team space's reasons in plain words (contract/team-room.ts lists the server's codes): what
// happened, and what to do about it. A refused change (not-yours ... share-full) names why: the studio
// then drops this device's copy of the team space and joins again (team-live.ts), which the notice adds.

// Descriptors, read in the studio's language when shown.
const WORDS: Record<TeamSpaceReason, MessageDescriptor> = {
  'key-invalid': msg`This key was revoked, has expired or is not valid, so the team space closed the door. Connect with a valid key.`,
  'account-banned': msg`This key's account is banned: the team space does not admit it.`,
  'key-unbound': msg`This key's project was deleted: the team space does not admit it. Revoke it and create a key bound to an existing project.`,
  'api-unavailable': msg`The team space could not check this key with the service just now. It keeps trying.`,
  'wrong-room': msg`The team space refused the room this studio asked for. Reload the studio to try again.`,
  'too-many-connections': msg`Too many connections from this key or this network at once. The studio tries again shortly.`,
  'message-too-big': msg`A change was too big for the team space, so it was not shared.`,
  'document-too-big': msg`The team's shared space is full: the last change was not shared.`,
  'server-closing': msg`The team space is restarting. The studio reconnects by itself.`,
  'not-yours': msg`This change wrote something that belongs to another member, so the team space refused it: nothing of it was shared.`,
  'unknown-field': msg`This change wrote a kind of data the team space does not know, so it refused it: nothing of it was shared. Reload the studio: it may be older than the team space.`,
  'invalid-value': msg`This change held a value the team space does not accept (the wrong shape, too long or too large), so it refused it: nothing of it was shared.`,
  'server-only': msg`This change wrote what only the team space itself writes (the version of its data), so it refused it: nothing of it was shared.`,
  'out-of-order': msg`The team space lacked earlier changes from this device. It is catching up by itself.`,
  'share-full': msg`Your share of the team space is full, so it refused this change: nothing of it was shared. Free space by deleting some of your shared prompts or tasks' copies.`,
  'slow-reader': msg`This device did not keep up with the team space's changes, so it closed the connection. The studio reconnects by itself.`,
  'auth-timeout': msg`The team space did not receive this key in time. The studio tries again by itself.`,
  'too-many-attempts': msg`Too many attempts to join the team space from here. The studio tries again shortly.`,
  'rate-limited': msg`Too many changes were sent in too short a time. The studio tries again shortly.`,
  'origin-refused': msg`The team space does not accept connections from this page's address. Open the studio at the address the team space serves.`,
};

export function reasonText(reason: string | null): string {
  if (!reason) return t`The team space refused this key.`;
  // A code this studio does not know is shown as the server sent it, a value of the message.
  return isTeamSpaceReason(reason) ? i18n._(WORDS[reason]) : t`The team space refused this key: ${reason}`;
}
