import { isTeamSpaceReason, type TeamSpaceReason } from '../../../contract/team-room';

// The team space's reasons in plain words (contract/team-room.ts lists the server's codes): what
// happened, and what to do about it.

const WORDS: Record<TeamSpaceReason, string> = {
  'key-invalid':
    'This key was revoked, has expired or is not valid, so the team space closed the door. Connect with a valid key.',
  'account-banned': "This key's account is banned: the team space does not admit it.",
  'key-unbound':
    "This key's project was deleted: the team space does not admit it. Revoke it and create a key bound to an existing project.",
  'api-unavailable': 'The team space could not check this key with the service just now. It keeps trying.',
  'wrong-room': 'The team space refused the room this studio asked for. Reload the studio to try again.',
  'too-many-connections':
    'Too many connections from this key or this network at once. The studio tries again shortly.',
  'message-too-big': 'A change was too big for the team space, so it was not shared.',
  'document-too-big': "The team's shared space is full: the last change was not shared.",
  'server-closing': 'The team space is restarting. The studio reconnects by itself.',
};

export function reasonText(reason: string | null): string {
  if (!reason) return 'The team space refused this key.';
  return isTeamSpaceReason(reason) ? WORDS[reason] : `The team space refused this key: ${reason}`;
}
