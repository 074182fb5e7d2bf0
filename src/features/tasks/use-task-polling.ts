import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { abortError, ApiError } from '../../api/errors';
import { taskQueries } from '../../api/queries/task-queries';
import { isTerminal, type Task } from '../../../contract/task';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { registerSchedule, type PollSchedule, type ScheduleTask } from '../../model/tasks/poll-schedule';
import { pollerLeadership, shareHistory } from '../../model/history/tab-sync';

// Polls every non-terminal task of the history until it is terminal (product-notes §3), whether or not its
// card is on screen, and after a reload. When each task is polled is the poll schedule's call
// (poll-schedule.ts): just after its predicted finish, from its place in the key's FIFO queue, the
// learned concurrency and its estimate, corrected by what each poll shows; every turn comes from the
// connection's one budget (under the GET /tasks limit; a 429 pauses all of it for its Retry-After).
// Tasks submitted here, imported, or left from before a reload are all in the history, so all join
// the schedule; so do other tabs' tasks: tabs of one connection share their history's changes, and
// only one of them (the holder of the connection's lock) polls, so the key's budget is spent once. When the service answers again after an outage, every unfinished task is polled at
// once (still in the budget) rather than at the end of its back-off.

const REFETCH_TICK_MS = 200; // the query function itself waits for the task's turn in the schedule
/** Finished tasks this recent still anchor the queue's slots for the unfinished ones. */
const RECENT_MS = 10 * 60_000;

/** A history entry as the schedule sees it: when, what ran, the estimate, the last status. */
export function scheduleTask(entry: HistoryEntry): ScheduleTask {
  const r = entry.request;
  return {
    taskId: entry.taskId,
    createdAt: entry.createdAt,
    estimatedSeconds: entry.meta.estimatedSeconds,
    model: r.template
      ? `template:${r.template}`
      : r.aiTool
        ? `tool:${r.aiTool}`
        : `${r.interfaceId}/${r.versionId}`,
    status: entry.status,
    completedAt: entry.completedAt,
  };
}

const toMs = (iso: string | null): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

const NO_IDS: readonly string[] = [];
const noSubscription = () => () => undefined;
const noIds = () => NO_IDS;

/**
 * Keeps the history current: every unfinished task joins the schedule, and the tasks whose turn is near
 * are polled through React Query. Part of useTasks (the tasks' lifecycle); renders nothing of its own
 * and re-renders its host only when the set of tasks about to be polled changes.
 */
export function useTaskPolling(store: HistoryStore | null, schedule: PollSchedule | null): void {
  const { client, connectionId } = useApi();
  const queryClient = useQueryClient();
  const [leader, setLeader] = useState(false);

  useEffect(() => (store ? shareHistory(store, connectionId) : undefined), [store, connectionId]);
  useEffect(() => pollerLeadership(connectionId, setLeader), [connectionId]);

  useEffect(() => {
    if (!schedule) return;
    schedule.start();
    const unregister = registerSchedule(schedule);
    return () => {
      unregister();
      schedule.stop();
    };
  }, [schedule]);

  // Every unfinished task, and the recently finished ones that held the slots they wait for: read
  // after each change of the history (a burst of changes is read once).
  useEffect(() => {
    if (!store || !schedule) return;
    let queued = false;
    let live = true;
    const sync = () => {
      queued = false;
      if (!live) return;
      const since = Date.now() - RECENT_MS;
      schedule.sync(
        store
          .list()
          .filter((e) => !isTerminal(e.status) || (e.completedAt !== null && e.completedAt > since))
          .map(scheduleTask),
      );
    };
    sync();
    const off = store.subscribe(() => {
      if (queued) return;
      queued = true;
      queueMicrotask(sync);
    });
    return () => {
      live = false;
      off();
    };
  }, [store, schedule]);

  useEffect(
    () =>
      schedule
        ? client.health.onRecovered(() => {
            schedule.expediteAll();
            // Polls waiting for their turn or for a retry are called off, and start again now.
            void queryClient.cancelQueries({ queryKey: taskQueries.connection(connectionId) });
          })
        : undefined,
    [client, connectionId, queryClient, schedule],
  );

  // A query only for the tasks whose poll is near (the schedule's active set), not for every queued one.
  const activeIds = useSyncExternalStore(schedule?.subscribe ?? noSubscription, schedule?.active ?? noIds);
  const polled: HistoryEntry[] = [];
  if (leader && store && schedule) {
    for (const id of activeIds) {
      const entry = store.get(id);
      if (entry && !isTerminal(entry.status)) polled.push(entry);
    }
  }

  useQueries({
    queries: polled.map((entry) => ({
      ...taskQueries.detail(client, connectionId, entry.taskId),
      queryFn: ({ signal }: { signal: AbortSignal }): Promise<Task> => pollOnce(entry, signal),
      refetchInterval: (query: { state: { data?: Task } }) =>
        query.state.data && isTerminal(query.state.data.status) ? false : REFETCH_TICK_MS,
      refetchIntervalInBackground: true,
      refetchOnWindowFocus: false,
      // Nothing here reads the result: a poll's progress re-renders nothing.
      notifyOnChangeProps: [],
    })),
  });

  async function pollOnce(entry: HistoryEntry, signal: AbortSignal): Promise<Task> {
    if (!store || !schedule) throw abortError();
    await schedule.turn(scheduleTask(entry), signal);
    const sentAt = Date.now();
    try {
      const task = await client.getTask(entry.taskId, {
        signal,
        // The client retries a 429 after its Retry-After; every other poll waits that out too.
        onRetry: (info) => {
          if (info.error.status === 429) schedule.rateLimited(null, info.error.retryAfterSeconds);
        },
      });
      schedule.observe(
        entry.taskId,
        { status: task.status, createdAt: toMs(task.createdAt), completedAt: toMs(task.completedAt) },
        sentAt,
      );
      await store.applyTask(task, {
        seen: document.visibilityState === 'visible' && document.hasFocus(),
      });
      return task;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unknown_task') {
        // The service no longer shows this task to this key: stop polling it, say why.
        schedule.observe(entry.taskId, 'unknown', sentAt);
        const lost: Task = {
          taskId: entry.taskId,
          status: 'failed',
          outputs: [],
          error: { code: 'unknown_task', message: 'The service no longer knows this task for this key.' },
          creditsCharged: entry.creditsCharged ?? 0,
          createdAt: new Date(entry.createdAt).toISOString(),
          completedAt: null,
        };
        await store.applyTask(lost);
        return lost;
      }
      if (err instanceof ApiError && err.status === 429) {
        schedule.rateLimited(entry.taskId, err.retryAfterSeconds);
      } else {
        schedule.failed(entry.taskId, { failure: !(err instanceof ApiError && err.code === 'aborted') });
      }
      throw err;
    }
  }
}
