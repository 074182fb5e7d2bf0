import { Hocuspocus } from '@hocuspocus/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlitePersistence } from './persistence-sqlite';

// Run by persistence-sqlite.test.ts in a process of its own, since what it guards against is the process
// aborting (docs/testing.md, "Node 24"): many SQLite persistences opened, used for rooms, closed and
// dropped, with allocation in optimised code between them, whose garbage collections run with no
// JavaScript context entered. Any better-sqlite3 object collected by one of them ends the process there,
// under Node 24.19 or later; it prints its last line only if none was.

const root = mkdtempSync(join(tmpdir(), 'team-space-sqlite-gc-'));
const live: Array<{ i: number; values: number[] }> = [];
/** A hot loop that allocates: V8 optimises it, and a GC it starts runs outside any context. */
function churn(n: number) {
  for (let i = 0; i < n; i++) live[i & 1023] = { i, values: [i] };
}

try {
  for (let round = 0; round < 8; round++) {
    const persistence = sqlitePersistence(join(root, String(round)));
    const hocuspocus = new Hocuspocus({ quiet: true, extensions: [persistence.extension] });
    for (let room = 0; room < 20; room++) {
      const connection = await hocuspocus.openDirectConnection(`room-${room}`);
      await connection.transact((doc) => doc.getText('t').insert(0, `round ${round}, room ${room}`));
      await connection.disconnect();
    }
    persistence.close();
    churn(2_000_000);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log('persistence-sqlite-gc: every round done');
