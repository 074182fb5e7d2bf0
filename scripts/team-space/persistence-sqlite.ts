import { SQLite } from '@hocuspocus/extension-sqlite';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The embedded default (docs/team-space.md): every room's document in one SQLite file in the data folder,
// through Hocuspocus's own SQLite extension (better-sqlite3, which builds on this machine's Node 20).
// A cluster passes its PostgreSQL extension to createTeamSpace instead (persistence-postgres.ts).

/** The data folder when TEAM_SPACE_DATA is not set: under the project, ignored by git. */
export const DEFAULT_DATA_DIR = '.data/team-space';

export const SQLITE_FILE = 'team-space.sqlite';

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
  const extension = new SQLite({ database: file });
  return {
    extension,
    file,
    close: () => {
      if (extension.db?.open) extension.db.close();
    },
  };
}
