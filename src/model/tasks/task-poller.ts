import { t } from '@lingui/core/macro';
import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { sleep } from '../../api/retry';
import { isTerminal, type Task } from '../../../contract/task';
import type { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../history/history-types';
import { pollerLeadership } from '../history/tab-sync';
import { registerSchedule, type PollSchedule, type ScheduleTask } from './poll-schedule';

// Polls every unfinished task of the history until it is terminal (product-notes §3), whether or not its
// card is on screen, and after a reload: part of the connection runtime (model/connection-runtime.ts),
// plain TypeScript. When each task is polled is the poll schedule's call (poll-schedule.ts): just after
// its predicted finish, from its place in the key's first-in-first-out queue, the learned concurrency and
// its estimate, corrected by what each poll shows; every turn comes from the connection's one budget
// (under the GET /tasks limit; a 429 pauses all of it for its Retry-After). Tasks submitted here,
// imported, or left from before a reload are all in the history, so all join the schedule; so do other
// tabs' tasks (tab-sync.ts shares the history) and the team's (they take places in the same pool's
// queue), but only this connection's own tasks are polled, and only by one tab (the holder of the
// connection's Web Lock), so the key's budget is spent once. When the service answers again after an
// outage, every unfinished task is polled at once (still in the budget).

/** The least time between two polls of one task (its turn in the schedule usually waits longer). */
const POLL_GAP_MS = 200;
/** Finished tasks this recent still anchor the queue's slots for the unfinished ones. */
const RECENT_MS = 10 * 60_000;
/** Poll answers that arrive this close together reach the history as one change (one write, one render). */
const ANSWER_BATCH_MS = 50;

/**
 * A history entry as the schedule sees it: when, what ran, the estimate, the last status. Another
 * member's task that nobody follows any more (HistoryEntry.by.unfollowed) leaves the schedule as if it
 * had ended: it no longer holds a place that this device's forecasts count.
 * @internal
 */
export function scheduleTask(entry: HistoryEntry): ScheduleTask {
  const r = entry.request;
  if (entry.by?.unfollowed && !isTerminal(entry.status))
    return { ...scheduleTask({ ...entry, by: undefined }), status: 'cancelled', completedAt: null };
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

export interface TaskPollerDeps {
  api: Pick<ApiClient, 'getTask' | 'health'>;
  connectionId: string;
  store: HistoryStore;
  schedule: PollSchedule;
  /** Whether the user is looking at the studio now (a finished task then is not marked unseen). */
  seen?: () => boolean;
  /** Calls back with true when this tab may poll (default: the connection's Web Lock, tab-sync.ts). */
  leadership?: (connectionId: string, onChange: (leader: boolean) => void) => () => void;
}

const pageSeen = () =>
  typeof document !== 'undefined' && document.visibilityState === 'visible' && document.hasFocus();

/**
 * Keeps the history current until stopped: every unfinished task joins the schedule, and while this tab
 * leads, each task whose poll is near (the schedule's active set) has a loop that waits for its turn,
 * polls it and records the answer, until the task is terminal or leaves the active set. Answers the stop.
 */
export function startPolling(deps: TaskPollerDeps): () => void {
  const { store, schedule, api } = deps;
  schedule.start();
  const offs = [
    registerSchedule(schedule),
    () => schedule.stop(),
    followHistory(store, schedule),
    // Before the polls' own listener (pollActive), which starts them again once the schedule has let
    // every task go at once.
    api.health.onRecovered(() => schedule.expediteAll()),
  ];
  let stopPolls: (() => void) | null = null;
  const lead = (leader: boolean) => {
    if (leader && !stopPolls) stopPolls = pollActive(deps);
    else if (!leader && stopPolls) {
      stopPolls();
      stopPolls = null;
    }
  };
  offs.push((deps.leadership ?? pollerLeadership)(deps.connectionId, lead));
  offs.push(() => lead(false));
  return () => {
    for (const off of offs.reverse()) off();
  };
}

/**
 * Every unfinished task, and the recently finished ones that held the slots they wait for, into the
 * schedule: all of them once, then after each change of the history (a burst of changes is read once)
 * only the entries that changed (each change of an entry is a new object). The team's tasks too: they
 * take places in the same pool's queue, so the forecasts of this device's tasks count them.
 */
function followHistory(store: HistoryStore, schedule: PollSchedule): () => void {
  let queued = false;
  let live = true;
  const synced = new WeakSet<HistoryEntry>();
  const wanted = (e: HistoryEntry, since: number) =>
    !isTerminal(e.status) || (e.completedAt !== null && e.completedAt > since);
  const since = Date.now() - RECENT_MS;
  const first: ScheduleTask[] = [];
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
}

/** Polls the schedule's active set (this connection's own unfinished tasks among it) until the returned stop. */
function pollActive({ store, schedule, api, seen = pageSeen }: TaskPollerDeps): () => void {
  const answers = answerBatcher(store);
  const loops = new Map<string, AbortController>();

  async function pollOnce(taskId: string, entry: HistoryEntry, signal: AbortSignal): Promise<Task | null> {
    try {
      await schedule.turn(scheduleTask(entry), signal);
    } catch {
      return null; // called off while waiting for its turn
    }
    if (signal.aborted) return null;
    const sentAt = Date.now();
    try {
      const task = await api.getTask(taskId, {
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
      await answers.apply(task, seen());
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
      return null;
    }
  }

  /** One task's loop: its turn, a poll, the answer recorded; again until it is terminal or called off. */
  async function loop(taskId: string, signal: AbortSignal): Promise<void> {
    try {
      while (!signal.aborted) {
        const entry = store.get(taskId);
        // Another member's task (or this member's other device's) is polled by the studio that made it.
        if (!entry || isTerminal(entry.status) || !store.isLocal(taskId)) return;
        const task = await pollOnce(taskId, entry, signal);
        if (task && isTerminal(task.status)) return;
        // Called off meanwhile: the loop's condition sees the signal.
        await sleep(POLL_GAP_MS, signal).catch(() => undefined);
      }
    } finally {
      // This loop's place is free for the task's next time in the active set.
      if (loops.get(taskId)?.signal === signal) loops.delete(taskId);
    }
  }

  const polled = (id: string) => {
    const entry = store.get(id);
    return entry !== undefined && !isTerminal(entry.status) && store.isLocal(id);
  };
  let ids: readonly string[] | null = null;
  const follow = (force = false) => {
    const active = schedule.active();
    if (active === ids && !force) return;
    ids = active;
    const wanted = new Set(active.filter(polled));
    for (const [id, controller] of loops) {
      if (wanted.has(id)) continue;
      controller.abort();
      loops.delete(id);
    }
    for (const id of wanted) {
      if (loops.has(id)) continue;
      const controller = new AbortController();
      loops.set(id, controller);
      void loop(id, controller.signal);
    }
  };
  follow();
  const offSchedule = schedule.subscribe(() => follow());
  // A task of the active set may become this device's own without the schedule changing: the team's
  // copy came first (another tab made it; the team document was quicker than that tab's message).
  const offStore = store.subscribe(() => follow(true));
  // The service answers again after an outage: polls waiting out a retry or a back-off are called off
  // and start again now (the schedule expedites every task; startPolling).
  const offRecovered = api.health.onRecovered(() => {
    for (const controller of loops.values()) controller.abort();
    loops.clear();
    follow(true);
  });
  return () => {
    offSchedule();
    offStore();
    offRecovered();
    for (const controller of loops.values()) controller.abort();
    loops.clear();
    answers.flush();
  };
}
