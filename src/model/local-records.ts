import type { IDBPDatabase, IDBPObjectStore, StoreNames } from 'idb';
import type { z } from 'zod/mini';
import type { KeyField, KeyedStoreName, StudioDB } from './db';

// One connection's records in one of the studio's keyed IndexedDB stores (db.ts: key [connectionId,
// <key field>], index byConnection), the way every local store of what the user does keeps them (presets,
// prompts, stars and ratings, reviews, tags, saved searches, hidden tasks, kept outputs): read at open and
// parsed, a record that does not parse left out (reads are never trusted); written at once (commitNow); a
// write that fails told to the reporter the store was opened with, since the store has already shown the
// change and only the reporter can say it will not outlive this tab. The database is handed in by whoever
// opens the store (connection-stores.ts), not imported by the store.

/** Gives the studio's database, open: db() of db.ts where a connection's stores are opened, a test's own. */
export type OpenDatabase = () => Promise<IDBPDatabase<StudioDB>>;

/** Told of a write that failed (the change stays in this tab's memory only); `what`: the store's name. */
export type WriteErrorReporter = (error: unknown, what: KeyedStoreName) => void;

/** What a local store is opened with; connection-stores.ts gives both, a test its own database. */
export interface LocalIo {
  /** No default: a store has no database of its own, so whoever opens it says which one it keeps to. */
  db: OpenDatabase;
  /** Default logWriteError. */
  onError?: WriteErrorReporter;
}

/**
 * A failed write, logged: the reporter when the opener gives none. The studio has no words on screen for
 * it yet, so the console is where it is said.
 */
export const logWriteError: WriteErrorReporter = (error, what) => {
  console.error(`Media Studio: a change to "${what}" could not be written to this device's storage.`, error);
};

/** A record as its store writes it: its key field and the rest; the connection is added on the way in. */
type RecordFields<Name extends KeyedStoreName> = { [P in KeyField<Name>]: string } & Record<string, unknown>;

/** One change of a write: a record put (replacing one of the same key) or the record of a key deleted. */
export type RecordChange<Name extends KeyedStoreName> = { put: RecordFields<Name> } | { remove: string };

/**
 * One readwrite transaction holding `write`'s requests, committed at once (`commit()`) rather than left
 * to auto-commit; resolves once it is on disk, rejects with the transaction's error (a full disk among
 * them).
 *
 * Why: a store shows a change before it is on disk (a star lights up on the click), so a reload can
 * follow at once. A transaction left to auto-commit commits only after the page has received every
 * request's result, a round trip to the browser's IndexedDB; when the page goes away first, Chromium
 * aborts it, and the change the user saw is lost (a star pressed just before a reload came back
 * unstarred). A transaction whose commit was asked completes without the page. The requests and the
 * commit are made in the turn of the change itself (after the database's promise, open by then, only
 * microtasks): a `pagehide` listener would come too late, since a transaction started while the page
 * goes away may never run.
 */
export async function commitNow<Name extends StoreNames<StudioDB>>(
  database: IDBPDatabase<StudioDB>,
  name: Name,
  write: (store: IDBPObjectStore<StudioDB, [Name], Name, 'readwrite'>) => ReadonlyArray<Promise<unknown>>,
): Promise<void> {
  const tx = database.transaction(name, 'readwrite');
  // A request's failure aborts the transaction: it is reported once, by `done`.
  for (const request of write(tx.store)) request.catch(() => undefined);
  tx.commit();
  try {
    await tx.done;
  } catch (error) {
    throw tx.error ?? error;
  }
}

export class LocalRecords<Name extends KeyedStoreName, T> {
  private readonly database: OpenDatabase;
  private readonly onError: WriteErrorReporter;

  constructor(
    readonly name: Name,
    readonly connectionId: string,
    private readonly schema: z.ZodMiniType<T>,
    io: LocalIo,
  ) {
    this.database = io.db;
    this.onError = io.onError ?? logWriteError;
  }

  private parse(raw: unknown): T | undefined {
    const parsed = this.schema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  /** Every record of this connection that parses; rejects when the database cannot be read. */
  async load(): Promise<T[]> {
    const database = await this.database();
    // Every keyed store has the same byConnection index (on the connection alone); TypeScript cannot see
    // that through the generic name, so the query is typed as one of them.
    const raws: unknown[] = await database.getAllFromIndex(
      this.name as KeyedStoreName as 'judgements',
      'byConnection',
      this.connectionId,
    );
    const records: T[] = [];
    for (const raw of raws) {
      const record = this.parse(raw);
      if (record !== undefined) records.push(record);
    }
    return records;
  }

  /** The record of one key, parsed; undefined when there is none or it does not parse. */
  async get(key: string): Promise<T | undefined> {
    const raw: unknown = await (await this.database()).get(this.name, [this.connectionId, key]);
    return raw === undefined ? undefined : this.parse(raw);
  }

  /**
   * Writes the changes, in their order, in one transaction committed at once (commitNow). A failure is
   * told to the reporter, then rejects: a caller that undoes or counts can still tell.
   */
  async write(changes: ReadonlyArray<RecordChange<Name>>): Promise<void> {
    try {
      await this.commit(changes);
    } catch (error) {
      this.onError(error, this.name);
      throw error;
    }
  }

  /**
   * The same without the reporter: for a caller that says a failure in its own words (a kept output's
   * full disk is the keep's result, shown by the storage meter).
   */
  async commit(changes: ReadonlyArray<RecordChange<Name>>): Promise<void> {
    if (changes.length === 0) return;
    const database = await this.database();
    const connectionId = this.connectionId;
    await commitNow(database, this.name, (store) =>
      changes.map((change) =>
        'put' in change
          ? store.put({ ...change.put, connectionId } as StudioDB[Name]['value'])
          : store.delete([connectionId, change.remove]),
      ),
    );
  }
}
