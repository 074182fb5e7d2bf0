import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { meQueries } from '../../api/queries/me-queries';
import type { TaskRequest } from '../../api/schemas/task';
import type { OutboxEntry } from '../../lib/db';
import { HistoryStore } from '../../lib/history-store';
import type { HistoryEntry } from '../../lib/history-types';
import { Outbox, type SubmitResult } from '../../lib/outbox';
import { PollBudget } from '../../lib/poll-budget';
import { createdEntry } from './created-entry';

// Everything that makes a click a task, per connection: the history (IndexedDB), the outbox that makes
// a submit idempotent and survive reloads, and the shared polling budget. Opened when a key connects;
// a different key gets a different history.

export interface TaskRunner {
  store: HistoryStore;
  outbox: Outbox;
  budget: PollBudget;
}

export function useTaskRunner(tasksPerMin: number): TaskRunner | null {
  const { client, connectionId } = useApi();
  const queryClient = useQueryClient();
  const [runner, setRunner] = useState<TaskRunner | null>(null);

  useEffect(() => {
    let cancelled = false;
    let outbox: Outbox | null = null;
    // The service answers again after an outage: what waits in the outbox goes now, not at its back-off.
    const offRecovered = client.health.onRecovered(() => outbox?.resendWaiting());
    void HistoryStore.open(connectionId).then((store) => {
      if (cancelled) return;
      const budget = new PollBudget({ perMinute: tasksPerMin });
      outbox = new Outbox({
        connectionId,
        createTask: (request, idempotencyKey, signal) =>
          client.createTask(request, { idempotencyKey, signal }),
        onCreated: async (entry, created) => {
          await store.put(createdEntry(entry, created, store.get(created.taskId), connectionId));
          // The balance and today's spend just changed.
          void queryClient.invalidateQueries({ queryKey: meQueries.all() });
        },
      });
      setRunner({ store, outbox, budget });
      // A submit that never got an answer before a reload or crash is re-sent, identically.
      void outbox.resume();
    });
    return () => {
      cancelled = true;
      offRecovered();
      outbox?.dispose();
      setRunner(null);
    };
  }, [client, connectionId, tasksPerMin, queryClient]);

  return runner;
}

const NO_ENTRIES: OutboxEntry[] = [];
const noop = () => () => undefined;

/** The submits still waiting for an answer (shown as "Sending..."). */
export function useSending(outbox: Outbox | undefined): OutboxEntry[] {
  return useSyncExternalStore(outbox?.subscribe ?? noop, outbox ? outbox.entries : () => NO_ENTRIES);
}

export function useSubmit(runner: TaskRunner | null) {
  const [state, setState] = useState<{ busy: boolean; result: SubmitResult | null }>({
    busy: false,
    result: null,
  });
  const submit = useCallback(
    async (request: TaskRequest, meta: HistoryEntry['meta']) => {
      if (!runner) return;
      setState({ busy: true, result: null });
      const result = await runner.outbox.submit(request, meta);
      setState({ busy: false, result });
    },
    [runner],
  );
  const clear = useCallback(() => setState({ busy: false, result: null }), []);
  return { ...state, submit, clear };
}
