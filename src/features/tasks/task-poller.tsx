import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { ApiError } from '../../api/errors';
import { taskQueries } from '../../api/queries/task-queries';
import { isTerminal, type Task } from '../../api/schemas/task';
import type { HistoryStore } from '../../lib/history-store';
import { nextPollAt, type PollBudget } from '../../lib/poll-budget';

// Polls every non-terminal task of the history until it is terminal (PRODUCT 3), whether or not its
// card is on screen, and after a reload. Each poll waits its turn in the shared budget (one budget for
// all tasks, under the GET /tasks limit); a 429 pauses the whole budget for its Retry-After. When the
// service answers again after an outage, every unfinished task is polled at once (still in the budget)
// rather than at the end of its back-off.

const REFETCH_TICK_MS = 200; // the query function itself waits for the task's due time in the budget

interface PollState {
  polls: number;
  lastPollAt: number | null;
  /** Poll at the next turn, whatever the back-off says (the service is back after an outage). */
  expedite: boolean;
}

export function TaskPoller({ store, budget }: { store: HistoryStore; budget: PollBudget }) {
  const { client, connectionId } = useApi();
  const entries = useSyncExternalStore(store.subscribe, store.list);
  const pending = useMemo(() => entries.filter((e) => !isTerminal(e.status)), [entries]);
  const pollState = useRef(new Map<string, PollState>());
  const queryClient = useQueryClient();

  useEffect(
    () =>
      client.health.onRecovered(() => {
        for (const state of pollState.current.values()) state.expedite = true;
        // Polls waiting for their turn or for a retry are called off, and start again now.
        void queryClient.cancelQueries({ queryKey: taskQueries.connection(connectionId) });
      }),
    [client, connectionId, queryClient],
  );

  useQueries({
    queries: pending.map((entry) => ({
      ...taskQueries.detail(client, connectionId, entry.taskId),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Task> => {
        const state = pollState.current.get(entry.taskId) ?? { polls: 0, lastPollAt: null, expedite: false };
        pollState.current.set(entry.taskId, state);
        const due = state.expedite
          ? Date.now()
          : nextPollAt(
              { createdAt: entry.createdAt, estimatedSeconds: entry.meta.estimatedSeconds },
              state,
              Date.now(),
            );
        await budget.acquire(due, signal);
        state.expedite = false;
        state.polls += 1;
        state.lastPollAt = Date.now();
        try {
          const task = await client.getTask(entry.taskId, { signal });
          await store.applyTask(task, {
            seen: document.visibilityState === 'visible' && document.hasFocus(),
          });
          return task;
        } catch (err) {
          if (err instanceof ApiError && err.status === 429) budget.pause(err.retryAfterSeconds ?? 60);
          if (err instanceof ApiError && err.code === 'unknown_task') {
            // The service no longer shows this task to this key: stop polling it, say why.
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
