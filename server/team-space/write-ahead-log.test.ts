import type { beforeHandleMessagePayload } from '@hocuspocus/server';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { WriteAheadLog, type LogRow, type LogStore } from './write-ahead-log';

// The log's rules, on documents in memory and a log in an array: what is written, what a load replays,
// and, above all, what a store may trim (only rows the stored state holds).

class MemoryLog implements LogStore {
  rowsOf: LogRow[] = [];
  private next = 1;
  append(_name: string, update: Uint8Array) {
    this.rowsOf.push({ id: this.next++, update: update.slice() });
  }
  rows() {
    return [...this.rowsOf];
  }
  remove(_name: string, ids: Array<LogRow['id']>) {
    this.rowsOf = this.rowsOf.filter((row) => !ids.includes(row.id));
  }
}

/** lib0's variable-length unsigned integer, as Hocuspocus frames its messages. */
function varUint(n: number): number[] {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return bytes;
}

/** A Hocuspocus sync message (document name, type 0, sub-type 2: an update) carrying `update`. */
function updateMessage(update: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode('room');
  return Uint8Array.from([...varUint(name.length), ...name, 0, 2, ...varUint(update.length), ...update]);
}

const payload = (document: Y.Doc, update: Uint8Array, readOnly = false) =>
  ({
    update: updateMessage(update),
    document,
    documentName: 'room',
    connection: { readOnly },
  }) as unknown as beforeHandleMessagePayload;

/** An update of a member's document: one task set. */
function taskUpdate(member: Y.Doc, key: string): Uint8Array {
  let update: Uint8Array | undefined;
  const take = (u: Uint8Array) => (update = u);
  member.once('update', take);
  member.getMap('tasks').set(key, { key });
  return update!;
}

describe('the write-ahead log', () => {
  it('writes an update before it is applied, and not a read-only connection’s, nor a catch-up the room has', async () => {
    const store = new MemoryLog();
    const wal = new WriteAheadLog(store);
    const room = new Y.Doc();
    const member = new Y.Doc();
    const first = taskUpdate(member, 'a');
    await wal.beforeHandleMessage(payload(room, first));
    expect(store.rowsOf).toHaveLength(1);
    await wal.beforeHandleMessage(payload(room, taskUpdate(member, 'b'), true));
    expect(store.rowsOf).toHaveLength(1);
    // The member reconnects and sends what the room lacks: once applied, the same again adds nothing.
    Y.applyUpdate(room, Y.encodeStateAsUpdate(member));
    await wal.beforeHandleMessage(payload(room, Y.encodeStateAsUpdate(member)));
    expect(store.rowsOf).toHaveLength(1);
    // A deletion adds no item, but changes the room: written.
    let deletion: Uint8Array | undefined;
    member.once('update', (u: Uint8Array) => (deletion = u));
    member.getMap('tasks').delete('a');
    await wal.beforeHandleMessage(payload(room, deletion!));
    expect(store.rowsOf).toHaveLength(2);
    // Turned off (the tests' control): nothing.
    const off = new MemoryLog();
    await new WriteAheadLog(off, false).beforeHandleMessage(payload(room, taskUpdate(member, 'c')));
    expect(off.rowsOf).toHaveLength(0);
  });

  it('a store trims only the rows its state holds: not a row still waiting to be applied, nor another node’s edit', async () => {
    const store = new MemoryLog();
    const wal = new WriteAheadLog(store);
    const room = new Y.Doc();
    const member = new Y.Doc();
    const other = new Y.Doc();
    const applied = taskUpdate(member, 'applied');
    store.append('room', applied);
    Y.applyUpdate(room, applied);
    // Logged, not applied yet when the state is encoded (its message waits for the apply).
    store.append('room', taskUpdate(member, 'waiting'));
    // Written by another node, whose edit has not reached this one.
    store.append('room', taskUpdate(other, 'elsewhere'));

    const snapshot = Y.snapshot(room);
    expect(await wal.trim('room', snapshot)).toBe(1);
    expect(store.rowsOf.map((r) => r.id)).toEqual([2, 3]);

    Y.applyUpdate(room, Y.encodeStateAsUpdate(member));
    Y.applyUpdate(room, Y.encodeStateAsUpdate(other));
    expect(await wal.trim('room', Y.snapshot(room))).toBe(2);
    expect(store.rowsOf).toEqual([]);
  });

  it('a load replays every row over the stored state, twice harmlessly, and drops a row Yjs cannot apply', async () => {
    const store = new MemoryLog();
    const lines: string[] = [];
    const wal = new WriteAheadLog(store, true, (line) => lines.push(line));
    const member = new Y.Doc();
    const stored = taskUpdate(member, 'stored');
    store.append('room', taskUpdate(member, 'logged'));
    store.append('room', stored);
    store.append('room', new Uint8Array([0xff, 0xff, 0xff]));
    const room = new Y.Doc();
    Y.applyUpdate(room, stored);
    expect(await wal.replay('room', room)).toBe(2);
    expect([...room.getMap('tasks').keys()].sort()).toEqual(['logged', 'stored']);
    expect(store.rowsOf).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/row 3 cannot be applied/);
  });
});
