import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from './db';

beforeEach(async () => {
  resetDbForTests();
  await deleteDB(DB_NAME);
});

describe('db', () => {
  it('opens a fresh database with every store', async () => {
    const database = await db();
    expect([...database.objectStoreNames]).toContain('catalog');
    database.close();
  });

  it('aborts an upgrade that fails after an await, leaving the old version for the next load', async () => {
    // A v1 database that already has a store v3 creates: the upgrade throws past its first await.
    const old = await openDB(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('outbox', { keyPath: 'idempotencyKey' });
        database.createObjectStore('tasks', { keyPath: 'taskId' });
        database.createObjectStore('uploads');
      },
    });
    old.close();
    await expect(db()).rejects.toThrow();
    const after = await openDB(DB_NAME);
    expect(after.version).toBe(1);
    expect([...after.objectStoreNames]).not.toContain('boards');
    after.close();
  });
});
