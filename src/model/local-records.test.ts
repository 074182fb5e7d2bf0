import 'fake-indexeddb/auto';
import { deleteDB, type IDBPDatabase } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { DB_NAME, db, openStudioDb, resetDbForTests, type StudioDB } from './db';
import { LocalRecords, type WriteErrorReporter } from './local-records';

const A = 'conn-a';
const B = 'conn-b';
const OTHER_DB = 'local-records-test';

const JudgementSchema = z.object({
  outputKey: z.string().check(z.regex(/^.+#\d+$/)),
  starred: z.boolean(),
});

let database: IDBPDatabase<StudioDB>;
const given = () => Promise.resolve(database);

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  await deleteDB(OTHER_DB);
  database = await openStudioDb(OTHER_DB);
});
afterEach(() => {
  vi.restoreAllMocks();
  database.close();
});

const records = (connectionId: string, onError: WriteErrorReporter = vi.fn()) =>
  new LocalRecords('judgements', connectionId, JudgementSchema, { db: given, onError });

describe('LocalRecords', () => {
  it('reads the records of its connection only', async () => {
    await database.put('judgements', { connectionId: A, outputKey: 't1#0', starred: true });
    await database.put('judgements', { connectionId: B, outputKey: 't2#0', starred: true });
    await database.put('judgements', { connectionId: B, outputKey: 't1#0', starred: false });

    expect(await records(A).load()).toEqual([{ outputKey: 't1#0', starred: true }]);
    expect((await records(B).load()).map((r) => r.outputKey).sort()).toEqual(['t1#0', 't2#0']);
  });

  it('leaves out a record that does not parse and reads the others', async () => {
    await database.put('judgements', { connectionId: A, outputKey: 't1#0', starred: true });
    await database.put('judgements', { connectionId: A, outputKey: 't2#0', starred: 'yes' });
    await database.put('judgements', { connectionId: A, outputKey: 'no index', starred: false });

    const a = records(A);
    expect(await a.load()).toEqual([{ outputKey: 't1#0', starred: true }]);
    expect(await a.get('t2#0')).toBeUndefined();
    expect(await a.get('t1#0')).toEqual({ outputKey: 't1#0', starred: true });
  });

  it('writes to the database it is handed, with its connection, and not to the studio’s own', async () => {
    await records(A).write([{ put: { outputKey: 't1#0', starred: true } }]);

    expect(await database.get('judgements', [A, 't1#0'])).toEqual({
      connectionId: A,
      outputKey: 't1#0',
      starred: true,
    });
    expect(await (await db()).count('judgements')).toBe(0);
  });

  it('has no database of its own to fall back on: it is opened with one (checked by tsc over the tests)', async () => {
    await (await db()).put('judgements', { connectionId: A, outputKey: 't1#0', starred: true });
    // @ts-expect-error: `db` is required.
    const alone = new LocalRecords('judgements', A, JudgementSchema, {});

    await expect(alone.load()).rejects.toThrow(TypeError);
  });

  it('writes the changes in their order, in one transaction', async () => {
    const a = records(A);
    await a.write([{ put: { outputKey: 't1#0', starred: true } }, { remove: 't1#0' }]);
    expect(await a.load()).toEqual([]);
    await a.write([
      { remove: 't1#0' },
      { put: { outputKey: 't1#0', starred: true } },
      { put: { outputKey: 't2#0', starred: false } },
    ]);
    expect((await a.load()).map((r) => r.outputKey)).toEqual(['t1#0', 't2#0']);
  });

  it('tells the reporter of a write that fails (a full disk), then rejects with its error', async () => {
    const onError = vi.fn<WriteErrorReporter>();
    const full = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementationOnce(() => {
      throw full;
    });

    const writing = records(A, onError).write([{ put: { outputKey: 't1#0', starred: true } }]);

    await expect(writing).rejects.toBe(full);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(full, 'judgements');
    expect(await database.count('judgements')).toBe(0);
  });

  it('tells the reporter when the database cannot be had for a write', async () => {
    const onError = vi.fn<WriteErrorReporter>();
    const refused = new Error('storage turned off');
    const a = new LocalRecords('judgements', A, JudgementSchema, {
      db: () => Promise.reject(refused),
      onError,
    });

    await expect(a.write([{ remove: 't1#0' }])).rejects.toBe(refused);
    expect(onError).toHaveBeenCalledWith(refused, 'judgements');
  });

  it('commit() rejects without the reporter: its caller says the failure in its own words', async () => {
    const onError = vi.fn<WriteErrorReporter>();
    const full = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementationOnce(() => {
      throw full;
    });

    await expect(records(A, onError).commit([{ put: { outputKey: 't1#0', starred: true } }])).rejects.toBe(
      full,
    );
    expect(onError).not.toHaveBeenCalled();
  });
});
