import { z } from 'zod/mini';
import { IDEMPOTENCY_KEY_LENGTH } from '../../../contract/request-limits';
import { TaskRequestSchema } from '../../../contract/task';
import { db, type OutboxEntry } from '../db';
import { HistoryEntrySchema } from '../history/history-types';

// The outbox's entries in IndexedDB (outbox.ts holds the why): written before a request is sent, read
// back (parsed, never trusted) after a reload, deleted once the answer is settled. IndexedDB may be
// unavailable or full: each write says whether it took, and the outbox goes on sending with its key.

/**
 * What IndexedDB hands back is parsed, never trusted. The request keeps any field it was sent
 * with (loose): a re-send must be the identical request, never one stripped by a schema.
 */
export const StoredEntrySchema = z.object({
  idempotencyKey: z
    .string()
    .check(z.minLength(IDEMPOTENCY_KEY_LENGTH.min), z.maxLength(IDEMPOTENCY_KEY_LENGTH.max)),
  connectionId: z.string().check(z.minLength(1)),
  request: z.looseObject(TaskRequestSchema.shape),
  meta: HistoryEntrySchema.shape.meta,
  createdAt: z.number(),
  attempts: z.catch(z.int().check(z.nonnegative()), 0),
  lastAttemptAt: z.catch(z.nullable(z.number()), null),
  lastError: z.catch(z.nullable(z.string()), null),
  batchId: z.catch(z.optional(z.string()), undefined),
  held: z.catch(z.optional(z.unknown()), undefined),
});

/** The entry as stored: an item without what only this tab knows (sending, timers). */
export const toEntry = (item: OutboxEntry): OutboxEntry => ({
  idempotencyKey: item.idempotencyKey,
  connectionId: item.connectionId,
  request: item.request,
  meta: item.meta,
  createdAt: item.createdAt,
  attempts: item.attempts,
  lastAttemptAt: item.lastAttemptAt,
  lastError: item.lastError,
  ...(item.batchId === undefined ? {} : { batchId: item.batchId }),
});

/** This connection's stored entries, unparsed; null when IndexedDB cannot be read. */
export async function readStored(connectionId: string): Promise<unknown[] | null> {
  try {
    return await (await db()).getAllFromIndex('outbox', 'byConnection', connectionId);
  } catch {
    return null;
  }
}

/** Writes entries in one transaction; answers whether they reached IndexedDB. */
export async function writeStored(entries: readonly OutboxEntry[]): Promise<boolean> {
  try {
    if (entries.length === 1) {
      await (await db()).put('outbox', toEntry(entries[0]!));
      return true;
    }
    const tx = (await db()).transaction('outbox', 'readwrite');
    await Promise.all([...entries.map((entry) => tx.store.put(toEntry(entry))), tx.done]);
    return true;
  } catch {
    return false;
  }
}

export async function deleteStored(idempotencyKey: string): Promise<void> {
  try {
    await (await db()).delete('outbox', idempotencyKey);
  } catch {
    // Left behind, it is re-sent with its key at the next resume: the service answers with the same task.
  }
}

/** Whether the entry is still stored (another tab may have settled or discarded it); true when unknown. */
export async function isStored(idempotencyKey: string): Promise<boolean> {
  try {
    return (await (await db()).get('outbox', idempotencyKey)) !== undefined;
  } catch {
    // Unknown: re-sending with the same key is safe.
    return true;
  }
}
