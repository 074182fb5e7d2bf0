import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import * as Y from 'yjs';

/** better-sqlite3 (the SQLite of the team space's persistence) as far as this uses it: its types are not installed. */
interface Statement {
  run(...params: unknown[]): { lastInsertRowid: number | bigint };
  all(...params: unknown[]): unknown[];
}
interface SqliteDatabase {
  exec(source: string): void;
  prepare(source: string): Statement;
  transaction(fn: () => void): () => void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDatabase;

// Figures for choosing how a team's history grows without bound (docs/team-space.md, "History at
// scale"): what a task costs in a Yjs document and what applying a month of them costs (the join), and
// what the server's store answers for a search, a page and a per-month summary over half a million
// tasks. Run: npx tsx bench/team-history-layout.ts. It prints JSON; it writes no results file.

function task(i: number) {
  return {
    taskId: `task_${i.toString(36).padStart(10, '0')}`,
    by: `key-${i % 10}`,
    request: {
      interfaceId: 'lumen-canvas',
      versionId: 'lumen-canvas-v2',
      params: {
        prompt: `a fox in the snow number ${i} with soft light, 35mm`,
        aspect_ratio: '1:1',
        resolution: '1K',
      },
    },
    meta: {
      title: 'Lumen Canvas',
      subtitle: 'v2',
      kind: 'model',
      mediaType: 'image',
      category: 'image/default',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v2',
      estimatedSeconds: 6,
      quotedCredits: 4,
    },
    status: 'succeeded',
    outputs: [{ url: `http://127.0.0.1:4100/media/out/${i}.png`, width: 1024, height: 1024 }],
    error: null,
    creditsCharged: 4,
    createdAt: 1_700_000_000_000 + i * 1000,
    completedAt: 1_700_000_000_000 + i * 1000 + 6000,
    idempotencyKey: `0f0e0d0c-0b0a-4908-8706-${i.toString(16).padStart(12, '0')}`,
  };
}

/** A document of n tasks (each written once), its size, and one full apply of it (what a join does). */
function yjsMonth(n: number) {
  const doc = new Y.Doc();
  const map = doc.getMap('tasks');
  for (let start = 0; start < n; start += 1000) {
    doc.transact(() => {
      for (let i = start; i < Math.min(n, start + 1000); i++) map.set(task(i).taskId, task(i));
    });
  }
  const update = Y.encodeStateAsUpdate(doc);
  const t0 = performance.now();
  Y.applyUpdate(new Y.Doc(), update);
  return {
    tasks: n,
    bytes: update.length,
    bytesPerTask: Math.round(update.length / n),
    applyMs: Math.round(performance.now() - t0),
  };
}

/** The server's store: a table of tasks, a full-text index of prompts, a page, a search, a summary. */
function sqlite(n: number) {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE tasks (team TEXT, month TEXT, task_id TEXT, created_at INTEGER, by TEXT, credits REAL, json TEXT,
             PRIMARY KEY (team, task_id));
           CREATE INDEX by_time ON tasks(team, created_at DESC);
           CREATE VIRTUAL TABLE prompts USING fts5(prompt, content='', contentless_delete=1);`);
  const words = [
    'fox',
    'snow',
    'city',
    'neon',
    'portrait',
    'forest',
    'river',
    'cat',
    'robot',
    'sunset',
    'ocean',
    'mountain',
    'desert',
    'castle',
    'dragon',
  ];
  const insert = db.prepare('INSERT INTO tasks VALUES (?,?,?,?,?,?,?)');
  const index = db.prepare('INSERT INTO prompts(rowid, prompt) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const t = task(i);
      const prompt = `a ${words[i % 15]} and a ${words[(i * 7) % 15]} at ${words[(i * 11) % 15]} number ${i}`;
      const at = 1_700_000_000_000 + i * 60_000;
      const row = insert.run(
        'team',
        new Date(at).toISOString().slice(0, 7),
        t.taskId,
        at,
        t.by,
        4,
        JSON.stringify({ ...t, prompt }),
      );
      index.run(row.lastInsertRowid, prompt);
    }
  })();
  const time = (fn: () => unknown[]) => {
    const t0 = performance.now();
    const rows = fn();
    return { rows: rows.length, ms: Math.round((performance.now() - t0) * 10) / 10 };
  };
  const search = db.prepare(
    'SELECT t.task_id FROM prompts p JOIN tasks t ON t.rowid = p.rowid WHERE prompts MATCH ? ORDER BY t.created_at DESC LIMIT 200',
  );
  const page = db.prepare(
    'SELECT json FROM tasks WHERE team = ? AND created_at < ? ORDER BY created_at DESC LIMIT 500',
  );
  const summary = db.prepare(
    'SELECT month, by, count(*) AS n, sum(credits) AS credits FROM tasks WHERE team = ? GROUP BY month, by',
  );
  return {
    tasks: n,
    searchCommonWord: time(() => search.all('dragon')),
    searchRareTerm: time(() => search.all('"number 4999"')),
    pageOf500: time(() => page.all('team', 1_700_000_000_000 + (n / 2) * 60_000)),
    summaryByMonthAndMember: time(() => summary.all('team')),
  };
}

console.log(JSON.stringify({ yjs: [yjsMonth(10_000), yjsMonth(42_000)], sqlite: sqlite(500_000) }, null, 1));
