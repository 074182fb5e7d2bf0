import * as Y from 'yjs';
import { TEAM_STATE_ROUTE, unframePieces } from '../../../contract/team-state';
import { yieldToMain } from '../../lib/yield-to-main';

// Joining in pieces (docs/team-space.md): before the socket syncs, what the room holds beyond this
// device's copy is read over HTTP, cut by the server into pieces of about 16 KB, and applied one piece
// per task, so the page stays responsive while a room of a thousand tasks comes in (the socket would
// bring it as one message, applied in one long task). The socket's own sync then finds little left to
// send. Anything that goes wrong here (offline, refused, an older server, a body cut short) only means
// the socket brings the room instead, as before: the preload never decides whether the team space works.

/** How long the read may take before the socket is left to bring the room. */
const PRELOAD_TIMEOUT_MS = 15_000;

export interface PreloadOptions {
  /** The team space's HTTP base: http(s)://studio-origin/sync. */
  baseUrl: string;
  token: () => string;
  /** Whether to stop (the team space was turned off meanwhile): checked before each piece. */
  stopped: () => boolean;
  fetch?: typeof fetch;
  /** Resolves in a later task (tests pass their own). */
  nextTask?: () => Promise<void>;
}

/**
 * The transaction origin of what the preload applies (not a member's edit, not the socket's).
 * @internal
 */
export const PRELOAD_ORIGIN = Object.freeze({ preload: true });

/**
 * Reads what the room holds beyond `doc` and applies it piece by piece, a task each. Answers how many
 * pieces it applied (0 when it read nothing: the socket brings the room).
 */
export async function preloadRoom(doc: Y.Doc, o: PreloadOptions): Promise<number> {
  let pieces: Uint8Array[];
  try {
    const response = await (o.fetch ?? fetch)(o.baseUrl + TEAM_STATE_ROUTE, {
      method: 'POST',
      headers: { Authorization: `Bearer ${o.token()}`, 'Content-Type': 'application/octet-stream' },
      body: new Blob([Y.encodeStateVector(doc) as Uint8Array<ArrayBuffer>]),
      signal: AbortSignal.timeout(PRELOAD_TIMEOUT_MS),
    });
    if (!response.ok) return 0;
    pieces = unframePieces(new Uint8Array(await response.arrayBuffer()));
  } catch {
    return 0;
  }
  const nextTask = o.nextTask ?? yieldToMain;
  let applied = 0;
  for (const piece of pieces) {
    // Each piece in a task of its own, the first too (not after the read's own work).
    await nextTask();
    if (o.stopped()) break;
    try {
      Y.applyUpdate(doc, piece, PRELOAD_ORIGIN);
    } catch {
      // Not a Yjs update: what was applied stays (it is the room's), the socket brings the rest.
      break;
    }
    applied += 1;
  }
  return applied;
}
