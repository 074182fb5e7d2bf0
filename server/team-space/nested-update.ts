import * as Y from 'yjs';

// A hostile client's update, for the referee's tests: a task record whose `deep` field is a JSON array
// nested `depth` deep. Built by hand, as a hostile client would: Yjs's own encoder recurses as deep as the
// value (and lib0's decoder too, which is what the referee must survive), so lib0's encoding of the array
// (type 117: an array, its length; 119: a string) is spliced in where a marker string was encoded.

const MARKER = 'MARKER-0123456789';

/** The update `doc` sends when it writes the task `taskId` by `by` with a `deep` array `depth` deep. */
export function nestedTaskUpdate(doc: Y.Doc, taskId: string, by: string, depth: number): Uint8Array {
  const updates: Uint8Array[] = [];
  const listen = (u: Uint8Array) => updates.push(u);
  doc.on('update', listen);
  doc.getMap('tasks').set(taskId, { taskId, by, status: 'queued', createdAt: 1, deep: MARKER });
  doc.off('update', listen);
  const update = Y.mergeUpdates(updates);
  const encoded = Buffer.from([119, MARKER.length, ...new TextEncoder().encode(MARKER)]);
  const at = Buffer.from(update).indexOf(encoded);
  if (at < 0) throw new Error('nestedTaskUpdate: the marker is not in the update');
  const deep = [...Array<number[]>(depth).fill([117, 1]).flat(), 119, 1, 120]; // ... [[['x']]]
  return Uint8Array.from([...update.subarray(0, at), ...deep, ...update.subarray(at + encoded.length)]);
}
