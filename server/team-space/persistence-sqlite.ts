import { SQLite, selectQuery, upsertQuery } from '@hocuspocus/extension-sqlite';
import type {
  beforeHandleMessagePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as Y from 'yjs';
import { WriteAheadLog, type LogRow } from './write-ahead-log';

// The embedded default (docs/team-space.md): every room's document in one SQLite file in the data folder,
// through Hocuspocus's own SQLite extension (better-sqlite3, which builds on this machine's Node 20).
// A cluster passes its PostgreSQL extension to createTeamSpace instead (persistence-postgres.ts).
// Every update is written to the log table `document_log` before it is applied and acknowledged, so an
// acknowledged edit survives the process's death within the store's debounce (write-ahead-log.ts).

/** The data folder when TEAM_SPACE_DATA is not set: under the project, ignored by git. */
export const DEFAULT_DATA_DIR = '.data/team-space';

export const SQLITE_FILE = 'team-space.sqlite';

/**
 * Every better-sqlite3 object made here (each database, each prepared statement), held until the process
 * ends, so that none is ever garbage-collected (docs/testing.md, "Node 24"). better-sqlite3 12 wraps them
 * in node::ObjectWrap, and built against Node 24.19 or later headers, ObjectWrap's destructor calls
 * node::RemoveEnvironmentCleanupHook, which aborts the process when V8 collects the object in a GC that
 * runs with no JavaScript context entered (one started by an allocation in optimised code, for one). Held
 * here, they are freed by Node's own cleanup at the end of the environment, where that call succeeds.
 * The cost is small: a server opens one database for its life (two statements); a test run, a few dozen.
 */
const heldUntilExit: object[] = [];

/** Keeps better-sqlite3 objects (a database, statements) until the process ends (see heldUntilExit). */
export const holdUntilExit = (...objects: object[]) => void heldUntilExit.push(...objects);

/** What is used of better-sqlite3 here (its types are not installed, so the extension's `db` is untyped). */
interface Statement {
  get(params: object): unknown;
  all(params: object): unknown[];
  run(params: object): unknown;
}
interface Statements {
  select: Statement;
  upsert: Statement;
  append: Statement;
  rows: Statement;
  remove: Statement;
}

/**
 * The log: one row per update, in the order written. The file is in WAL mode with synchronous=NORMAL: a
 * row is one append to the WAL file, in the operating system's hands once the insert returns, so it
 * survives the process's death (kill -9, a crash); a machine that loses power may lose the last commits
 * before a checkpoint (the file stays consistent), as it could lose the debounce's edits before. FULL
 * would survive that too, at one fsync per update: measured on 1,000 updates, 0.6 -> 3.5-4.2 ms median
 * per acknowledgement, p95 3-4 -> 9-13 ms, and better-sqlite3 waits for the disk on the event loop, so
 * every room of the server waits with it.
 */
const logSchema = `
  PRAGMA journal_mode = WAL;
  PRAGMA synchronous = NORMAL;
  CREATE TABLE IF NOT EXISTS "document_log" (
    "id" INTEGER PRIMARY KEY,
    "name" varchar(255) NOT NULL,
    "data" blob NOT NULL
  );
  CREATE INDEX IF NOT EXISTS "document_log_name" ON "document_log" ("name", "id");
`;
const appendQuery = `INSERT INTO "document_log" ("name", "data") VALUES ($name, $data)`;
const rowsQuery = `SELECT id, data FROM "document_log" WHERE name = $name ORDER BY id`;
/** The ids as a JSON array: one statement for any number of rows (SQLite has no array parameters). */
const removeQuery = `DELETE FROM "document_log" WHERE name = $name AND id IN (SELECT value FROM json_each($ids))`;

/**
 * Hocuspocus's SQLite extension, its database held from the moment it is opened. Its own fetch and store
 * prepare a new statement on every call, each one garbage soon after: the persistence below replaces them.
 */
class HeldSQLite extends SQLite {
  /** Set by sqlitePersistence, right after construction. */
  writeAheadLog!: WriteAheadLog;
  /** The upsert of a room's state (prepared once). */
  writeState!: (documentName: string, state: Uint8Array) => void;

  override async onConfigure() {
    await super.onConfigure();
    if (this.db) {
      heldUntilExit.push(this.db);
      this.db.exec(logSchema);
    }
  }

  async beforeHandleMessage(data: beforeHandleMessagePayload) {
    await this.writeAheadLog.beforeHandleMessage(data);
  }

  /** The stored state (the extension's own load), then the room's log rows over it. */
  override async onLoadDocument(data: onLoadDocumentPayload) {
    await super.onLoadDocument(data);
    // A room loaded with rows (the process died before storing them) is stored now, and its rows trimmed.
    if ((await this.writeAheadLog.replay(data.documentName, data.document)) > 0) await this.store(data);
  }

  override async onStoreDocument(data: onStoreDocumentPayload) {
    await this.store(data);
  }

  /**
   * The document's state stored, then the log rows that state holds trimmed. The snapshot is taken with
   * the encoding, in one synchronous run: exactly what was written.
   */
  private async store({ documentName, document }: { documentName: string; document: Y.Doc }) {
    const stored = Y.snapshot(document);
    this.writeState(documentName, Y.encodeStateAsUpdate(document));
    await this.writeAheadLog.trim(documentName, stored);
  }
}

export interface SqlitePersistenceOptions {
  /**
   * Write every update to the log before it is applied (default true). False only for the durability
   * test's control and the cost measurement: an acknowledged edit is then lost if the process dies
   * within the store's debounce.
   */
  writeAheadLog?: boolean;
}

export interface SqlitePersistence {
  extension: SQLite;
  /** The database file, absolute. */
  file: string;
  /** Closes the database handle (after Hocuspocus has stored and unloaded every document). */
  close(): void;
}

export function sqlitePersistence(
  dataDir: string,
  options: SqlitePersistenceOptions = {},
): SqlitePersistence {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SQLITE_FILE);
  let statements: Statements | undefined;
  /** The extension's own two queries and the log's three, prepared once, on first use, and kept. */
  const prepared = (): Statements => {
    const db = extension.db;
    if (!db?.open) throw new Error(`The team space's database is not open (${file}).`);
    if (!statements) {
      const prepare = (source: string): Statement => db.prepare(source);
      statements = {
        select: prepare(selectQuery),
        upsert: prepare(upsertQuery),
        append: prepare(appendQuery),
        rows: prepare(rowsQuery),
        remove: prepare(removeQuery),
      };
      heldUntilExit.push(...Object.values(statements));
    }
    return statements;
  };
  const extension = new HeldSQLite({
    database: file,
    fetch: async ({ documentName }) => {
      const row: unknown = prepared().select.get({ name: documentName });
      return row && typeof row === 'object' && 'data' in row && row.data instanceof Uint8Array
        ? row.data
        : null;
    },
  });
  extension.writeState = (name, state) => prepared().upsert.run({ name, data: state });
  extension.writeAheadLog = new WriteAheadLog(
    {
      append: (name, update) => {
        prepared().append.run({ name, data: update });
      },
      rows: (name) => prepared().rows.all({ name }).map(logRow),
      remove: (name, ids) => {
        prepared().remove.run({ name, ids: JSON.stringify(ids) });
      },
    },
    options.writeAheadLog ?? true,
  );
  return {
    extension,
    file,
    close: () => {
      if (extension.db?.open) extension.db.close();
    },
  };
}

function logRow(row: unknown): LogRow {
  const { id, data } = row as { id: number; data: Uint8Array };
  return { id, update: data };
}
