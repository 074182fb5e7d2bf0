import type { Document, Hocuspocus } from '@hocuspocus/server';
import * as Y from 'yjs';
import { STATE_PIECE_BYTES } from '../../contract/team-state';
import { cutUpdate } from '../../src/lib/yjs-pieces';

// The room's content for the state route (history-routes.ts, docs/team-space.md "Joining in pieces"):
// what a member's copy lacks, cut into pieces. From the document this server holds, or, when nobody is
// in the room on this server, from one loaded for the read (through Hocuspocus, so the room is
// migrated and its old tasks moved as for a socket) and held `holdMs`, since the member's socket comes
// next and then finds it loaded. A join from nothing (an empty state vector) is the common read and
// the dearest to cut: its pieces are kept until the document next changes.

/** How long a room loaded for a read stays loaded without a socket. */
const HOLD_MS = 10_000;

interface Held {
  disconnect(): Promise<void>;
  timer: ReturnType<typeof setTimeout>;
}

export function roomPieces(hocuspocus: Hocuspocus, { holdMs = HOLD_MS }: { holdMs?: number } = {}) {
  const fromNothing = new WeakMap<Document, Uint8Array[]>();
  const watched = new WeakSet<Document>();
  const held = new Map<string, Held>();

  const hold = async (room: string): Promise<Document | undefined> => {
    const loaded = hocuspocus.documents.get(room);
    const already = held.get(room);
    if (already) {
      clearTimeout(already.timer);
      already.timer = setTimeout(() => void release(room), holdMs);
    }
    if (loaded) return loaded;
    const direct = await hocuspocus.openDirectConnection(room);
    const again = held.get(room);
    if (again) {
      // Another read loaded it meanwhile: one hold is enough.
      await direct.disconnect();
      return hocuspocus.documents.get(room);
    }
    held.set(room, {
      disconnect: () => direct.disconnect(),
      timer: setTimeout(() => void release(room), holdMs),
    });
    return direct.document ?? undefined;
  };

  const release = async (room: string): Promise<void> => {
    const h = held.get(room);
    if (!h) return;
    held.delete(room);
    clearTimeout(h.timer);
    await h.disconnect();
  };

  return {
    /** The pieces this state vector lacks; null when the bytes are not a state vector. */
    async stateOf(room: string, stateVector: Uint8Array): Promise<Uint8Array[] | null> {
      let vector: Map<number, number>;
      try {
        vector = Y.decodeStateVector(stateVector);
      } catch {
        return null;
      }
      const document = await hold(room);
      if (!document) throw new Error('the room could not be loaded');
      if (vector.size > 0) return cutUpdate(Y.encodeStateAsUpdate(document, stateVector), STATE_PIECE_BYTES);
      const kept = fromNothing.get(document);
      if (kept) return kept;
      if (!watched.has(document)) {
        watched.add(document);
        document.on('update', () => fromNothing.delete(document));
      }
      const pieces = cutUpdate(Y.encodeStateAsUpdate(document), STATE_PIECE_BYTES);
      fromNothing.set(document, pieces);
      return pieces;
    },
    /** Lets every room loaded for a read go (the server is closing). */
    async close(): Promise<void> {
      await Promise.all([...held.keys()].map((room) => release(room)));
    },
  };
}
