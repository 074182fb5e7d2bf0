import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthContribution, monthOf, type MonthSummary } from '../../contract/team-history';
import { comment, historyStoreConformance, said, stored, taskRecord } from './history-store.conformance';
import { type StoredTask } from './history-store';
import { postgresHistoryStore } from './history-postgres';
import { startPostgres, type RunningService } from './test-services';

// The PostgreSQL history store against a real PostgreSQL (test-services.ts): the behaviour both stores
// share (history-store.conformance.ts), and what only a store several nodes write must do.

let postgres: RunningService | undefined;
const pools: pg.Pool[] = [];
let shared: pg.Pool | undefined;
let tables = 0;

function newPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgres!.url, max: 4 });
  pools.push(pool);
  return pool;
}

/** Tables of its own for each test (one database for the file): no test sees another's rows. */
const freshPrefix = () => `history_${++tables}`;

beforeAll(async () => {
  postgres = await startPostgres();
  shared = newPool();
}, 40_000);

/**
 * Ends a pool once its connections have closed: pool.end() answers before they have, and one still open
 * when PostgreSQL stops gets its "terminating connection" as an uncaught error.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      if (++closed === open) resolve();
    });
  });
  await pool.end();
  await allClosed;
}

afterAll(async () => {
  await Promise.all(pools.map(endPool));
  await postgres?.stop();
}, 20_000);

const DAY = 86_400_000;

/** The month rows a set of tasks makes, each task once, as months() answers them. */
function expectedMonths(tasks: readonly StoredTask[]): MonthSummary[] {
  const sums = new Map<string, MonthSummary>();
  for (const task of tasks) {
    const c = monthContribution(task);
    const key = `${c.month} ${c.by}`;
    const sum = sums.get(key) ?? { month: c.month, by: c.by, tasks: 0, succeeded: 0, failed: 0, credits: 0 };
    sum.tasks += c.tasks;
    sum.succeeded += c.succeeded;
    sum.failed += c.failed;
    sum.credits += c.credits;
    sums.set(key, sum);
  }
  return [...sums.values()].sort((a, b) =>
    a.month === b.month ? (a.by < b.by ? -1 : 1) : a.month < b.month ? -1 : 1,
  );
}

