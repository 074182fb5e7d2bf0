import { Hocuspocus } from '@hocuspocus/server';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqlitePersistence } from './persistence-sqlite';

// The embedded SQLite persistence, through Hocuspocus as the team-space server uses it. No better-sqlite3
// object it makes may ever be garbage-collected (docs/testing.md, "Node 24"): the first test checks that
// rooms are stored and loaded by statements prepared once, not one per call; the second runs the case
// that aborted the process under Node 24 (it can fail only there: the Node 24 check runs it).

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'team-space-sqlite-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite persistence', () => {
  it('stores and loads rooms through statements prepared once for the database', async () => {
    const persistence = sqlitePersistence(dataDir());
    const hocuspocus = new Hocuspocus({ quiet: true, extensions: [persistence.extension] });
    await vi.waitFor(() => expect(persistence.extension.db?.open).toBe(true));
    const prepare = vi.spyOn(persistence.extension.db, 'prepare');
    const rooms = Array.from({ length: 20 }, (_, i) => `room-${i}`);
    for (const room of rooms) {
      const connection = await hocuspocus.openDirectConnection(room);
      await connection.transact((doc) => doc.getText('t').insert(0, `the text of ${room}`));
      await connection.disconnect();
    }
    for (const room of rooms) {
      const connection = await hocuspocus.openDirectConnection(room);
      expect(connection.document?.getText('t').toString()).toBe(`the text of ${room}`);
      await connection.disconnect();
    }
    // 20 rooms loaded twice and stored twice: the select and the upsert, and the log's append, rows and
    // remove, each prepared once.
    expect(prepare).toHaveBeenCalledTimes(5);
    persistence.close();
    expect(persistence.extension.db?.open).toBe(false);
  });

  it('a process that opens, uses and closes many databases, collecting garbage outside any context, ends cleanly', async () => {
    const fixture = join(import.meta.dirname, 'persistence-sqlite-gc.fixture.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], {
      timeout: 60_000,
    });
    expect(stdout).toContain('persistence-sqlite-gc: every round done');
  });
});
