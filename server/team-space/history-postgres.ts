import type pg from 'pg';
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
import { inTransaction } from './persistence-postgres';

// The history store in the shared PostgreSQL (several nodes: history-store.ts), the same rows and answers
// as the SQLite one (history-sqlite.ts). Every node writes it, so a put locks the rows it replaces: two
// nodes archiving the same tasks at once must not both subtract the old row from its month, nor both add
// the new one. Search matches every word as a substring with LIKE, indexed by pg_trgm where the database
// lets us create it (a trigram index serves LIKE '%word%' of any length, the short words by a scan of the
// index; without it the room's rows are scanned, as correct and slower).

interface PostgresHistoryOptions {
  /** The tables are `<prefix>_tasks` and `<prefix>_months` (created if missing). Default `team_space`. */
  prefix?: string;
}

const DEFAULT_PREFIX = 'team_space';

/** Table and index names go into SQL text (identifiers cannot be query parameters), so only a plain name. */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Deadlock and serialization failures: the whole put or attach is tried again (nothing of it was kept). */
const RETRIED = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

interface Before {
  task_id: string;
  created_at: string;
  by: string;
  status: string;
  credits: number;
}

type Contribution = ReturnType<typeof monthContribution>;

/** A search word as a LIKE pattern that matches it anywhere, its own % _ and \ taken literally. */
const anywhere = (word: string) => `%${word.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * PostgreSQL's text cannot hold NUL, which SQLite's can: one in a prompt would fail the whole put, every
 * time the server tried. A space instead matches the same words (none holds a space or a NUL).
 */
const searchable = (text: string) => text.replaceAll('\0', ' ');

/** Tries a transaction again when PostgreSQL failed it for a deadlock or a serialization failure. */
async function retried<T>(once: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRIED.has(code)) throw error;
    }
  }
}

/** What the put's tasks come to, one per task id, as if they were put one after another (as SQLite does). */
function latest(tasks: readonly StoredTask[]): StoredTask[] {
  const byId = new Map<string, StoredTask>();
  for (const task of tasks) {
    if (replaces(byId.get(task.taskId), task)) byId.set(task.taskId, task);
  }
  // In one order on every node, so two puts of overlapping tasks take their row locks alike.
  return [...byId.values()].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
}

export function postgresHistoryStore(pool: pg.Pool, options: PostgresHistoryOptions = {}): HistoryStore {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const tasksTable = `${prefix}_tasks`;
  const monthsTable = `${prefix}_months`;
  // The longest name made from the prefix: if it is plain, so are the others.
  if (!PLAIN_NAME.test(`${tasksTable}_text`))
    throw new Error(`Team history prefix "${prefix}": use lower-case letters, digits and _ (52 at most).`);

  let ready: Promise<void> | undefined;

  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>) => inTransaction(pool, work);

  /**
   * Creates the tables once per store, on first use rather than at start, so a node can start before the
   * database is reachable. Nodes starting together serialise on the advisory lock (two concurrent CREATE
   * ... IF NOT EXISTS can otherwise fail on PostgreSQL's catalog). A failure is retried on the next use.
   */
  function ensureTables(): Promise<void> {
    ready ??= transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['create:team-history']);
      // task_id in byte order (COLLATE "C"), as SQLite compares text: pages come in the same order, and a
      // cursor means the same thing whatever the database's default collation.
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${tasksTable} (
           room text NOT NULL,
           task_id text COLLATE "C" NOT NULL,
           created_at bigint NOT NULL,
           "by" text NOT NULL,
           status text NOT NULL,
           credits double precision NOT NULL,
           record text NOT NULL,
           "text" text NOT NULL,
           attached text,
           PRIMARY KEY (room, task_id)
         )`,
      );
      // A table made before tasks kept their attachments. Looked up first: ALTER TABLE takes the table's
      // exclusive lock even when the column is there, and would queue every node's reads behind it.
      const { rows: has } = await client.query(
        `SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'attached' AND NOT attisdropped`,
        [tasksTable],
      );
      if (has.length === 0)
        await client.query(`ALTER TABLE ${tasksTable} ADD COLUMN IF NOT EXISTS attached text`);
      await client.query(
        `CREATE INDEX IF NOT EXISTS ${tasksTable}_time ON ${tasksTable} (room, created_at DESC, task_id DESC)`,
      );
      await client.query(
        `CREATE INDEX IF NOT EXISTS ${tasksTable}_by ON ${tasksTable} (room, "by", created_at DESC, task_id DESC)`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${monthsTable} (
           room text NOT NULL,
           month text COLLATE "C" NOT NULL,
           "by" text COLLATE "C" NOT NULL,
           tasks integer NOT NULL,
           succeeded integer NOT NULL,
           failed integer NOT NULL,
           credits double precision NOT NULL,
           PRIMARY KEY (room, month, "by")
         )`,
      );
      // pg_trgm ships with PostgreSQL (Debian's postgresql has it) and is a trusted extension, but a role
      // without CREATE on the database, or a host that installs extensions in a schema off the search path,
      // cannot have it here: then the search runs without the index, and the savepoint keeps the rest.
      await client.query('SAVEPOINT trigram');
      try {
        await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
        await client.query(
          `CREATE INDEX IF NOT EXISTS ${tasksTable}_text ON ${tasksTable} USING gin ("text" gin_trgm_ops)`,
        );
        await client.query('RELEASE SAVEPOINT trigram');
      } catch {
        await client.query('ROLLBACK TO SAVEPOINT trigram');
      }
    }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  /** One attempt at a put: the month deltas of what it replaced and inserted, applied before it commits. */
  const putOnce = (room: string, tasks: readonly StoredTask[]) =>
    transaction(async (client) => {
      const deltas = new Map<string, Contribution>();
      const add = (c: Contribution, sign: 1 | -1) => {
        const key = JSON.stringify([c.month, c.by]);
        const sum = deltas.get(key) ?? {
          month: c.month,
          by: c.by,
          tasks: 0,
          succeeded: 0,
          failed: 0,
          credits: 0,
        };
        sum.tasks += sign * c.tasks;
        sum.succeeded += sign * c.succeeded;
        sum.failed += sign * c.failed;
        sum.credits += sign * c.credits;
        deltas.set(key, sum);
      };

      // A row another node inserts while we do is not there to lock: our insert of it waits for that
      // node's commit and is skipped (ON CONFLICT DO NOTHING), and the next round locks and replaces it.
      // Rows are never deleted, so the second round finds every row the first could not insert.
      let pending = tasks;
      while (pending.length > 0) {
        const { rows } = await client.query<Before>(
          `SELECT task_id, created_at, "by", status, credits FROM ${tasksTable}
           WHERE room = $1 AND task_id = ANY($2::text[]) ORDER BY task_id FOR UPDATE`,
          [room, pending.map((t) => t.taskId)],
        );
        const before = new Map(rows.map((r) => [r.task_id, r]));
        const updated: StoredTask[] = [];
        const inserting: StoredTask[] = [];
        for (const task of pending) {
          const row = before.get(task.taskId);
          if (!row) inserting.push(task);
          else if (replaces(row, task)) {
            add(monthContribution({ ...row, createdAt: Number(row.created_at) }), -1);
            updated.push(task);
          }
        }
        if (updated.length > 0) {
          await client.query(
            // attached stays as it is: a task archived again keeps what was said about it.
            `UPDATE ${tasksTable} t SET created_at = u.created_at, "by" = u."by", status = u.status,
               credits = u.credits, record = u.record, "text" = u."text"
             FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::text[])
               AS u(task_id, created_at, "by", status, credits, record, "text")
             WHERE t.room = $1 AND t.task_id = u.task_id`,
            [room, ...columns(updated)],
          );
          for (const task of updated) add(monthContribution(task), 1);
        }
        if (inserting.length === 0) break;
        const inserted = await client.query<{ task_id: string }>(
          `INSERT INTO ${tasksTable} (room, task_id, created_at, "by", status, credits, record, "text")
           SELECT $1, u.task_id, u.created_at, u."by", u.status, u.credits, u.record, u."text"
           FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::text[])
             WITH ORDINALITY AS u(task_id, created_at, "by", status, credits, record, "text", n)
           ORDER BY u.n
           ON CONFLICT (room, task_id) DO NOTHING
           RETURNING task_id`,
          [room, ...columns(inserting)],
        );
        const done = new Set(inserted.rows.map((r) => r.task_id));
        for (const task of inserting) if (done.has(task.taskId)) add(monthContribution(task), 1);
        pending = inserting.filter((t) => !done.has(t.taskId));
      }

      // In one order on every node too: the month rows are the locks every put of a month shares.
      const sums = [...deltas.values()]
        .filter((d) => d.tasks !== 0 || d.succeeded !== 0 || d.failed !== 0 || d.credits !== 0)
        .sort((a, b) => (a.month === b.month ? (a.by < b.by ? -1 : 1) : a.month < b.month ? -1 : 1));
      if (sums.length > 0) {
        await client.query(
          `INSERT INTO ${monthsTable} AS m (room, month, "by", tasks, succeeded, failed, credits)
           SELECT $1, u.month, u."by", u.tasks, u.succeeded, u.failed, u.credits
           FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::float8[])
             WITH ORDINALITY AS u(month, "by", tasks, succeeded, failed, credits, n)
           ORDER BY u.n
           ON CONFLICT (room, month, "by") DO UPDATE SET
             tasks = m.tasks + excluded.tasks, succeeded = m.succeeded + excluded.succeeded,
             failed = m.failed + excluded.failed, credits = m.credits + excluded.credits`,
          [
            room,
            sums.map((s) => s.month),
            sums.map((s) => s.by),
            sums.map((s) => s.tasks),
            sums.map((s) => s.succeeded),
            sums.map((s) => s.failed),
            sums.map((s) => s.credits),
          ],
        );
      }
    });

  async function put(room: string, tasks: readonly StoredTask[]): Promise<void> {
    const ordered = latest(tasks);
    if (ordered.length === 0) return;
    await ensureTables();
    // The sorted locks make a deadlock between two puts unlikely, not impossible (a row one put finds and
    // the other inserts): PostgreSQL then fails one of them, which loses nothing and is tried again.
    await retried(() => putOnce(room, ordered));
  }

  /**
   * One attempt at an attach. The rows are locked before they are read, in task id order as a put locks
   * them: two nodes attaching to one task at once merge one after the other, neither losing the other's.
   */
  const attachOnce = (room: string, items: readonly TaskAttachments[], ids: readonly string[]) =>
    transaction(async (client) => {
      const { rows } = await client.query<{ task_id: string; attached: string | null }>(
        `SELECT task_id, attached FROM ${tasksTable}
         WHERE room = $1 AND task_id = ANY($2::text[]) ORDER BY task_id FOR UPDATE`,
        [room, ids],
      );
      const kept = new Map(rows.map((r) => [r.task_id, attachmentsOf(r.task_id, r.attached)]));
      const over = new Set<string>();
      for (const item of items) {
        if (!kept.has(item.taskId) || over.has(item.taskId)) continue;
        const merged = mergeWithin(kept.get(item.taskId), item);
        if (merged) kept.set(item.taskId, merged);
        else over.add(item.taskId);
      }
      for (const taskId of over) kept.delete(taskId);
      const merged = [...kept.values()].filter((a) => a !== undefined);
      if (merged.length > 0) {
        await client.query(
          `UPDATE ${tasksTable} t SET attached = u.attached
           FROM unnest($2::text[], $3::text[]) AS u(task_id, attached)
           WHERE t.room = $1 AND t.task_id = u.task_id`,
          [
            room,
            merged.map((a) => a.taskId),
            merged.map((a) => (hasAttachments(a) ? storedAttachments(a) : null)),
          ],
        );
      }
      return new Set(kept.keys());
    });

  async function attach(room: string, items: readonly TaskAttachments[]): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    await ensureTables();
    const ids = [...new Set(items.map((i) => i.taskId))].sort();
    return retried(() => attachOnce(room, items, ids));
  }

  async function page(room: string, query: HistoryPageQuery): Promise<HistoryPage> {
    const limit = query.limit ?? 200;
    const cursor = query.before === undefined ? undefined : decodeCursor(query.before);
    if (query.before !== undefined && !cursor) return { tasks: [], next: null, attached: [] };
    await ensureTables();
    const params: unknown[] = [room];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where = ['room = $1'];
    if (query.by !== undefined) where.push(`"by" = ${param(query.by)}`);
    if (query.month !== undefined) {
      const { from, to } = monthRangeOf(query.month);
      where.push(`created_at >= ${param(from)} AND created_at < ${param(to)}`);
    }
    // A row comparison, which the (room, created_at DESC, task_id DESC) index serves as one range.
    if (cursor) where.push(`(created_at, task_id) < (${param(cursor.createdAt)}, ${param(cursor.taskId)})`);
    // Both sides are lower case already (storedTaskOf, searchWords), so LIKE matches as SQLite's instr.
    for (const word of wordsOf(query)) where.push(`"text" LIKE ${param(anywhere(word))}`);
    const { rows } = await pool.query<PageRow>(
      `SELECT record, created_at, task_id, attached FROM ${tasksTable} WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, task_id DESC LIMIT ${param(limit + 1)}`,
      params,
    );
    return pageOf(rows, limit);
  }

  return {
    put,
    attach,
    page,
    months: async (room) => {
      await ensureTables();
      const { rows } = await pool.query<MonthSummary>(
        `SELECT month, "by", tasks, succeeded, failed, credits FROM ${monthsTable}
         WHERE room = $1 AND tasks > 0 ORDER BY month, "by"`,
        [room],
      );
      return rows;
    },
    count: async (room) => {
      await ensureTables();
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${tasksTable} WHERE room = $1`,
        [room],
      );
      return Number(rows[0]?.n ?? 0);
    },
    // The pool is the caller's (the node shares it with its persistence): it ends it.
    close: async () => undefined,
  };
}

/** The tasks' columns as arrays, for unnest: one statement however many tasks a put carries. */
function columns(tasks: readonly StoredTask[]) {
  return [
    tasks.map((t) => t.taskId),
    tasks.map((t) => t.createdAt),
    tasks.map((t) => t.by),
    tasks.map((t) => t.status),
    tasks.map((t) => t.credits),
    // Text rather than jsonb: the record comes back as the document held it (key order, -0, every
    // number's digits), and jsonb would refuse a \u0000 in a string that JSON allows.
    tasks.map((t) => JSON.stringify(t.record)),
    tasks.map((t) => searchable(t.text)),
  ];
}
