import { describe, expect, it } from 'vitest';
import { comment, historyStoreConformance, said, stored, taskRecord } from './history-store.conformance';
import { openSqlite, sqliteHistoryStore } from './history-sqlite';
import { holdUntilExit } from './persistence-sqlite';

describe('the SQLite history store', () => {
  historyStoreConformance(async () => {
    return sqliteHistoryStore(openSqlite());
  });

  it('opens a file made before tasks kept attachments: adds the column, and attach works on its rows', async () => {
    const db = openSqlite();
    // Held as the store holds its own (persistence-sqlite.ts holdUntilExit).
    const statement = (source: string) => {
      const s = db.prepare(source);
      holdUntilExit(s);
      return s;
    };
    // The tasks table as it was made before the "attached" column, with a row.
    db.exec(`
      CREATE TABLE "team_space_tasks" (
        "id" INTEGER PRIMARY KEY,
        "room" TEXT NOT NULL,
        "task_id" TEXT NOT NULL,
        "created_at" INTEGER NOT NULL,
        "by" TEXT NOT NULL,
        "status" TEXT NOT NULL,
        "credits" REAL NOT NULL,
        "record" TEXT NOT NULL,
        UNIQUE ("room", "task_id")
      );
      CREATE VIRTUAL TABLE "team_space_tasks_text" USING fts5("text", tokenize = 'trigram');
    `);
    const old = stored(taskRecord(1, { prompt: 'an old fox' }));
    statement(
      `INSERT INTO "team_space_tasks" ("room", "task_id", "created_at", "by", "status", "credits", "record") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run('team:a', old.taskId, old.createdAt, old.by, old.status, old.credits, JSON.stringify(old.record));
    statement(`INSERT INTO "team_space_tasks_text" (rowid, "text") VALUES (1, ?)`).run(old.text);

    const store = sqliteHistoryStore(db);
    const columns = statement(`PRAGMA table_info("team_space_tasks")`).all() as Array<{ name: string }>;
    expect(columns.map((c) => c.name)).toContain('attached');
    expect((await store.page('team:a', {})).attached).toEqual([]);
    const one = said(1, { 'ada|o#0': { starred: true, updatedAt: 1 } }, { c1: comment('c1', 'still here') });
    expect(await store.attach('team:a', [one])).toEqual(new Set(['task-000001']));
    expect(await store.page('team:a', { q: 'old fox' })).toEqual({
      tasks: [taskRecord(1, { prompt: 'an old fox' })],
      next: null,
      attached: [one],
    });
    // Opened again (the next start), the column is there already.
    expect((await sqliteHistoryStore(db).page('team:a', {})).attached).toEqual([one]);
  });
});
