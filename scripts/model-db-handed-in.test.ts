import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

// The studio's IndexedDB is handed to the model's stores by whoever opens them (docs/ARCHITECTURE.md,
// src/model/connection-stores.ts), not imported by each: a store opened in a test, or on another database,
// then writes where it is told. This lists every module of src/model that imports db.ts's `db` itself
// (an `import type` is fine): the composition point, and the modules not yet handed it, named here so
// that a store moved onto local-records.ts cannot take the import back and no new module adds one unseen.

const MODEL = fileURLToPath(new URL('../src/model', import.meta.url));

/** The modules of src/model whose code imports the `db` value of db.ts. */
function importersOfDb(): string[] {
  const value = /import\s*\{([^}]*)\}\s*from\s*'(?:\.\.?\/)+db'/g;
  return sourceFiles(MODEL, /\.tsx?$/)
    .filter((file) =>
      [...readFileSync(file, 'utf8').matchAll(value)].some((m) =>
        m[1]!.split(',').some((name) => /^\s*db(\s+as\s+\w+)?\s*$/.test(name)),
      ),
    )
    .map((file) => relative(MODEL, file))
    .sort();
}

describe('the model is handed its database', () => {
  it('finds an import of db, renamed or not, and passes an import of its types', () => {
    const value = /import\s*\{([^}]*)\}\s*from\s*'(?:\.\.?\/)+db'/g;
    const names = (code: string) => [...code.matchAll(value)].map((m) => m[1]!.trim());
    expect(names("import { db, type StudioDB } from '../db';")).toEqual(['db, type StudioDB']);
    expect(names("import { db as openDb } from './db';")).toEqual(['db as openDb']);
    expect(names("import type { StudioDB } from '../db';")).toEqual([]);
  });

  it('only the composition point and the modules not yet handed it import db', () => {
    // connection-stores.ts is the composition point: it opens a connection's stores with the database.
    // Each of the others still opens the studio's database itself.
    expect(importersOfDb()).toEqual([
      'catalog/catalog-keep.ts',
      'compare/boards.ts',
      'compare/votes.ts',
      'connection-stores.ts',
      'history/history-file.ts',
      'history/history-persistence.ts',
      'library/upload-library.ts',
      'queue/queue.ts',
      'tasks/outbox-storage.ts',
      'usage/usage-source.ts',
    ]);
  });
});
