import * as Y from 'yjs';
import { TeamSpace } from '../model/team/team-space';

// Test helpers for the team space's model: members' documents kept in step by hand, the way a server
// would relay their updates (or not, during a partition). Imported only by tests.

/** Every update of each document applied to every other (a full exchange, as after reconnecting). */
export function syncAll(...docs: Y.Doc[]): void {
  for (const from of docs) {
    const update = Y.encodeStateAsUpdate(from);
    for (const to of docs) if (to !== from) Y.applyUpdate(to, update, 'remote');
  }
}

/** Documents that relay each other's updates as they happen (connected members). */
export function connect(...docs: Y.Doc[]): () => void {
  const offs = docs.map((from) => {
    const relay = (update: Uint8Array, origin: unknown) => {
      if (origin === 'remote') return;
      for (const to of docs) if (to !== from) Y.applyUpdate(to, update, 'remote');
    };
    from.on('update', relay);
    return () => from.off('update', relay);
  });
  syncAll(...docs);
  return () => offs.forEach((off) => off());
}

export const member = (memberId: string, now: () => number = () => 1_000): TeamSpace =>
  new TeamSpace(new Y.Doc(), memberId, now);

export const encoded = (doc: Y.Doc): string => Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64');
