import 'fake-indexeddb/auto';
import { afterEach, expect, it } from 'vitest';
import { ApiClient } from '../api/client';
import { CONNECTION, freshDatabase, makeSending } from '../test/gallery-test-utils';
import { db } from './db';
import { ConnectionRuntime } from './connection-runtime';

// Opening a connection's runtime: what its outbox holds is read back before the runtime is handed to the
// studio, whose first render with it is a transition (use-tasks.ts). A list that changed under that
// render made React render all of it again in one long task.

afterEach(freshDatabase);

it('hands the runtime over with the outbox’s unanswered submits already listed', async () => {
  // Left by a reload a minute ago: inside the re-send window, so it is sent again.
  const entry = { ...makeSending('left-by-a-reload-0001', 'a red fox'), createdAt: Date.now() - 60_000 };
  await (await db()).put('outbox', entry);
  // The service never answers: the re-send stays in flight, and the entry in the list.
  const api = new ApiClient({
    baseUrl: 'https://api.test/v1',
    apiKey: 'k',
    fetch: () => new Promise(() => {}),
  });
  const runtime = await ConnectionRuntime.open({
    api,
    connectionId: CONNECTION,
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
