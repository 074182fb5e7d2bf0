import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../db';
import type { HistoryEntry } from '../history/history-types';
import { createdEntry } from './created-entry';

const outbox: OutboxEntry = {
  idempotencyKey: 'key-1',
  connectionId: 'conn',
  request: { interfaceId: 'm', versionId: 'v', params: { prompt: 'a fox' } },
  meta: {
    title: 'Model',
    subtitle: 'v',
    kind: 'model',
    mediaType: 'image',
    estimatedSeconds: 4,
    quotedCredits: 3,
  },
  createdAt: 1_000,
  attempts: 1,
  lastAttemptAt: 1_000,
  lastError: null,
};

describe('createdEntry', () => {
  it('records a new task as the create answer says: queued, the quoted credits, the key', () => {
    const entry = createdEntry(
      outbox,
      { taskId: 't1', status: 'queued', modelId: 'm', versionId: 'v' },
      undefined,
      'conn',
    );
    expect(entry).toMatchObject({
      taskId: 't1',
      connectionId: 'conn',
      status: 'queued',
      outputs: [],
      creditsCharged: 3,
      createdAt: 1_000,
      idempotencyKey: 'key-1',
      request: outbox.request,
    });
  });

  // Regression: an idempotent repeat answered "succeeded"; recorded as such with no outputs, the task was
  // never polled, and its paid output never appeared.
  it('an idempotent repeat that says the task is already finished is still recorded for polling', () => {
    for (const status of ['succeeded', 'failed', 'cancelled'] as const) {
      const entry = createdEntry(
        outbox,
        { taskId: 't1', status, modelId: 'm', versionId: 'v', idempotent: true },
        undefined,
        'conn',
      );
      expect(entry.status).toBe('queued');
      expect(entry.outputs).toEqual([]);
    }
    const running = createdEntry(
      outbox,
      { taskId: 't1', status: 'running', modelId: 'm', versionId: 'v', idempotent: true },
      undefined,
      'conn',
    );
    expect(running.status).toBe('running');
  });

  it('what a poll already recorded wins over the create answer', () => {
    const polled = {
      ...createdEntry(
        outbox,
        { taskId: 't1', status: 'queued', modelId: 'm', versionId: 'v' },
        undefined,
        'conn',
      ),
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.example/o.png' }],
      creditsCharged: 2,
      completedAt: 5_000,
      createdAt: 900,
    } satisfies HistoryEntry;
    const entry = createdEntry(
      outbox,
      { taskId: 't1', status: 'queued', modelId: 'm', versionId: 'v' },
      polled,
      'conn',
    );
    expect(entry).toMatchObject({
      status: 'succeeded',
      outputs: [{ url: 'https://cdn.example/o.png' }],
      creditsCharged: 2,
      completedAt: 5_000,
      createdAt: 900,
    });
  });
});
