import { deleteDB } from 'idb';
import { DB_NAME, db, resetDbForTests, type OutboxEntry } from '../model/db';
import { HistoryStore } from '../model/history/history-store';
import { setTeamEntries } from '../model/team/team-tasks';
import type { HistoryEntry } from '../model/history/history-types';

// Test helpers for the gallery: history entries shaped as the app writes them, a HistoryStore over a
// fresh fake IndexedDB (tests import 'fake-indexeddb/auto'), and layout sizes happy-dom does not compute.

export const CONNECTION = 'conn-test';
export const CDN = 'https://cdn.example.test/out';
export const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);

type EntryInit = Omit<Partial<HistoryEntry>, 'meta' | 'request'> & {
  meta?: Partial<HistoryEntry['meta']>;
  params?: HistoryEntry['request']['params'];
};

export function makeEntry(taskId: string, init: EntryInit = {}): HistoryEntry {
  const { meta, params, ...rest } = init;
  return {
    taskId,
    connectionId: CONNECTION,
    request: {
      interfaceId: 'lumen-canvas',
      versionId: 'lumen-2',
      params: params ?? { prompt: `prompt of ${taskId}` },
    },
    meta: {
      title: 'Lumen Canvas',
      subtitle: 'v2',
      kind: 'model',
      mediaType: 'image',
      category: 'image/default',
      modelId: 'lumen-canvas',
      versionId: 'lumen-2',
      estimatedSeconds: 12,
      quotedCredits: 4,
      ...meta,
    },
    status: 'succeeded',
    outputs: [{ url: `${CDN}/${taskId}.jpg` }],
    error: null,
    creditsCharged: 4,
    createdAt: T0,
    completedAt: T0 + 9_000,
    unseen: false,
    ...rest,
  };
}

export function makeSending(idempotencyKey: string, prompt: string): OutboxEntry {
  const entry = makeEntry('unused', { params: { prompt } });
  return {
    idempotencyKey,
    connectionId: CONNECTION,
    request: entry.request,
    meta: entry.meta,
    createdAt: T0,
    attempts: 2,
    lastAttemptAt: T0,
    lastError: 'Network error',
  };
}

/** A fresh, empty database: close the previous test's handle, forget it, delete the database. */
export async function freshDatabase(): Promise<void> {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
}

/** A store holding `entries`, written in one transaction (through the store's own import). */
export async function storeWith(entries: HistoryEntry[], connectionId = CONNECTION): Promise<HistoryStore> {
  const store = await HistoryStore.open(connectionId);
  // Another member's tasks (`by`) come from the team space, in memory, never from a file or the disk.
  const own = entries.filter((e) => !e.by);
  const team = entries.filter((e) => e.by);
  if (own.length) {
    await store.importJson(
      JSON.stringify({
        format: 'media-studio-history',
        version: 1,
        exportedAt: new Date(T0).toISOString(),
        tasks: own,
      }),
    );
  }
  if (team.length) setTeamEntries(store, team);
  return store;
}

/**
 * happy-dom lays nothing out (every size is 0), so the virtualizer would see an empty viewport. Give
 * the scroll container a 600 px viewport and every card a 120 px height; returns the restore function.
 */
export function stubLayout(viewport = 600, item = 120): () => void {
  const proto = HTMLElement.prototype;
  const saved = {
    clientHeight: Object.getOwnPropertyDescriptor(proto, 'clientHeight'),
    offsetHeight: Object.getOwnPropertyDescriptor(proto, 'offsetHeight'),
  };
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => viewport });
  Object.defineProperty(proto, 'offsetHeight', { configurable: true, get: () => item });
  return () => {
    for (const [key, descriptor] of Object.entries(saved)) {
      if (descriptor) Object.defineProperty(proto, key, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[key];
    }
  };
}
