import { SQLite, selectQuery, upsertQuery } from '@hocuspocus/extension-sqlite';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The embedded default (docs/team-space.md): every room's document in one SQLite file in the data folder,
// through Hocuspocus's own SQLite extension (better-sqlite3, which builds on this machine's Node 20).
// A cluster passes its PostgreSQL extension to createTeamSpace instead (persistence-postgres.ts).

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

/** What is used of better-sqlite3 here (its types are not installed, so the extension's `db` is untyped). */
interface Statement {
  get(params: object): unknown;
  run(params: object): unknown;
}
interface Statements {
  select: Statement;
  upsert: Statement;
}

/**
 * Hocuspocus's SQLite extension, its database held from the moment it is opened. Its own fetch and store
 * prepare a new statement on every call, each one garbage soon after: the persistence below replaces them.
 */
class HeldSQLite extends SQLite {
  override async onConfigure() {
    await super.onConfigure();
    if (this.db) heldUntilExit.push(this.db);
  }
}

export interface SqlitePersistence {
  extension: SQLite;
  /** The database file, absolute. */
  file: string;
  /** Closes the database handle (after Hocuspocus has stored and unloaded every document). */
  close(): void;
}

export function sqlitePersistence(dataDir: string): SqlitePersistence {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SQLITE_FILE);
  let statements: Statements | undefined;
  /** The extension's own two queries, prepared once, on first use, and kept. */
  const prepared = (): Statements => {
    const db = extension.db;
    if (!db?.open) throw new Error(`The team space's database is not open (${file}).`);
    if (!statements) {
      const prepare = (source: string): Statement => db.prepare(source);
      statements = { select: prepare(selectQuery), upsert: prepare(upsertQuery) };
      heldUntilExit.push(statements.select, statements.upsert);
    }
    return statements;
  };
  const extension: SQLite = new HeldSQLite({
    database: file,
    fetch: async ({ documentName }) => {
      const row: unknown = prepared().select.get({ name: documentName });
      return row && typeof row === 'object' && 'data' in row && row.data instanceof Uint8Array
        ? row.data
        : null;
    },
    store: async ({ documentName, state }) => {
      prepared().upsert.run({ name: documentName, data: state });
    },
  });
  return {
    extension,
    file,
    close: () => {
      if (extension.db?.open) extension.db.close();
    },
  };
}
