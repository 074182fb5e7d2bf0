import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { ApiError } from '../../api/errors';
import { taskQueries } from '../../api/queries/task-queries';
import { isTerminal, type Task } from '../../../contract/task';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import type { PollBudget } from '../../model/tasks/poll-budget';
import { PollSchedule, registerSchedule, type ScheduleTask } from '../../model/tasks/poll-schedule';
import { pollerLeadership, shareHistory } from '../../model/history/tab-sync';

// Polls every non-terminal task of the history until it is terminal (PRODUCT 3), whether or not its
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

export function TaskPoller({ store, budget }: { store: HistoryStore; budget: PollBudget }) {
  const { client, connectionId } = useApi();
  const entries = useSyncExternalStore(store.subscribe, store.list);
  const pending = useMemo(() => entries.filter((e) => !isTerminal(e.status)), [entries]);
  // One schedule per budget (per connection); its turns stop when the poller goes.
  const schedule = useMemo(() => new PollSchedule({ budget }), [budget]);
  const queryClient = useQueryClient();
  const [leader, setLeader] = useState(false);

  useEffect(() => shareHistory(store, connectionId), [store, connectionId]);
  useEffect(() => pollerLeadership(connectionId, setLeader), [connectionId]);

  useEffect(() => {
    schedule.start();
    const unregister = registerSchedule(schedule);
    return () => {
      unregister();
      schedule.stop();
    };
  }, [schedule]);

  // Every unfinished task, and the recently finished ones that held the slots they wait for.
  useEffect(() => {
    const since = Date.now() - RECENT_MS;
    schedule.sync(
      entries
        .filter((e) => !isTerminal(e.status) || (e.completedAt !== null && e.completedAt > since))
        .map(scheduleTask),
    );
  }, [schedule, entries]);

  useEffect(
    () =>
      client.health.onRecovered(() => {
        schedule.expediteAll();
        // Polls waiting for their turn or for a retry are called off, and start again now.
        void queryClient.cancelQueries({ queryKey: taskQueries.connection(connectionId) });
      }),
    [client, connectionId, queryClient, schedule],
  );

  // A query only for the tasks whose poll is near (the schedule's active set), not for every queued one.
  const activeIds = useSyncExternalStore(schedule.subscribe, schedule.active);
  const polled = useMemo(() => {
    if (!leader) return [];
    const ids = new Set(activeIds);
    return pending.filter((e) => ids.has(e.taskId));
  }, [leader, activeIds, pending]);

  useQueries({
    queries: polled.map((entry) => ({
      ...taskQueries.detail(client, connectionId, entry.taskId),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Task> => {
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
      },
      refetchInterval: (query: { state: { data?: Task } }) =>
        query.state.data && isTerminal(query.state.data.status) ? false : REFETCH_TICK_MS,
      refetchIntervalInBackground: true,
      refetchOnWindowFocus: false,
    })),
  });
  return null;
}
