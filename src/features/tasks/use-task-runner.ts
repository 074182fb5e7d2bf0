import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { meQueries } from '../../api/queries/me-queries';
import type { TaskRequest } from '../../../contract/task';
import type { OutboxEntry } from '../../model/db';
import { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { Outbox, type SubmitResult } from '../../model/tasks/outbox';
import { PollBudget } from '../../model/tasks/poll-budget';
import { PresetStore } from '../../model/library/presets';
import { PromptLibrary } from '../../model/library/prompt-library';
import { createdEntry } from '../../model/tasks/created-entry';

// Everything that makes a click a task, per connection: the history (IndexedDB), the outbox that makes
// a submit idempotent and survive reloads, and the shared polling budget. Opened when a key connects;
// a different key gets a different history.

export interface TaskRunner {
  store: HistoryStore;
  outbox: Outbox;
  budget: PollBudget;
  /** This key's presets and prompt library (local, in the history file too). */
  presets: PresetStore;
  prompts: PromptLibrary;
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
    let removeSections = (): void => undefined;
    void Promise.all([
      HistoryStore.open(connectionId),
      PresetStore.open(connectionId),
      PromptLibrary.open(connectionId),
    ]).then(([store, presets, prompts]) => {
      if (cancelled) return;
      const offPresets = store.addSection('presets', presets.historySection());
      const offPrompts = store.addSection('prompts', prompts.historySection());
      removeSections = () => {
        offPresets();
        offPrompts();
      };
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
      setRunner({ store, outbox, budget, presets, prompts });
      // A submit that never got an answer before a reload or crash is re-sent, identically.
      void outbox.resume();
    });
    return () => {
      cancelled = true;
      offRecovered();
      removeSections();
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

export interface SubmitState {
  busy: boolean;
  /** The last submit; for a batch, its first refusal, else its first unanswered send, else created. */
  result: SubmitResult | null;
  /** A batch: how many tasks it had and how many the service created. */
  batch: { size: number; created: number } | null;
}

const IDLE: SubmitState = { busy: false, result: null, batch: null };

export function useSubmit(runner: TaskRunner | null) {
  const [state, setState] = useState<SubmitState>(IDLE);
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
      setState({ busy: true, result: null, batch: null });
      void runner.prompts.record(prompts);
      if (!Array.isArray(requests) || requests.length === 1) {
        const request = Array.isArray(requests) ? (requests[0] as TaskRequest) : (requests as TaskRequest);
        setState({ busy: false, result: await runner.outbox.submit(request, meta), batch: null });
        return;
      }
      const results = await runner.outbox.submitBatch(requests.map((request) => ({ request, meta })));
      const result =
        results.find((r) => r.kind === 'refused') ??
        results.find((r) => r.kind === 'pending') ??
        results[0] ??
        null;
      const created = results.filter((r) => r.kind === 'created').length;
      setState({ busy: false, result, batch: { size: results.length, created } });
    },
    [runner],
  );
  const clear = useCallback(() => setState(IDLE), []);
  return { ...state, submit, clear };
}
