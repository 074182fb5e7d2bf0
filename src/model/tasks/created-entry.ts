import { isTerminal, type TaskCreated } from '../../../contract/task';
import type { OutboxEntry } from '../db';
import type { HistoryEntry } from '../history/history-types';

/**
 * The history entry for a task POST /tasks just answered with. What the history already knows of the
 * task (a poll may have come first) wins. The create answer is not a status answer: an idempotent
 * repeat (api-notes §4 rule 7) may carry the task's current status, already terminal, but never its outputs,
 * charge or completion time. Recorded as terminal, the task would never be polled and its paid output
 * never shown; so a new entry is recorded as `queued` (api-notes §2: the create answer's status) and the
 * poller reads the rest from GET /tasks/{id}.
 */
export function createdEntry(
  outbox: OutboxEntry,
  created: TaskCreated,
  existing: HistoryEntry | undefined,
  connectionId: string,
): HistoryEntry {
  return {
    taskId: created.taskId,
    connectionId,
    request: outbox.request,
    meta: outbox.meta,
    status: existing?.status ?? (isTerminal(created.status) ? 'queued' : created.status),
    outputs: existing?.outputs ?? [],
    error: existing?.error ?? null,
    creditsCharged: existing?.creditsCharged ?? outbox.meta.quotedCredits,
    createdAt: existing?.createdAt ?? outbox.createdAt,
    completedAt: existing?.completedAt ?? null,
    raw: existing?.raw ?? created,
    unseen: existing?.unseen ?? false,
    idempotencyKey: outbox.idempotencyKey,
  };
}
