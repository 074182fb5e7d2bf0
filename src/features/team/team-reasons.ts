import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { isTeamSpaceReason, type TeamSpaceReason } from '../../../contract/team-room';

// The team space's reasons in plain words (contract/team-room.ts lists the server's codes): what
// happened, and what to do about it.

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
};

export function reasonText(reason: string | null): string {
  if (!reason) return t`The team space refused this key.`;
  // A code this studio does not know is shown as the server sent it, a value of the message.
  return isTeamSpaceReason(reason) ? i18n._(WORDS[reason]) : t`The team space refused this key: ${reason}`;
}
