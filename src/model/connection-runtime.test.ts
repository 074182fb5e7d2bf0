import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, expect, it } from 'vitest';
import { ApiClient } from '../api/client';
import { DB_NAME, db, resetDbForTests, type OutboxEntry } from './db';
import { ConnectionRuntime } from './connection-runtime';

// Opening a connection's runtime: what its outbox holds is read back before the runtime is handed to the
// studio, whose first render with it is a transition (use-tasks.ts). A list that changed under that
// render made React render all of it again in one long task.

const CONN = 'conn-runtime';

afterEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

it('hands the runtime over with the outbox’s unanswered submits already listed', async () => {
  const entry: OutboxEntry = {
    idempotencyKey: 'left-by-a-reload-0001',
    connectionId: CONN,
    request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: 'a red fox' } },
    meta: {
      title: 'Model One',
      subtitle: 'v1',
      kind: 'model',
      mediaType: 'image',
      category: 'image/default',
      modelId: 'm1',
      versionId: 'v1',
      estimatedSeconds: 8,
      quotedCredits: 4,
    },
    createdAt: Date.now() - 60_000,
    attempts: 1,
    lastAttemptAt: null,
    lastError: null,
  };
  await (await db()).put('outbox', entry);
  // The service never answers: the re-send stays in flight, and the entry in the list.
  const api = new ApiClient({
    baseUrl: 'https://api.test/v1',
    apiKey: 'k',
    fetch: () => new Promise(() => {}),
  });
  const runtime = await ConnectionRuntime.open({
    api,
    connectionId: CONN,
    prior: { concurrency: 3, confirmed: true, tasksPerMin: 60 },
    storage: null,
  });
  try {
    // At once, with no turn of the event loop for a read to land in.
    expect(runtime.outbox.entries().map((e) => e.idempotencyKey)).toEqual([entry.idempotencyKey]);
  } finally {
    runtime.close();
  }
});
