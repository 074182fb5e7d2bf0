import { createRequire } from 'node:module';
import {
  decodeCursor,
  monthContribution,
  monthRangeOf,
  type HistoryPage,
  type HistoryPageQuery,
  type MonthSummary,
  type TaskAttachments,
} from '../../contract/team-history';
import {
  attachmentsOf,
  hasAttachments,
  mergeWithin,
  pageOf,
  replaces,
  storedAttachments,
  wordsOf,
  type HistoryStore,
  type PageRow,
  type StoredTask,
} from './history-store';
import { holdUntilExit } from './persistence-sqlite';

// The history store in the team space's SQLite file (one node: history-store.ts). Search is FTS5 with
// the trigram tokenizer: every word of a search is a substring of the prompt or title, as the studio's
// own search matches, in any script; a word under three characters (which trigrams cannot index) is
// checked on the rows the others found, or on the room's rows by time when it is the only kind.

/** What is used of better-sqlite3 (its types are not installed). */
export interface SqliteDatabase {
  exec(source: string): unknown;
  prepare(source: string): SqliteStatement;
  transaction<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R;
}
interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}

/**
 * A database of its own (tests, benches; the server uses the persistence's), held until the process ends.
 * @internal
 */
export function openSqlite(file = ':memory:'): SqliteDatabase {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDatabase;
  const db = new Database(file);
  holdUntilExit(db);
  return db;
}

const schema = `
  CREATE TABLE IF NOT EXISTS "team_space_tasks" (
    "id" INTEGER PRIMARY KEY,
    "room" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "created_at" INTEGER NOT NULL,
    "by" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "credits" REAL NOT NULL,
    "record" TEXT NOT NULL,
    "attached" TEXT,
    UNIQUE ("room", "task_id")
  );
  CREATE INDEX IF NOT EXISTS "team_space_tasks_time" ON "team_space_tasks" ("room", "created_at" DESC, "task_id" DESC);
  CREATE INDEX IF NOT EXISTS "team_space_tasks_by" ON "team_space_tasks" ("room", "by", "created_at" DESC, "task_id" DESC);
  CREATE VIRTUAL TABLE IF NOT EXISTS "team_space_tasks_text" USING fts5("text", tokenize = 'trigram');
  CREATE TABLE IF NOT EXISTS "team_space_months" (
    "room" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "tasks" INTEGER NOT NULL,
    "succeeded" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "credits" REAL NOT NULL,
    PRIMARY KEY ("room", "month", "by")
  );
`;

const MONTH_ADD = `
  INSERT INTO "team_space_months" ("room", "month", "by", "tasks", "succeeded", "failed", "credits")
  VALUES ($room, $month, $by, $tasks, $succeeded, $failed, $credits)
  ON CONFLICT ("room", "month", "by") DO UPDATE SET
    "tasks" = "tasks" + excluded."tasks", "succeeded" = "succeeded" + excluded."succeeded",
    "failed" = "failed" + excluded."failed", "credits" = "credits" + excluded."credits"`;

/** A search word as an FTS5 string (a phrase: its characters, quotes doubled). */
const phrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

