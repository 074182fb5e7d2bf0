import type { Me } from './me';

// The team space's wire rules (docs/team-space.md "Who gets in"), shared by the server
// (scripts/team-space/) and the studio: which room a key's GET /me admits it to, and the reasons the
// server gives when it refuses or ends a connection. Pure, so the browser can import it without Node.

/**
 * The room (Hocuspocus document name) a key may join: every key of a team shares `team:<team.id>`; a
 * personal key has a room of its own, `key:<key.id>` (one person's devices). The studio sends this
 * name; the server derives it again from /me and refuses any other.
 */
export function teamRoomOf(me: Pick<Me, 'key' | 'team'>): string {
  return me.team ? `team:${me.team.id}` : `key:${me.key.id}`;
}

/** A member is a key: the id GET /me gives it (never the key itself). */
export const memberIdOf = (me: Pick<Me, 'key'>): string => me.key.id;

/**
 * Why the server refused a connection or ended one. The provider sees the code as the reason of an
 * `authenticationFailed` event (refused at connect) or of a `close`/`disconnect` event (ended later);
 * the studio shows each in plain words from its message catalogs.
 */
const TEAM_SPACE_REASONS = [
  /** 401 from /me: the key is revoked, expired or not a key at all. */
  'key-invalid',
  /** 403 account_banned: the key's owner is banned. */
  'account-banned',
  /** token_project_unbound, or /me's project.bound false: the key's project was deleted. */
  'key-unbound',
  /** The API did not answer /me usably (down, timed out, 5xx, 429): try again later. Transient. */
  'api-unavailable',
  /** The document name sent is not the room this key's /me admits it to. */
  'wrong-room',
  /** Too many connections from this key or this address at once. */
  'too-many-connections',
  /** One WebSocket message over the server's message limit. */
  'message-too-big',
  /** The update would grow the room's document past the server's document limit; nothing applied. */
  'document-too-big',
  /** The server is shutting down or restarting: reconnect (to it, or to another node). */
  'server-closing',
] as const;
export type TeamSpaceReason = (typeof TEAM_SPACE_REASONS)[number];

/** Reasons that say nothing is wrong with the key: the provider's own reconnection may succeed later. */
export const TRANSIENT_REASONS: readonly TeamSpaceReason[] = [
  'api-unavailable',
  'too-many-connections',
  'server-closing',
];

/**
 * WebSocket close codes the server uses when it ends a socket (the reason is one of the codes above).
 * 4401/4403 follow @hocuspocus/common's Unauthorized/Forbidden; 1009 is the standard "message too big".
 */
export const TEAM_SPACE_CLOSE_CODES = {
  'key-invalid': 4401,
  'account-banned': 4403,
  'key-unbound': 4403,
  'wrong-room': 4403,
  'api-unavailable': 4503,
  'too-many-connections': 4429,
  'message-too-big': 1009,
  'document-too-big': 4413,
  'server-closing': 1001,
} as const satisfies Record<TeamSpaceReason, number>;

export const isTeamSpaceReason = (value: unknown): value is TeamSpaceReason =>
  (TEAM_SPACE_REASONS as readonly unknown[]).includes(value);
