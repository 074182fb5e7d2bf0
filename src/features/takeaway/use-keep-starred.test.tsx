import 'fake-indexeddb/auto';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../model/db';
import type { HistoryEntry } from '../../model/history/history-types';
import { JudgementStore } from '../../model/history/judgements';
import { KEEP_RETRY_MS, KeepersStore } from '../../model/history/keepers';
import { CDN, CONNECTION, freshDatabase, makeEntry } from '../../test/gallery-test-utils';
import { useKeepStarred } from './use-keep-starred';

// What keeping the starred outputs costs on each change of the history (every poll answer is one):
// nothing, unless an output waits for its task or a failed save's back-off is over.

beforeEach(freshDatabase);
afterEach(cleanup);

/** A history the hook reads through `get` (counted) and whose changes it hears. */
function history(entries: HistoryEntry[]) {
  const byId = new Map(entries.map((e) => [e.taskId, e]));
  const listeners = new Set<() => void>();
  return {
    get: vi.fn((taskId: string) => byId.get(taskId)),
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** A poll answer: the history changed (`entry` arrived or was updated). */
    change(entry?: HistoryEntry) {
      if (entry) byId.set(entry.taskId, entry);
      for (const l of listeners) l();
    },
  };
}

/** Every output URL has expired. */
const deadFetch = () => vi.fn(async () => new Response('gone', { status: 410 }));
const entries = Array.from({ length: 50 }, (_, i) =>
  makeEntry(`t${i}`, { outputs: [{ url: `${CDN}/t${i}.png` }] }),
);

async function setup(now: () => number = Date.now) {
  const fetch = deadFetch();
  const keepers = await KeepersStore.open(CONNECTION, { db, fetch, now });
  const judgements = await JudgementStore.open(CONNECTION, { db });
  const h = history(entries);
  renderHook(() => useKeepStarred(h, judgements, keepers));
  return { fetch, keepers, judgements, h };
}

describe('useKeepStarred', () => {
  it('a history change with nothing waiting makes no request and looks up no task; a dismissed alert stays dismissed', async () => {
    const { fetch, keepers, judgements, h } = await setup();
    await act(() => judgements.setStarred(['t1#0', 't2#0', 't3#0'], true));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
    await waitFor(() => expect(keepers.snapshot().saving).toBe(0));
    expect(keepers.snapshot().failure?.reason).toBe('fetch');
    act(() => keepers.dismissFailure());
    h.get.mockClear();

    for (let i = 0; i < 100; i++) act(() => h.change());
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(h.get).not.toHaveBeenCalled();
    expect(keepers.snapshot().failure).toBeNull();
  });

  it('a starred output whose task is not listed yet is saved when the history lists it, then looked up no more', async () => {
    const { fetch, judgements, h } = await setup();
    await act(() => judgements.setStarred(['later#0'], true));
    expect(fetch).not.toHaveBeenCalled();
    act(() => h.change());
    expect(fetch).not.toHaveBeenCalled();
    act(() => h.change(makeEntry('later', { outputs: [{ url: `${CDN}/later.png` }] })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(String(fetch.mock.calls[0]![0 as never])).toBe(`${CDN}/later.png`);
    h.get.mockClear();
    for (let i = 0; i < 10; i++) act(() => h.change());
    expect(h.get).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('once the back-off is over, the next history change tries the failed saves again, once', async () => {
    let now = 1_000_000;
    const { fetch, keepers, judgements, h } = await setup(() => now);
    await act(() => judgements.setStarred(['t1#0', 't2#0'], true));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(keepers.snapshot().saving).toBe(0));
    now += KEEP_RETRY_MS - 1;
    act(() => h.change());
    expect(fetch).toHaveBeenCalledTimes(2);
    now += 1;
    act(() => h.change());
    act(() => h.change());
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(4));
    await waitFor(() => expect(keepers.snapshot().saving).toBe(0));
    act(() => h.change());
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('un-starring lets a remembered failure go, so starring again tries at once', async () => {
    const { fetch, keepers, judgements } = await setup();
    await act(() => judgements.setStarred(['t1#0'], true));
    await waitFor(() => expect([...keepers.failedKeys()]).toEqual(['t1#0']));
    await act(() => judgements.setStarred(['t1#0'], false));
    expect([...keepers.failedKeys()]).toEqual([]);
    await act(() => judgements.setStarred(['t1#0'], true));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });
});
