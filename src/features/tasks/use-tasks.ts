import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { notifyError } from '../../components/notices';
import { meQueries } from '../../api/queries/me-queries';
import type { Me } from '../../../contract/me';
import type { TaskRequest } from '../../../contract/task';
import type { OutboxEntry } from '../../model/db';
import { openConnectionStores } from '../../model/connection-stores';
import { lazySection, type HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { Outbox, type SubmitResult } from '../../model/tasks/outbox';
import { PollBudget } from '../../model/tasks/poll-budget';
import { concurrencyPrior, loadLearning, saveLearning } from '../../model/tasks/poll-learning';
import { PollSchedule } from '../../model/tasks/poll-schedule';
import type { PresetStore } from '../../model/library/presets';
import type { PromptLibrary } from '../../model/library/prompt-library';
import { createdEntry } from '../../model/tasks/created-entry';
import {
  DISPATCH_GUESS_MS,
  RELEASE_LEAD_MS,
  slotsToFill,
  TaskQueue,
  type PoolShare,
} from '../../model/queue/queue';
import { useFinishNotices } from './finish-notices';
import { useTaskPolling } from './use-task-polling';

// The lifecycle of this connection's tasks, in one hook (the composition calls it once): the history
// (IndexedDB), the outbox that makes a submit idempotent and re-sends what a reload or an outage left
// unanswered, the poll schedule and its budget that keep every unfinished task current, and the notices
// when tasks finish. Opened when a key connects; a different key gets a different history.

export interface TaskRunner {
  store: HistoryStore;
  outbox: Outbox;
  budget: PollBudget;
  /** When each unfinished task is polled (its forecast: "queued, about 4 ahead", ...). */
  schedule: PollSchedule;
  /** This key's presets and prompt library (local, in the history file too). */
  presets: PresetStore;
  prompts: PromptLibrary;
  /** The tasks this device holds back until the pool is about to free a place (docs/queue.md). */
  queue: TaskQueue;
}

/** How many held tasks the pool has room for now, by the schedule's forecast (docs/queue.md). */
function freeSlots(
  schedule: PollSchedule,
  outbox: Outbox,
  store: HistoryStore,
  { othersWaiting, rank }: PoolShare,
): number {
  // A task sent now starts a dispatch later at the earliest: sent that much before the slot frees.
  const at = Date.now() + RELEASE_LEAD_MS + (schedule.dispatchMs() ?? DISPATCH_GUESS_MS);
  return slotsToFill({
    concurrency: schedule.concurrency,
    confirmed: schedule.confirmed,
    busy: schedule.busyAt(at),
    mineBusy: schedule.busyAt(at, (taskId) => store.isLocal(taskId)),
    sending: outbox.entries().filter((e) => !e.expired).length,
    othersWaiting,
    rank,
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
    let cancelled = false;
    let outbox: Outbox | null = null;
    let schedule: PollSchedule | null = null;
    let queue: TaskQueue | null = null;
    let offQueue = (): void => undefined;
    // The service answers again after an outage: what waits in the outbox goes now, not at its back-off.
    const offRecovered = client.health.onRecovered(() => outbox?.resendWaiting());
    let removeSections = (): void => undefined;
    // The connection's stores, shared with the gallery (model/connection-stores.ts).
    const lease = openConnectionStores(connectionId);
    void lease.stores.then(
      ({ history: store, presets, prompts }) => {
        if (cancelled) return;
        const offs = [
          store.addSection('presets', presets.historySection()),
          store.addSection('prompts', prompts.historySection()),
          // The blind votes' module loads only when a file is made or read.
          store.addSection(
            'votes',
            lazySection(() =>
              import('../../model/boards/votes').then((m) => m.votesHistorySection(connectionId)),
            ),
          ),
        ];
        removeSections = () => offs.forEach((off) => off());
        const budget = new PollBudget({ perMinute: tasksPerMin });
        // Starts from what GET /me says of the key, or from what earlier sessions of it learned.
        schedule = new PollSchedule({
          budget,
          concurrency,
          confirmed,
          learned: loadLearning(connectionId),
          onLearn: (state) => saveLearning(connectionId, state),
        });
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
        const sender = outbox;
        const poolSchedule = schedule;
        queue = new TaskQueue({
          connectionId,
          submit: (request, meta, options) => sender.submit(request, meta, options),
          freeSlots: (share) => freeSlots(poolSchedule, sender, store, share),
          quote: (request) => client.quote(request),
        });
        // A place may have freed: a task finished or was answered, a send settled.
        const kick = queue.kick;
        const offs2 = [sender.subscribe(kick), store.subscribe(kick), poolSchedule.subscribe(kick)];
        offQueue = () => offs2.forEach((off) => off());
        // A transition: with the runner the History, the Queue and the submit bar draw whole, and that
        // first render is done in slices, not in one long task while the page loads (docs/benchmarks.md
        // "lighthouse").
        const ready: TaskRunner = { store, outbox, budget, schedule, presets, prompts, queue };
        startTransition(() => setRunner(ready));
        // A submit that never got an answer before a reload or crash is re-sent, identically.
        void outbox.resume();
        void queue.start();
      },
      (error: unknown) => {
        // Without its stores (IndexedDB refused: a private window, storage turned off or full) the studio
        // can neither keep a task's key before sending it nor its result after: Generate stays off, and says why.
        if (cancelled) return;
        notifyError(
          t`This browser would not open the studio's storage, so tasks cannot be sent: nothing would keep their results. Reload the page; if it happens again, allow this site to store data.`,
          { id: 'stores-unavailable', detail: error instanceof Error ? error.message : String(error) },
        );
      },
    );
    return () => {
      cancelled = true;
      offRecovered();
      removeSections();
      offQueue();
      queue?.dispose();
      outbox?.dispose();
      schedule?.stop();
      lease.release();
      setRunner(null);
    };
  }, [client, connectionId, tasksPerMin, concurrency, confirmed, queryClient]);

  useTaskPolling(runner?.store ?? null, runner?.schedule ?? null);
  useFinishNotices(runner?.store ?? null);
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
      void runner.prompts.record(prompts);
      const list: readonly TaskRequest[] = Array.isArray(requests) ? requests : [requests as TaskRequest];
      // What the queue would send this instant goes as before (its answer, a refused field, shows on the
      // form); otherwise every task is held in the queue, its key written down, nothing charged yet.
      if (!runner.queue.wouldSendNow(list.length)) {
        const keys = await runner.queue.enqueue(list.map((request) => ({ request, meta })));
        setState({ busy: false, result: null, batch: null, queued: list.length });
        // Once the queue has sent them (the pool freed a place), the bar says what came of them.
        const sent = (await Promise.all(keys.map((key) => runner.queue.settled(key)))).filter(
          (r): r is SubmitResult => r !== null,
        );
        if (sent.length > 0 && latest.current === click) setState(outcome(sent, list.length));
        return;
      }
      if (!Array.isArray(requests) || requests.length === 1) {
        const request = Array.isArray(requests) ? (requests[0] as TaskRequest) : (requests as TaskRequest);
        setState({ busy: false, result: await runner.outbox.submit(request, meta), batch: null });
        return;
      }
      const results = await runner.outbox.submitBatch(requests.map((request) => ({ request, meta })));
      setState(outcome(results, results.length));
    },
    [runner],
  );
  const clear = useCallback(() => {
    latest.current += 1;
    setState(IDLE);
  }, []);
  return { ...state, submit, clear };
}
