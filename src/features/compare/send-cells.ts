import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { newId } from '../../model/compare/boards';
import type { ConnectionRuntime } from '../../model/connection-runtime';
import type { CellView } from './cell-view';

// Sending a board's cells: through the connection runtime (its queue, then its outbox), with the keys the
// board has already written, and what each send came to, told back per cell.

/** What a board uses of the connection runtime: its history, its queue (held cells), its one submit path. */
export type CompareRunner = Pick<ConnectionRuntime, 'store' | 'queue' | 'submitKeyed'>;

/** A send's note: the studio's own (shown in the language of the moment), or an error's message as it came. */
export type SendNote = { refused: boolean; text: MessageDescriptor | string };

const REMOVED_NOTE = msg`Removed from your queue before it was sent; nothing was charged.`;

export interface SendReport {
  /** The cell's note now (null: none, its task was created). */
  note: (cellKey: string, note: SendNote | null) => void;
  /** The task the cell's key created. */
  created: (cellKey: string, idempotencyKey: string, taskId: string) => void;
}

export async function sendCells(
  runner: CompareRunner,
  targets: readonly CellView[],
  keys: ReadonlyMap<string, string>,
  report: SendReport,
): Promise<void> {
  // A run of several cells is one batch in the history, as Runs and Variations are ("Group batches").
  const batchId = targets.length > 1 ? newId() : undefined;
  // Through the queue, as Generate sends: at once when it would send them now, otherwise held with
  // the keys written by the board (nothing charged) until the pool has room (docs/queue.md).
  const { results } = await runner.submitKeyed(
    targets.map((c, i) => ({
      request: c.request,
      meta: {
        title: c.col.model.name,
        subtitle: c.col.versionName,
        kind: 'model',
        mediaType: c.col.model.type,
        category: `${c.col.model.type}/${c.col.model.subType}`,
        modelId: c.col.model.id,
        versionId: c.col.column.versionId,
        estimatedSeconds: c.quote?.estimatedSeconds ?? null,
        quotedCredits: c.quote?.credits ?? null,
        ...(batchId && { batchId, batchIndex: i + 1, batchSize: targets.length }),
      },
      idempotencyKey: keys.get(c.key)!,
    })),
  );
  await Promise.all(
    targets.map(async (c, i) => {
      const result = await results[i];
      if (!result) {
        // Removed from the queue before it went: never sent, never charged, so the cell can run again.
        report.note(c.key, { refused: true, text: REMOVED_NOTE });
        return;
      }
      if (result.kind === 'created') {
        report.note(c.key, null);
        report.created(c.key, result.idempotencyKey, result.created.taskId);
      } else {
        // Refused: nothing was created, so the cell can run again. Pending: the outcome is unknown and
        // the outbox re-sends with the same key, so the cell stays active (a new run could pay twice).
        // The error's message is the service's (or the network's), shown as it came.
        const { message } = result.error;
        report.note(
          c.key,
          result.kind === 'refused'
            ? { refused: true, text: message }
            : { refused: false, text: msg`Sending… ${message} It is re-sent with the same key.` },
        );
      }
    }),
  );
}