describe('the PostgreSQL history store', () => {
  historyStoreConformance(async () => postgresHistoryStore(shared!, { prefix: freshPrefix() }));

  it('two puts of the same tasks at once (two nodes) keep one row each and the month sums right', async () => {
    const prefix = freshPrefix();
    // Two nodes: a store and a pool each, the same tables (created by whichever comes first).
    const a = postgresHistoryStore(newPool(), { prefix });
    const b = postgresHistoryStore(newPool(), { prefix });
    const start = Date.UTC(2026, 0, 1);
    const make = (n: number, finished: boolean) =>
      stored(
        taskRecord(n, {
          by: n % 2 ? 'ada' : 'bob',
          createdAt: start + n * (DAY / 4),
          status: finished ? (n % 7 ? 'succeeded' : 'failed') : 'running',
          credits: finished ? n % 5 : 0,
        }),
      );
    const ns = Array.from({ length: 200 }, (_, i) => i + 1);
    const first = ns.map((n) => make(n, n % 3 !== 0));
    const second = ns.map((n) => make(n, true));
    expect(new Set(first.map((t) => monthOf(t.createdAt)))).toEqual(new Set(['2026-01', '2026-02']));
    // Tables made and a connection open on both first, so the two puts below start together.
    await Promise.all([a.count('team:warm'), b.count('team:warm')]);

    // In several rooms, as the race of two puts may go either way in one.
    for (const room of ['team:a', 'team:b', 'team:c', 'team:d', 'team:e']) {
      // Every task new to both (neither can lock a row the other is inserting), a third of them
      // unfinished; the second node's in the other order.
      await Promise.all([a.put(room, first), b.put(room, [...first].reverse())]);
      expect(await a.count(room)).toBe(200);
      expect(await b.months(room)).toEqual(expectedMonths(first));

      // Every row there: both replace the unfinished ones at once, and only one may subtract each.
      await Promise.all([a.put(room, second), b.put(room, [...second].reverse())]);
      expect(await b.count(room)).toBe(200);
      expect(await a.months(room)).toEqual(expectedMonths(second));
      const page = await a.page(room, { limit: 500 });
      expect(page.tasks).toHaveLength(200);
      expect(page.tasks).toContainEqual(
        taskRecord(3, { by: 'ada', createdAt: start + 3 * (DAY / 4), status: 'succeeded', credits: 3 }),
      );
    }
    await Promise.all([a.close(), b.close()]);
  }, 30_000);

  it('two attaches to the same tasks at once (two nodes) keep both merges, a put at once keeps them too', async () => {
    const prefix = freshPrefix();
    const a = postgresHistoryStore(newPool(), { prefix });
    const b = postgresHistoryStore(newPool(), { prefix });
    const tasks = Array.from({ length: 20 }, (_, i) => stored(taskRecord(i + 1)));
    await a.put('team:a', tasks);
    await Promise.all([a.count('team:warm'), b.count('team:warm')]);
    const ns = tasks.map((_, i) => i + 1);
    const all = new Set(tasks.map((t) => t.taskId));
    const rounds = 8;
    for (let r = 0; r < rounds; r++) {
      // Each node twice at once, over every task, in opposite orders; and a put of them all.
      const from = (node: string, order: number[]) =>
        order.map((n) =>
          said(
            n,
            { [`${node}|o#${r}`]: { starred: true, updatedAt: r } },
            { [`${node}${r}`]: comment(`${node}${r}`, node) },
          ),
        );
      const answers = await Promise.all([
        a.attach('team:a', from('ada', ns)),
        a.attach('team:a', from('ann', [...ns].reverse())),
        b.attach('team:a', from('bob', [...ns].reverse())),
        b.attach('team:a', from('bea', ns)),
        b.put('team:a', [...tasks].reverse()),
      ]);
      for (const answer of answers.slice(0, 4)) expect(answer).toEqual(all);
    }
    const page = await b.page('team:a', { limit: 500 });
    expect(page.tasks).toHaveLength(20);
    expect(page.attached).toHaveLength(20);
    for (const attached of page.attached) {
      expect(Object.keys(attached.judgements)).toHaveLength(4 * rounds);
      expect(Object.keys(attached.comments)).toHaveLength(4 * rounds);
    }
    expect(await a.count('team:a')).toBe(20);
    await Promise.all([a.close(), b.close()]);
  }, 30_000);

  it('opens tables made before tasks kept attachments: adds the column, and attach works on their rows', async () => {
    const prefix = freshPrefix();
    const pool = newPool();
    // The tasks table as it was made before the attached column, with a row.
    await pool.query(
      `CREATE TABLE ${prefix}_tasks (
         room text NOT NULL, task_id text COLLATE "C" NOT NULL, created_at bigint NOT NULL, "by" text NOT NULL,
         status text NOT NULL, credits double precision NOT NULL, record text NOT NULL, "text" text NOT NULL,
         PRIMARY KEY (room, task_id)
       )`,
    );
    const old = stored(taskRecord(1));
    await pool.query(`INSERT INTO ${prefix}_tasks VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      'team:a',
      old.taskId,
      old.createdAt,
      old.by,
      old.status,
      old.credits,
      JSON.stringify(old.record),
      old.text,
    ]);
    const store = postgresHistoryStore(pool, { prefix });
    const one = said(1, {}, { c1: comment('c1', 'still here') });
    expect(await store.attach('team:a', [one])).toEqual(new Set(['task-000001']));
    expect(await store.page('team:a', {})).toEqual({ tasks: [old.record], next: null, attached: [one] });
  });
});