export function sqliteHistoryStore(db: SqliteDatabase): HistoryStore {
  db.exec(schema);
  const statements = new Map<string, SqliteStatement>();
  const prepared = (source: string) => {
    let s = statements.get(source);
    if (!s) {
      s = db.prepare(source);
      holdUntilExit(s);
      statements.set(source, s);
    }
    return s;
  };
  // A file made before tasks kept their attachments: CREATE TABLE IF NOT EXISTS leaves its table as it was.
  const columns = prepared(`PRAGMA table_info("team_space_tasks")`).all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === 'attached'))
    db.exec(`ALTER TABLE "team_space_tasks" ADD COLUMN "attached" TEXT`);

  const put = db.transaction((room: string, tasks: readonly StoredTask[]) => {
    const find = prepared(
      `SELECT "id", "created_at", "by", "status", "credits" FROM "team_space_tasks" WHERE "room" = ? AND "task_id" = ?`,
    );
    const addMonth = prepared(MONTH_ADD);
    for (const task of tasks) {
      const before = find.get(room, task.taskId) as
        { id: number; created_at: number; by: string; status: string; credits: number } | undefined;
      if (!replaces(before, task)) continue;
      if (before) {
        const old = monthContribution({
          createdAt: before.created_at,
          by: before.by,
          status: before.status,
          credits: before.credits,
        });
        addMonth.run({
          room,
          ...old,
          tasks: -1,
          succeeded: -old.succeeded,
          failed: -old.failed,
          credits: -old.credits,
        });
        // "attached" stays as it is: a task archived again keeps what was said about it.
        prepared(
          `UPDATE "team_space_tasks" SET "created_at" = ?, "by" = ?, "status" = ?, "credits" = ?, "record" = ? WHERE "id" = ?`,
        ).run(task.createdAt, task.by, task.status, task.credits, JSON.stringify(task.record), before.id);
        prepared(`UPDATE "team_space_tasks_text" SET "text" = ? WHERE rowid = ?`).run(task.text, before.id);
      } else {
        const { lastInsertRowid } = prepared(
          `INSERT INTO "team_space_tasks" ("room", "task_id", "created_at", "by", "status", "credits", "record") VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          room,
          task.taskId,
          task.createdAt,
          task.by,
          task.status,
          task.credits,
          JSON.stringify(task.record),
        ) as {
          lastInsertRowid: number | bigint;
        };
        prepared(`INSERT INTO "team_space_tasks_text" (rowid, "text") VALUES (?, ?)`).run(
          lastInsertRowid,
          task.text,
        );
      }
      addMonth.run({ room, ...monthContribution(task) });
    }
  });

  const attach = db.transaction((room: string, items: readonly TaskAttachments[]) => {
    const find = prepared(
      `SELECT "id", "attached" FROM "team_space_tasks" WHERE "room" = ? AND "task_id" = ?`,
    );
    const write = prepared(`UPDATE "team_space_tasks" SET "attached" = ? WHERE "id" = ?`);
    const kept = new Set<string>();
    const over = new Set<string>();
    for (const item of items) {
      const row = find.get(room, item.taskId) as { id: number; attached: string | null } | undefined;
      if (!row || over.has(item.taskId)) continue;
      const merged = mergeWithin(attachmentsOf(item.taskId, row.attached), item);
      if (!merged) {
        over.add(item.taskId);
        kept.delete(item.taskId);
        continue;
      }
      write.run(hasAttachments(merged) ? storedAttachments(merged) : null, row.id);
      kept.add(item.taskId);
    }
    return kept;
  });

  const page = (room: string, query: HistoryPageQuery): HistoryPage => {
    const limit = query.limit ?? 200;
    const where = ['t."room" = $room'];
    const params: Record<string, unknown> = { room, limit: limit + 1 };
    if (query.by !== undefined) {
      where.push('t."by" = $by');
      params.by = query.by;
    }
    if (query.month !== undefined) {
      const { from, to } = monthRangeOf(query.month);
      where.push('t."created_at" >= $from AND t."created_at" < $to');
      Object.assign(params, { from, to });
    }
    const cursor = query.before === undefined ? undefined : decodeCursor(query.before);
    if (query.before !== undefined && !cursor) return { tasks: [], next: null, attached: [] };
    if (cursor) {
      where.push('(t."created_at" < $at OR (t."created_at" = $at AND t."task_id" < $id))');
      Object.assign(params, { at: cursor.createdAt, id: cursor.taskId });
    }
    const words = wordsOf(query);
    const indexed = words.filter((w) => [...w].length >= 3);
    const short = words.filter((w) => [...w].length < 3);
    let from = '"team_space_tasks" t';
    if (indexed.length > 0) {
      where.push(
        `t."id" IN (SELECT rowid FROM "team_space_tasks_text" WHERE "team_space_tasks_text" MATCH $match)`,
      );
      params.match = indexed.map(phrase).join(' AND ');
    }
    if (short.length > 0) {
      from += ' JOIN "team_space_tasks_text" x ON x.rowid = t."id"';
      short.forEach((w, i) => {
        where.push(`instr(x."text", $w${i}) > 0`);
        params[`w${i}`] = w;
      });
    }
    const rows = prepared(
      `SELECT t."record", t."created_at", t."task_id", t."attached" FROM ${from} WHERE ${where.join(' AND ')} ORDER BY t."created_at" DESC, t."task_id" DESC LIMIT $limit`,
    ).all(params) as PageRow[];
    return pageOf(rows, limit);
  };

  return {
    put: async (room, tasks) => put(room, tasks),
    attach: async (room, items) => attach(room, items),
    page: async (room, query) => page(room, query),
    months: async (room) =>
      prepared(
        `SELECT "month", "by", "tasks", "succeeded", "failed", "credits" FROM "team_space_months" WHERE "room" = ? AND "tasks" > 0 ORDER BY "month", "by"`,
      ).all(room) as MonthSummary[],
    count: async (room) =>
      (prepared(`SELECT count(*) AS n FROM "team_space_tasks" WHERE "room" = ?`).get(room) as { n: number })
        .n,
    // The database is the persistence's: it closes it.
    close: async () => undefined,
  };
}
