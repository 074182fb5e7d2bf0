import type { Me } from './me';

// The team space's wire rules (docs/team-space.md "Who gets in"), shared by the server
// (server/team-space/) and the studio: which room a key's GET /me admits it to, and the reasons the
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
  // A change the server refused whole, before applying it (contract/team-doc.ts says what is allowed):
  /** It writes what is another member's: their vote, score, review, star, comment, name, or a `by` not the writer's. */
  'not-yours',
  /** It writes a root, key or kind of value the document's schema does not have. */
  'unknown-field',
  /** A value of the wrong shape, or past a bound (length, nesting, bytes). */
  'invalid-value',
  /** It writes what only the server writes (the schema version). */
  'server-only',
  /**
   * It builds on changes the server never received. The server holds such an update back (neither
   * applied nor acknowledged) and asks for what it lacks: transient, never a refusal of the change.
   */
  'out-of-order',
  /** The writer's share of the room is full: free space (old shared prompts, tasks' copies) first. */
  'share-full',
  // The transport's bounds (transient: the provider tries again with its back-off):
  /** The socket did not read what the server sent it: its unsent buffer passed the server's bound. */
  'slow-reader',
  /** No valid authentication within the server's deadline after the socket opened. */
  'auth-timeout',
  /** Too many authentication attempts from this socket or this address. */
  'too-many-attempts',
  /** Too many messages (edits or presence) in too short a time. */
  'rate-limited',
  /** The WebSocket came from a page the server does not serve (its Origin is not the studio's). */
  'origin-refused',
] as const;
export type TeamSpaceReason = (typeof TEAM_SPACE_REASONS)[number];

/** Reasons that say nothing is wrong with the key: the provider's own reconnection may succeed later. */
export const TRANSIENT_REASONS: readonly TeamSpaceReason[] = [
  'api-unavailable',
  'too-many-connections',
  'server-closing',
  'slow-reader',
  'auth-timeout',
  'too-many-attempts',
  'rate-limited',
  'out-of-order',
];

/**
 * Reasons that say one change was refused, whole, and the room left as it was. The member's key is
 * fine: the studio says why, drops its copy of the room (what is refused would be sent again at every
 * reconnect) and syncs afresh; the member's own stores on the device are untouched.
 */
export const CHANGE_REFUSALS: readonly TeamSpaceReason[] = [
  'not-yours',
  'unknown-field',
  'invalid-value',
  'server-only',
  'share-full',
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
  'not-yours': 4431,
  'unknown-field': 4432,
  'invalid-value': 4433,
  'server-only': 4434,
  'out-of-order': 4435,
  'share-full': 4436,
  'slow-reader': 4408,
  'auth-timeout': 4410,
  'too-many-attempts': 4429,
  'rate-limited': 4429,
  'origin-refused': 4403,
} as const satisfies Record<TeamSpaceReason, number>;

export const isTeamSpaceReason = (value: unknown): value is TeamSpaceReason =>
  (TEAM_SPACE_REASONS as readonly unknown[]).includes(value);
