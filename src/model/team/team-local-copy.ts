import * as idb from 'lib0/indexeddb';
import * as Y from 'yjs';
import { STATE_PIECE_BYTES } from '../../../contract/team-state';
import { cutUpdate } from '../../lib/yjs-pieces';
import { yieldToMain } from '../../lib/yield-to-main';

/** This device's copy of a room, as the connection uses it (openLocalCopy; a test's fake). */
export interface PersistenceLike {
  whenSynced: Promise<unknown>;
  destroy(): Promise<void> | void;
  /** Stops and deletes this device's copy (its IndexedDB database). */
  clearData(): Promise<void> | void;
}

// This device's copy of the team's room (docs/team-space.md "Joining in pieces"): what is edited
// offline is kept, and merged by Yjs on return. Kept in IndexedDB in y-indexeddb's layout (a database
// per room and connection, its `updates` store of Yjs updates under increasing keys, and `custom`), so
// a copy written by an earlier studio is read as it is. What differs is the reading: y-indexeddb
// applies every stored update in one main-thread task, which for a room's live window of a thousand
// tasks (some 500 KB) was one task of 150-250 ms each time a member came back. Here the copy is kept in
// pieces of about 16 KB and applied a few at a time, a task each, like the room read from the server
// (team-preload.ts); a larger stored update (a copy from before, or one big edit) is cut when read.
//
// The copy grows by one row per update. Past TRIM_ROWS rows it is rewritten as the document's state (in
// pieces), when the page is idle: that drops what later updates overwrote, and deleted content (the
// tasks the server moved out) with it.

/** Rows after which the copy is rewritten as the document's current state (y-indexeddb's figure). */
const TRIM_ROWS = 500;

/** The most applied in one task; a stored update larger than this is cut first. */
const PIECE_BYTES = STATE_PIECE_BYTES;

const UPDATES = 'updates';

/** lib0 types a stored value narrowly; IndexedDB keeps a Uint8Array as it is (y-indexeddb stores them so). */
const add = (store: IDBObjectStore, update: Uint8Array) =>
  idb.addAutoKey(store, update as unknown as ArrayBuffer);

export interface LocalCopyOptions {
  /** Resolves in a later task (tests pass their own). */
  nextTask?: () => Promise<void>;
  /**
   * Called as the stored updates start being applied; what it answers, once they are all in (the team
   * tasks' hold: the history hears of them once).
   */
  hold?: () => () => void;
  /** Runs the rewrite when the page is idle (tests pass their own). */
  whenIdle?: (work: () => void) => void;
}

function defaultWhenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 10_000 });
  else setTimeout(work, 1_000);
}

/** The stored updates, in order, as pieces to apply one group per task (at most about PIECE_BYTES each). */
function* groups(rows: readonly Uint8Array[]): Generator<Uint8Array[]> {
  let group: Uint8Array[] = [];
  let bytes = 0;
  for (const row of rows) {
    for (const piece of row.byteLength > PIECE_BYTES ? cutUpdate(row, PIECE_BYTES) : [row]) {
      if (group.length > 0 && bytes + piece.byteLength > PIECE_BYTES) {
        yield group;
        group = [];
        bytes = 0;
      }
      group.push(piece);
      bytes += piece.byteLength;
    }
  }
  if (group.length > 0) yield group;
}

class LocalCopy implements PersistenceLike {
  readonly whenSynced: Promise<void>;
  private readonly opened: Promise<IDBDatabase>;
  private db: IDBDatabase | null = null;
  private destroyed = false;
  /** Updates made before the database opened: stored first, in order. */
  private waiting: Uint8Array[] = [];
  private rows = 0;
  private rewriting = false;

  constructor(
    private readonly doc: Y.Doc,
    private readonly name: string,
    private readonly options: LocalCopyOptions,
  ) {
    this.opened = idb.openDB(name, (db) =>
      idb.createStores(db, [[UPDATES, { autoIncrement: true }], ['custom']]),
    );
    doc.on('update', this.store);
    doc.on('destroy', this.onDestroy);
    this.whenSynced = this.read();
  }

  /** Every update not applied from the copy itself is added to it. */
  private readonly store = (update: Uint8Array, origin: unknown): void => {
    if (origin === this || this.destroyed) return;
    if (!this.db) {
      this.waiting.push(update);
      return;
    }
    const [updates] = idb.transact(this.db, [UPDATES]);
    void add(updates!, update);
    this.rows += 1;
    if (this.rows >= TRIM_ROWS) this.rewriteSoon();
  };

  private async read(): Promise<void> {
    const db = await this.opened;
    if (this.destroyed) return db.close();
    this.db = db;
    const [updates] = idb.transact(db, [UPDATES]);
    for (const update of this.waiting) void add(updates!, update);
    this.waiting = [];
    const rows = (await idb.getAll(updates!)) as Uint8Array[];
    this.rows = rows.length;
    const release = this.options.hold?.();
    try {
      for (const group of groups(rows)) {
        // Each group in a task of its own, the first too (not after the read's own work).
        await (this.options.nextTask ?? yieldToMain)();
        if (this.destroyed) return;
        Y.transact(this.doc, () => group.forEach((u) => Y.applyUpdate(this.doc, u, this)), this, false);
      }
    } finally {
      release?.();
    }
    // A copy of a few large rows (an earlier studio's) is stored again in pieces, not cut at every read.
    if (this.rows >= TRIM_ROWS || rows.some((row) => row.byteLength > PIECE_BYTES)) this.rewriteSoon();
  }

  private rewriteSoon(): void {
    if (this.rewriting) return;
    this.rewriting = true;
    (this.options.whenIdle ?? defaultWhenIdle)(() => void this.rewrite());
  }

  /**
   * The copy replaced by the document's state, in pieces: in one transaction, the rows up to the last
   * one there are deleted and the pieces added (an update stored meanwhile comes after, and stays).
   */
  private async rewrite(): Promise<void> {
    const db = this.db;
    if (!db || this.destroyed) return;
    try {
      const [updates] = idb.transact(db, [UPDATES]);
      const last = (await idb.getLastKey(updates!)) as number | undefined;
      const pieces = cutUpdate(Y.encodeStateAsUpdate(this.doc), PIECE_BYTES);
      if (last !== undefined) void idb.del(updates!, idb.createIDBKeyRangeUpperBound(last, false));
      for (const piece of pieces) void add(updates!, piece);
      this.rows = await idb.count(updates!);
    } finally {
      this.rewriting = false;
    }
  }

  private readonly onDestroy = () => void this.destroy();

  readonly destroy = async (): Promise<void> => {
    if (this.destroyed) return;
    this.destroyed = true;
    this.doc.off('update', this.store);
    this.doc.off('destroy', this.onDestroy);
    (await this.opened).close();
  };

  async clearData(): Promise<void> {
    await this.destroy();
    await idb.deleteDB(this.name);
  }
}

/**
 * Opens this device's copy of a room (`name`: its IndexedDB database) for `doc`: read in pieces, a task
 * each; `whenSynced` resolves once all of it is in the document.
 */
export function openLocalCopy(doc: Y.Doc, name: string, options: LocalCopyOptions = {}): PersistenceLike {
  return new LocalCopy(doc, name, options);
}
