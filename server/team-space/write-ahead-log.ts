import type { beforeHandleMessagePayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { updateOf } from './messages';

// The write-ahead log of the team space's persistences (persistence-sqlite.ts, persistence-postgres.ts).
//
// Why: Hocuspocus applies a client's update and answers it at once with a SyncStatus (its
// MessageReceiver.readSyncMessage), but stores the document only after a debounce (2 s, at most 10 s). A
// server killed meanwhile (kill -9, a crash, the machine gone) lost edits its members had been told were
// saved. Now every update is written to a log table, and the write awaited, before it is applied:
//
// - Where: the persistence's `beforeHandleMessage`. Hocuspocus awaits that hook before it applies the
//   message and answers (Connection.processMessages), and runs each hook of its extensions one after the
//   other by descending priority, a throw ending the chain (Hocuspocus.hooks). Ours has the default
//   priority (100), so the rules (1000: limits) and the authority (900: schema, who may write) have
//   passed the message before it is logged: a refused update is never written.
// - What: the Yjs update the message carries (messages.ts updateOf), one row per message. An update that
//   adds nothing the room has not got (a member's catch-up on reconnect) is not written: everything in
//   the room is already in the stored state, a row of this log, or (on a cluster) a row of the node that
//   relayed it, which logged it before applying it.
// - Load: the stored state, then every row of the room, whichever node wrote it (a node of the cluster
//   still running, or one that died). Yjs updates are idempotent and commute: a row already in the state,
//   or replayed twice, changes nothing. A room loaded with rows is stored again at once and its rows
//   trimmed, so a crash's rows do not wait for the next edit.
// - Trim: after a store, only the rows the stored state contains are deleted, checked row by row against
//   a snapshot of the document taken at the moment its state was encoded (Y.snapshotContainsUpdate).
//   Not "every row up to the newest id": a row appended by another connection whose update was still
//   waiting to be applied when the state was encoded is not in it, and a row of another node may hold an
//   edit this node has not received yet. Either stays for a later store, or the next load.
//
// The cost is one write awaited per update. Measured (1,000 small updates, one client, each timed from
// the edit to its acknowledgement): SQLite 0.5-0.7 ms median with or without the log (WAL, NORMAL: see
// persistence-sqlite.ts); PostgreSQL 0.5-0.9 -> 0.8-1.2 ms median, p95 3-8 -> 5-7 ms, on the tests'
// PostgreSQL (fsync off: a real one adds its commit's flush). A log turned off (`writeAheadLog: false`)
// is for the tests' control and that measurement only.

/** One row of the log. `id` orders the rows of a room; PostgreSQL's bigint ids come as strings. */
export interface LogRow {
  id: number | string;
  update: Uint8Array;
}

/** Where a persistence keeps its log. Each call is one committed statement (or transaction). */
export interface LogStore {
  append(documentName: string, update: Uint8Array): Promise<void> | void;
  /** The room's rows, oldest first. */
  rows(documentName: string): Promise<LogRow[]> | LogRow[];
  remove(documentName: string, ids: Array<LogRow['id']>): Promise<void> | void;
}

/** What a log says about itself (replayed rows it could not apply). Never given a key. */
export type LogLine = (line: string) => void;

export class WriteAheadLog {
  constructor(
    private readonly store: LogStore,
    private readonly enabled = true,
    private readonly log: LogLine = (line) => console.error(`[team-space] ${line}`),
  ) {}

  /**
   * The body of the persistence's `beforeHandleMessage`: the message's update written before Hocuspocus
   * applies it (and tells the client it is saved). A message that carries no update, or one that cannot be
   * read (Hocuspocus refuses it itself), or a read-only connection's (Hocuspocus does not apply it) is not
   * written.
   */
  async beforeHandleMessage({
    update: message,
    document,
    documentName,
    connection,
  }: beforeHandleMessagePayload) {
    if (!this.enabled || connection.readOnly) return;
    const update = updateOf(message);
    if (update === null || update === 'unreadable') return;
    if (adds(document, update)) await this.store.append(documentName, update);
  }

  /**
   * Applies the room's rows to the document being loaded (its stored state already in it). Answers the
   * number of rows applied. A row Yjs cannot apply was never acknowledged (Hocuspocus failed on the same
   * bytes and closed that connection): it is said and removed, so it does not fail every load after.
   */
  async replay(documentName: string, document: Y.Doc, rows?: LogRow[]): Promise<number> {
    const found = rows ?? (await this.store.rows(documentName));
    const bad: Array<LogRow['id']> = [];
    for (const row of found) {
      try {
        Y.applyUpdate(document, row.update);
      } catch (error) {
        bad.push(row.id);
        this.log(
          `write-ahead log: room ${documentName} row ${row.id} cannot be applied (${(error as Error).message}); removed`,
        );
      }
    }
    if (bad.length > 0) await this.store.remove(documentName, bad);
    return found.length - bad.length;
  }

  /**
   * After `state` is stored: removes the rows that `stored` (the document's snapshot at the moment that
   * state was encoded, or an earlier one) contains. Answers the number removed.
   */
  async trim(documentName: string, stored: Y.Snapshot): Promise<number> {
    const rows = await this.store.rows(documentName);
    const contained = rows.filter((row) => containsUpdate(stored, row.update)).map((row) => row.id);
    if (contained.length > 0) await this.store.remove(documentName, contained);
    return contained.length;
  }
}

/** Whether the snapshot holds everything the update would add; false for an update Yjs cannot read. */
function containsUpdate(snapshot: Y.Snapshot, update: Uint8Array): boolean {
  try {
    return Y.snapshotContainsUpdate(snapshot, update);
  } catch {
    return false;
  }
}

/**
 * Whether applying `update` could change the document. Cheap for the common case, an edit with new
 * items (their clocks pass the document's state vector); only an update without new items (a deletion,
 * a catch-up) pays for a snapshot of the document's delete set. When unsure (unreadable): true.
 */
function adds(document: Y.Doc, update: Uint8Array): boolean {
  let to: Map<number, number>;
  try {
    to = Y.parseUpdateMeta(update).to;
  } catch {
    return true;
  }
  const known = Y.decodeStateVector(Y.encodeStateVector(document));
  for (const [client, clock] of to) if (clock > (known.get(client) ?? 0)) return true;
  return !containsUpdate(Y.snapshot(document), update);
}
