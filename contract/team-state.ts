// A room's content read in pieces (docs/team-space.md "Joining in pieces"): before its socket syncs, a
// studio asks the team space for what the room holds beyond its own copy, and the server answers it cut
// into Yjs updates of about STATE_PIECE_BYTES each, which the studio applies one per task, so that no
// single step of a join holds the main thread for long. Then the socket's sync finds little left to
// send. Read by the team-space server (server/team-space/history-routes.ts) and the studio
// (src/model/team/team-preload.ts). No Yjs here: the pieces are opaque bytes.

/**
 * POST under the team space's path: the body is the studio's state vector (Y.encodeStateVector), the
 * key goes in Authorization; the answer (application/octet-stream) is the pieces, framed.
 */
export const TEAM_STATE_ROUTE = '/state';

/** The largest state vector the route reads (a room with thousands of writers stays far under it). */
export const MAX_STATE_VECTOR_BYTES = 64 * 1024;

/** About how large each piece is: a piece of team tasks applies in well under 50 ms. */
export const STATE_PIECE_BYTES = 16 * 1024;

/**
 * The pieces as one body: each a 4-byte big-endian length, then its bytes (the server writes the same
 * frames a piece at a time, history-routes.ts; tests frame with this).
 * @internal
 */
export function framePieces(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + 4 + p.byteLength, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const piece of pieces) {
    view.setUint32(at, piece.byteLength);
    out.set(piece, at + 4);
    at += 4 + piece.byteLength;
  }
  return out;
}

/** The pieces of a framed body; throws on a body that is not one (cut short, or a length past its end). */
export function unframePieces(body: Uint8Array): Uint8Array[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const pieces: Uint8Array[] = [];
  let at = 0;
  while (at < body.byteLength) {
    if (at + 4 > body.byteLength) throw new Error('A piece of the room is cut short.');
    const length = view.getUint32(at);
    if (at + 4 + length > body.byteLength) throw new Error('A piece of the room is cut short.');
    pieces.push(body.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return pieces;
}
