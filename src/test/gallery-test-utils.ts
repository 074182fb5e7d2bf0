import { act, fireEvent, waitFor } from '@testing-library/react';
import { deleteDB } from 'idb';
import { expect } from 'vitest';
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

/** `n` tasks a minute apart, oldest first: enough for a virtual list to scroll through. */
export const manyEntries = (n: number): HistoryEntry[] =>
  Array.from({ length: n }, (_, i) =>
    makeEntry(`task_${String(i).padStart(5, '0')}`, {
      createdAt: T0 + i * 60_000,
      params: { prompt: `prompt number ${i}` },
    }),
  );

/**
 * Scrolls `scroller` down by `px`, waits for the list to render again (`renders` counts its renders)
 * and then for `changed` to hold.
 */
export async function scrollBy(
  scroller: HTMLElement,
  px: number,
  renders: () => number,
  changed: () => void,
): Promise<void> {
  const before = renders();
  act(() => {
    scroller.scrollTop += px;
    fireEvent.scroll(scroller);
  });
  await waitFor(() => expect(renders()).toBeGreaterThan(before));
  await waitFor(changed);
}

/**
 * A batch of three (one click's tasks) whose credits (9, 1, 5) put it first, last and in the middle by
 * "Most credits", and two tasks made alone (charged 7 and 3).
 */
export function batchAndTwoAlone(): HistoryEntry[] {
  const batch = (n: number, credits: number) =>
    makeEntry(`b${n}`, {
      createdAt: T0 + 100 + n,
      creditsCharged: credits,
      params: { prompt: `variation ${n}` },
      meta: { batchId: 'B1', batchIndex: n, batchSize: 3 },
    });
  return [
    makeEntry('s1', { createdAt: T0 + 500, creditsCharged: 7, params: { prompt: 'alone one' } }),
    batch(3, 5),
    batch(2, 1),
    batch(1, 9),
    makeEntry('s2', { createdAt: T0, creditsCharged: 3, params: { prompt: 'alone two' } }),
  ];
}
