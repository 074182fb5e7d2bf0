import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { notifyError } from '../../components/notices';
import { meQueries } from '../../api/queries/me-queries';
import type { Me } from '../../../contract/me';
import type { TaskRequest } from '../../../contract/task';
import type { OutboxEntry } from '../../model/db';
import { ConnectionRuntime, submitTasks } from '../../model/connection-runtime';
import { openConnectionStores } from '../../model/connection-stores';
import type { HistoryEntry } from '../../model/history/history-types';
import type { Outbox, SubmitResult } from '../../model/tasks/outbox';
import { concurrencyPrior } from '../../model/tasks/poll-learning';
import { useFinishNotices } from './finish-notices';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';
import { fetchQuote } from '../../api/queries/quote-queries';

// The lifecycle of this connection's tasks, in one hook (the composition calls it once): the runtime
// (model/connection-runtime.ts: the history, the outbox that makes a submit idempotent and re-sends what
// a reload or an outage left unanswered, the queue, the poll schedule, its budget and the poller), opened
// when a key connects and closed when it goes; and the notices when tasks finish. A different key gets a
// different history.

/** What the studio's features use of the runtime (the whole runtime; fakes in tests give less). */
export type TaskRunner = ConnectionRuntime;

function reportWriteFailed(error: unknown): void {
  notifyError(t`A change could not be saved on this device: it will be gone after a reload.`, {
    id: 'local-write-failed',
    detail: error instanceof Error ? error.message : String(error),
  });
}

export function useTasks(me: Pick<Me, 'limits' | 'team' | 'user'>): TaskRunner | null {
  const { client, connectionId } = useApi();
  const queryClient = useQueryClient();
  const [runner, setRunner] = useState<TaskRunner | null>(null);
  const tasksPerMin = me.limits.tasksPerMin;
  // Where the schedule starts when this connection learned nothing yet: what GET /me says of the key.
  const { concurrency, confirmed } = concurrencyPrior(me);

  useEffect(() => {
    const controller = new AbortController();
    let runtime: ConnectionRuntime | null = null;
    ConnectionRuntime.open(
      {
        api: client,
        connectionId,
        prior: { concurrency, confirmed, tasksPerMin },
        // The balance and today's spend just changed.
        onCreated: () => void queryClient.invalidateQueries({ queryKey: meQueries.all() }),
        // The price a held task is checked against before it is sent: asked anew, never a cached one.
        quote: (request) => fetchQuote(queryClient, client, connectionId, request, { maxAgeMs: 0 }),
        // A star, tag, hide or preset is shown before it is on disk: when the write fails, say it will not
        // outlive this tab (one notice, however many writes fail).
        openStores: (id) => openConnectionStores(id, { onError: reportWriteFailed }),
      },
      { signal: controller.signal },
    ).then(
      (opened) => {
        // Closed between the stores' opening and this turn: nothing is left running.
        if (controller.signal.aborted) {
          opened.close();
          return;
        }
        runtime = opened;
        // A transition: with the runner the History, the Queue and the submit bar draw whole, and that
        // first render is done in slices, not in one long task while the page loads (docs/benchmarks.md
        // "lighthouse").
        startTransition(() => setRunner(opened));
      },
      (error: unknown) => {
        // Without its stores (IndexedDB refused: a private window, storage turned off or full) the studio
        // can neither keep a task's key before sending it nor its result after: Generate stays off, and says why.
        if (controller.signal.aborted) return;
        notifyError(
          t`This browser would not open the studio's storage, so tasks cannot be sent: nothing would keep their results. Reload the page; if it happens again, allow this site to store data.`,
          { id: 'stores-unavailable', detail: error instanceof Error ? error.message : String(error) },
        );
      },
    );
    return () => {
      controller.abort();
      runtime?.close();
      setRunner(null);
    };
  }, [client, connectionId, tasksPerMin, concurrency, confirmed, queryClient]);

  useFinishNotices(runner?.store ?? null);
  return runner;
}

const NO_ENTRIES: OutboxEntry[] = [];

/** The submits still waiting for an answer (shown as "Sending..."). */
export function useSending(outbox: Outbox | undefined): OutboxEntry[] {
  return useSyncExternalStore(outbox?.subscribe ?? NO_SUBSCRIBE, outbox ? outbox.entries : () => NO_ENTRIES);
}

export interface SubmitState {
  busy: boolean;
  /** The last submit; for a batch, its first refusal, else its first unanswered send, else created. */
  result: SubmitResult | null;
  /** A batch: how many tasks it had and how many the service created. */
  batch: { size: number; created: number } | null;
  /** How many tasks the last submit put in the queue (held, not sent yet); 0 when it sent them. */
  queued?: number;
}

const IDLE: SubmitState = { busy: false, result: null, batch: null };

/** A batch's outcome: its first refusal, else its first unanswered send, else created. */
function outcome(results: readonly SubmitResult[], size: number): SubmitState {
  const result =
    results.find((r) => r.kind === 'refused') ??
    results.find((r) => r.kind === 'pending') ??
    results[0] ??
    null;
  if (size === 1) return { busy: false, result, batch: null };
  const created = results.filter((r) => r.kind === 'created').length;
  return { busy: false, result, batch: { size, created } };
}

export function useSubmit(runner: TaskRunner | null) {
  const [state, setState] = useState<SubmitState>(IDLE);
  /** The last click: a queued click's late outcome never overwrites a newer click's. */
  const latest = useRef(0);
  /**
   * Sends one task, or a batch (several requests, one click: each its own Idempotency-Key, all written
   * to the outbox before the first is sent). The prompts sent go to the prompt library.
   */
  const submit = useCallback(
    async (
      requests: TaskRequest | readonly TaskRequest[],
      meta: HistoryEntry['meta'],
      { prompts = [] }: { prompts?: readonly string[] } = {},
    ) => {
      if (!runner) return;
      const click = ++latest.current;
      setState({ busy: true, result: null, batch: null });
      const list: readonly TaskRequest[] = Array.isArray(requests) ? requests : [requests as TaskRequest];
      // The runtime's one submit path (model/connection-runtime.ts), over the runner's parts.
      const sent = await submitTasks(runner, requests, meta, { prompts });
      if (sent.held) {
        setState({ busy: false, result: null, batch: null, queued: list.length });
        // Once the queue has sent them (the pool freed a place), the bar says what came of them.
        const results = (await sent.settled).filter((r): r is SubmitResult => r !== null);
        if (results.length > 0 && latest.current === click) setState(outcome(results, list.length));
        return;
      }
      setState(outcome(sent.results, sent.results.length));
    },
    [runner],
  );
  const clear = useCallback(() => {
    latest.current += 1;
    setState(IDLE);
  }, []);
  return { ...state, submit, clear };
}
