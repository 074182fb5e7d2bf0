import { t } from '@lingui/core/macro';
import {
  QueriesObserver,
  useQueryClient,
  type QueryClient,
  type QueryObserverOptions,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../../api/api-context';
import type { ApiClient } from '../../api/client';
import { abortError, ApiError } from '../../api/errors';
import { taskQueries } from '../../api/queries/task-queries';
import { isTerminal, type Task } from '../../../contract/task';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { registerSchedule, type PollSchedule, type ScheduleTask } from '../../model/tasks/poll-schedule';
import { pollerLeadership, shareHistory } from '../../model/history/tab-sync';
import { ValueStore } from '../../lib/store';

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
function scheduleTask(entry: HistoryEntry): ScheduleTask {
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

/** Poll answers that arrive this close together reach the history as one change (one write, one render). */
const ANSWER_BATCH_MS = 50;

interface Answer {
  task: Task;
  seen?: boolean;
  done: (entry: HistoryEntry | undefined) => void;
  fail: (error: unknown) => void;
}

/**
 * The answers of a moment (a burst of polls answered together) go into the history at once: the
 * subscribers (History, Gallery, the other tabs, the schedule's sync) hear one change, and IndexedDB
 * gets one transaction, instead of one each.
 */
function answerBatcher(store: HistoryStore) {
  let queue: Answer[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    store.applyTasks(batch).then(
      (entries) => batch.forEach((a, i) => a.done(entries[i])),
      (error: unknown) => batch.forEach((a) => a.fail(error)),
    );
  };
  return {
    apply(task: Task, seen?: boolean): Promise<HistoryEntry | undefined> {
      return new Promise((done, fail) => {
        queue.push({ task, seen, done, fail });
        timer ??= setTimeout(flush, ANSWER_BATCH_MS);
      });
    },
    /** Writes what is waiting now (the poller is going away). */
    flush(): void {
      if (timer !== null) clearTimeout(timer);
      flush();
    },
  };
}

/**
 * Keeps the history current: every unfinished task joins the schedule, and the tasks whose turn is near
 * are polled through React Query. Part of useTasks (the tasks' lifecycle): it renders nothing and never
 * re-renders its host (the whole studio) by itself: the history, the schedule and the queries are
 * followed by subscriptions, outside rendering.
 */
export function useTaskPolling(store: HistoryStore | null, schedule: PollSchedule | null): void {
  const { client, connectionId } = useApi();
  const queryClient = useQueryClient();
  // Whether this tab is the one that polls (a Web Lock): a flag the polling effect follows, not state,
  // so winning or losing the lead renders nothing (it rendered the whole studio again at start-up, in
  // one task: total blocking time, docs/benchmarks.md "lighthouse").
  const [leadership] = useState(() => new ValueStore(false));

  useEffect(() => (store ? shareHistory(store, connectionId) : undefined), [store, connectionId]);
  useEffect(
    () => pollerLeadership(connectionId, (leader) => leadership.set(leader)),
    [connectionId, leadership],
  );

  useEffect(() => {
    if (!schedule) return;
    schedule.start();
    const unregister = registerSchedule(schedule);
    return () => {
      unregister();
      schedule.stop();
    };
  }, [schedule]);

  // Every unfinished task, and the recently finished ones that held the slots they wait for: all of
  // them once, then after each change of the history (a burst of changes is read once) only the entries
  // that changed (each change of an entry is a new object).
  useEffect(() => {
    if (!store || !schedule) return;
    let queued = false;
    let live = true;
    const synced = new WeakSet<HistoryEntry>();
    const wanted = (e: HistoryEntry, since: number) =>
      !isTerminal(e.status) || (e.completedAt !== null && e.completedAt > since);
    const since = Date.now() - RECENT_MS;
    const first: ScheduleTask[] = [];
    // The team's tasks too (team space): they take places in the same pool's first-in-first-out queue,
    // so the forecasts of this device's tasks count them; they are never polled here (follow, below).
    for (const e of store.list()) {
      synced.add(e);
      if (wanted(e, since)) first.push(scheduleTask(e));
    }
    schedule.sync(first);
    const sync = () => {
      queued = false;
      if (!live) return;
      const recent = Date.now() - RECENT_MS;
      const changed: ScheduleTask[] = [];
      for (const e of store.list()) {
        if (synced.has(e)) continue;
        synced.add(e);
        if (wanted(e, recent)) changed.push(scheduleTask(e));
      }
      if (changed.length > 0) schedule.update(changed);
    };
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

  // A query only for the tasks whose poll is near (the schedule's active set), not for every queued
  // one; kept by an observer of those queries that follows the active set, outside rendering.
  useEffect(() => {
    if (!store || !schedule) return;
    let stop: (() => void) | null = null;
    const follow = () => {
      if (leadership.snapshot() && !stop) stop = poll({ store, schedule, client, connectionId, queryClient });
      else if (!leadership.snapshot() && stop) {
        stop();
        stop = null;
      }
    };
    follow();
    const off = leadership.subscribe(follow);
    return () => {
      off();
      stop?.();
    };
  }, [leadership, store, schedule, client, connectionId, queryClient]);
}

/** Polls the tasks about to be polled (the schedule's active set) until the returned stop. */
function poll({
  store,
  schedule,
  client,
  connectionId,
  queryClient,
}: {
  store: HistoryStore;
  schedule: PollSchedule;
  client: ApiClient;
  connectionId: string;
  queryClient: QueryClient;
}): () => void {
  const answers = answerBatcher(store);

  async function pollOnce(taskId: string, signal: AbortSignal): Promise<Task> {
    const entry = store.get(taskId);
    // Another member's task (or this member's other device's) is polled by the studio that made it.
    if (!entry || !store.isLocal(taskId)) throw abortError();
    await schedule.turn(scheduleTask(entry), signal);
    const sentAt = Date.now();
    try {
      const task = await client.getTask(taskId, {
        signal,
        // The client retries a 429 after its Retry-After; every other poll waits that out too.
        onRetry: (info) => {
          if (info.error.status === 429) schedule.rateLimited(null, info.error.retryAfterSeconds);
        },
      });
      schedule.observe(
        taskId,
        { status: task.status, createdAt: toMs(task.createdAt), completedAt: toMs(task.completedAt) },
        sentAt,
      );
      await answers.apply(task, document.visibilityState === 'visible' && document.hasFocus());
      return task;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unknown_task') {
        // The service no longer shows this task to this key: stop polling it, say why.
        schedule.observe(taskId, 'unknown', sentAt);
        const lost: Task = {
          taskId,
          status: 'failed',
          outputs: [],
          error: { code: 'unknown_task', message: t`The service no longer knows this task for this key.` },
          creditsCharged: entry.creditsCharged ?? 0,
          createdAt: new Date(entry.createdAt).toISOString(),
          completedAt: null,
        };
        await answers.apply(lost);
        return lost;
      }
      if (err instanceof ApiError && err.status === 429) {
        schedule.rateLimited(taskId, err.retryAfterSeconds);
      } else {
        schedule.failed(taskId, { failure: !(err instanceof ApiError && err.code === 'aborted') });
      }
      throw err;
    }
  }

  const queryOf = (taskId: string): QueryObserverOptions =>
    // The observer takes options of any query (unknown data); these are Task queries.
    ({
      ...taskQueries.detail(client, connectionId, taskId),
      queryFn: ({ signal }: { signal: AbortSignal }): Promise<Task> => pollOnce(taskId, signal),
      refetchInterval: (query: { state: { data?: Task } }) =>
        query.state.data && isTerminal(query.state.data.status) ? false : REFETCH_TICK_MS,
      refetchIntervalInBackground: true,
      refetchOnWindowFocus: false,
      // Nothing reads the result: a poll's progress notifies nobody.
      notifyOnChangeProps: [],
    }) as QueryObserverOptions;
  const observer = new QueriesObserver(queryClient, []);
  const unobserve = observer.subscribe(() => undefined);
  let ids: readonly string[] | null = null;
  const follow = () => {
    const active = schedule.active();
    if (active === ids) return;
    ids = active;
    const polled = active.filter((id) => {
      const entry = store.get(id);
      return entry !== undefined && !isTerminal(entry.status) && store.isLocal(id);
    });
    observer.setQueries(polled.map(queryOf));
  };
  follow();
  const offSchedule = schedule.subscribe(follow);
  return () => {
    offSchedule();
    unobserve();
    observer.destroy();
    answers.flush();
  };
}
