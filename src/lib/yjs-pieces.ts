import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

// A Yjs update cut into several (the team space's joining in pieces, contract/team-state.ts, and its
// copy on the device, model/team/team-local-copy.ts): each piece holds a run of one writer's structs
// (consecutive clocks) of about `maxBytes`, and the last the whole delete set. Applied in order, the
// pieces give the document exactly what the update gives it; each on its own is a valid update, so a
// studio applies one per task. Yjs has no public way to cut an update, so this writes the structs of
// Y.decodeUpdate back as Yjs's own merge does (struct.write on an UpdateEncoderV1, whose format is one
// stream: a writer count, then per writer its struct count, id, first clock and structs, then the
// delete set). server/team-space/state-pieces.test.ts checks the result against Yjs over random documents.

/** A run of one writer's structs with consecutive clocks, written as a one-writer update. */
function piece(client: number, clock: number, count: number, body: Uint8Array): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, 1);
  encoding.writeVarUint(encoder.restEncoder, count);
  encoder.writeClient(client);
  encoding.writeVarUint(encoder.restEncoder, clock);
  encoding.writeUint8Array(encoder.restEncoder, body);
  // No deletions here: the last piece carries them all.
  encoding.writeVarUint(encoder.restEncoder, 0);
  return encoder.toUint8Array();
}

/**
 * The update (Yjs format 1) in pieces of about `maxBytes` (one struct larger than that is a piece of its
 * own), in the update's order, the delete set last. An update without deletions still ends with an
 * empty one, so there is always at least one piece.
 */
export function cutUpdate(update: Uint8Array, maxBytes: number): Uint8Array[] {
  const { structs } = Y.decodeUpdate(update);
  const pieces: Uint8Array[] = [];
  /** Per writer, the clock after its last struct here: a state vector that holds every struct. */
  const ends = new Map<number, number>();
  let run: { client: number; clock: number; next: number; count: number; encoder: Y.UpdateEncoderV1 } | null =
    null;
  const flush = () => {
    if (run && run.count > 0)
      pieces.push(piece(run.client, run.clock, run.count, run.encoder.toUint8Array()));
    run = null;
  };
  for (const struct of structs) {
    // A gap in the writer's clocks (a part this update does not hold): the next run starts after it.
    if (struct instanceof Y.Skip) {
      flush();
      continue;
    }
    const { client, clock } = struct.id;
    if (
      run &&
      (run.client !== client || run.next !== clock || encoding.length(run.encoder.restEncoder) >= maxBytes)
    )
      flush();
    run ??= { client, clock, next: clock, count: 0, encoder: new Y.UpdateEncoderV1() };
    struct.write(run.encoder, 0);
    run.count += 1;
    run.next = clock + struct.length;
    ends.set(client, Math.max(ends.get(client) ?? 0, run.next));
  }
  flush();
  // Every struct is in an earlier piece; what remains of the update is its delete set.
  pieces.push(Y.diffUpdate(update, Y.encodeStateVector(ends)));
  return pieces;
}
