import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../history/history-types';
import { allHistories, knownConnections, loadKeyLabels, rememberKeyLabel } from './usage-source';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  localStorage.clear();
});

const entry = (taskId: string, createdAt: number): HistoryEntry => ({
  taskId,
  connectionId: 'x',
  request: { interfaceId: 'lumen', versionId: 'v1', params: {} },
  meta: {
    title: 'Lumen',
    subtitle: 'v1',
    kind: 'model',
    mediaType: 'image',
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status: 'succeeded',
  outputs: [],
  error: null,
  creditsCharged: 2,
  createdAt,
  completedAt: createdAt + 1000,
  unseen: false,
});

describe('usage source', () => {
  it('finds every connection with tasks, and reads each one’s history', async () => {
    const a = await HistoryStore.open('conn-a');
    const b = await HistoryStore.open('conn-b');
    for (let i = 0; i < 5; i++) await a.put(entry(`a${i}`, i));
    await b.put(entry('b0', 1));
    await (await db()).put('tasks', { connectionId: 'conn-b', taskId: 'junk' } as unknown as HistoryEntry);
    expect(await knownConnections()).toEqual(['conn-a', 'conn-b']);
    const all = await allHistories();
    expect(all.get('conn-a')).toHaveLength(5);
    expect(all.get('conn-b')!.map((e) => [e.taskId, e.connectionId])).toEqual([['b0', 'conn-b']]);
  });

  it('no tasks, no connections', async () => {
    expect(await knownConnections()).toEqual([]);
  });

  it('remembers labels and prefixes per connection; a damaged record reads as none', () => {
    rememberKeyLabel('conn-a', 'Personal', 'sk_live_ab');
    rememberKeyLabel('conn-b', 'CI', 'sk_live_cd');
    expect(loadKeyLabels()).toEqual({
      'conn-a': { label: 'Personal', prefix: 'sk_live_ab' },
      'conn-b': { label: 'CI', prefix: 'sk_live_cd' },
    });
    localStorage.setItem('media-studio:key-labels', '{"conn-a": 5}');
    expect(loadKeyLabels()).toEqual({});
    localStorage.setItem('media-studio:key-labels', 'not json');
    expect(loadKeyLabels()).toEqual({});
  });
});
