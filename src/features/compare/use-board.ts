import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { Quote } from '../../../contract/quote';
import type { ModelType } from '../../../contract/category';
import type { HistoryEntry } from '../../model/history/history-types';
import type { HistoryStore } from '../../model/history/history-store';
import type { Outbox } from '../../model/tasks/outbox';
import { submitThroughQueue, type TaskQueue } from '../../model/queue/queue';
import type { TeamBoards } from '../../model/team/team-boards';
import { newId, saveBoard, type Board, type BoardSetup } from '../../model/boards/boards';
import {
  needsRun,
  planCells,
  resolveColumns,
  sumQuotes,
  type BoardColumn,
  type CellRunState,
  type PlannedCell,
} from './board-model';

// A board's live state: its setup and cells (saved to IndexedDB as they change), the catalog models of
// its category, a quote per cell, and each cell's task as the history knows it. Runs go through the
// queue (then the outbox) with a key written to the board first, so a reload finds (and never re-pays) every cell.
// A team board (docs/team-space.md) lives in the team's shared document instead: read from its store (so another
// member's edit shows at once) and written there by diff; IndexedDB is then y-indexeddb's business.

export interface CompareRunner {
  store: HistoryStore;
  outbox: Outbox;
  queue: TaskQueue;
}

const HELD_NOTE = msg`Held in your queue until the pool has room; nothing is charged yet.`;
const REMOVED_NOTE = msg`Removed from your queue before it was sent; nothing was charged.`;
/** A cell whose task is neither held, nor on its way, nor in the history (found so after a reload). */
const NOT_SENT_NOTE = msg`Not sent: removed from your queue or refused; nothing was charged.`;

/** A send's note: the studio's own (shown in the language of the moment), or an error's message as it came. */
type SendNote = { refused: boolean; text: MessageDescriptor | string };

export interface CellView extends PlannedCell {
  entry: HistoryEntry | null;
  state: CellRunState;
  quote: Quote | undefined;
  quoteError: string | null;
  /** Why the last send did not create a task (refused), or that it is still being sent. */
  sendNote: string | null;
}

const QUOTE_DEBOUNCE_MS = 600;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

const EMPTY: HistoryEntry[] = [];
const noop = () => () => undefined;
const NO_QUEUE = { items: [] as readonly { idempotencyKey: string }[] };
const noQueue = () => NO_QUEUE;

/** A board is saved once it holds something: an untouched new board leaves no trace. */
const worthSaving = (b: Board) =>
  b.setup.columns.length > 0 || b.setup.rows.some((r) => r.prompt.trim()) || Object.keys(b.cells).length > 0;

export function useBoard(
  initial: Board,
  runner: CompareRunner | null,
  onFirstSave?: (board: Board) => void,
  /** The team's boards when this board is (or, once it holds something, will be) a team board. */
  shared?: TeamBoards | null,
) {
  const { i18n } = useLingui();
  const { client, connectionId } = useApi();
  const [own, setBoard] = useState(initial);
  const teamRecord = useSyncExternalStore(shared?.subscribe ?? noop, () => shared?.get(initial.id) ?? null);
  const board = teamRecord?.board ?? own;
  const latest = useRef(board);
  useEffect(() => {
    latest.current = board;
  });

  // Saved on every change (a board is a small record; IndexedDB applies the puts in order), so a
  // favourite or a note is on disk before the user can reload.
  const firstSave = useRef(onFirstSave);
  useEffect(() => {
    if (shared || !worthSaving(board)) return;
    void saveBoard(board).then(() => {
      const once = firstSave.current;
      firstSave.current = undefined;
      once?.(board);
    });
  }, [board, shared]);

  /**
   * A team board's change goes to the document at once (edits compose on what the store holds now, so
   * two in one tick both land); a new board waits, as a local one does, until it holds something.
   */
  const commitShared = useCallback(
    (next: Board) => {
      if (!shared) return;
      latest.current = next;
      if (!shared.get(next.id) && !worthSaving(next)) {
        setBoard(next);
        return;
      }
      shared.save(next);
      const once = firstSave.current;
      firstSave.current = undefined;
      once?.(next);
    },
    [shared],
  );

  const update = useCallback(
    (change: (b: Board) => Board) => {
      if (shared) {
        const current = shared.get(latest.current.id)?.board ?? latest.current;
        commitShared({ ...change(current), updatedAt: Date.now() });
        return;
      }
      setBoard((b) => ({ ...change(b), updatedAt: Date.now() }));
    },
    [shared, commitShared],
  );
  const setSetup = useCallback(
    (change: (s: BoardSetup) => BoardSetup) => update((b) => ({ ...b, setup: change(b.setup) })),
    [update],
  );

  const [type, subType] = board.setup.category.split('/') as [ModelType, string];
  const models = useQuery(catalogQueries.models(client, connectionId, type, subType ?? 'default'));
  const columns: BoardColumn[] = useMemo(
    () => resolveColumns(board.setup, models.data?.items ?? []),
    [board.setup, models.data],
  );
  // A cell's problem is text: the cells are planned again when the studio's language changes.
  const locale = i18n.locale;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const planned = useMemo(() => planCells(board.setup, columns), [board.setup, columns, locale]);

  // One quote per runnable cell, asked once the typing settles; identical bodies share one request.
  const quotable = useDebounced(
    useMemo(() => planned.filter((c) => !c.problem), [planned]),
    QUOTE_DEBOUNCE_MS,
  );
  const quotes = useQueries({
    queries: quotable.map((cell) => ({
      queryKey: ['compare-quote', connectionId, cell.body] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => client.quote(cell.request, { signal }),
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const quoteByBody = new Map<string, { quote?: Quote; error: string | null }>();
  quotable.forEach((cell, i) => {
    const q = quotes[i];
    quoteByBody.set(cell.body, { quote: q?.data, error: q?.error ? q.error.message : null });
  });

  const history = useSyncExternalStore(runner?.store.subscribe ?? noop, runner?.store.list ?? (() => EMPTY));
  const [sendNotes, setSendNotes] = useState<Record<string, SendNote>>({});
  const queued = useSyncExternalStore(runner?.queue.subscribe ?? noop, runner?.queue.snapshot ?? noQueue);
  /** Keys of the cells this board is sending now (from the board's write until every answer). */
  const sending = useRef(new Set<string>());
  const heldKeys = useMemo(() => new Set(queued.items.map((item) => item.idempotencyKey)), [queued]);

  const noteText = (note: SendNote | undefined) =>
    note === undefined ? null : typeof note.text === 'string' ? note.text : i18n._(note.text);
  const cells: CellView[] = planned.map((cell) => {
    const run = board.cells[cell.key];
    const entry =
      (run?.taskId ? history.find((e) => e.taskId === run.taskId) : undefined) ??
      (run ? history.find((e) => e.idempotencyKey === run.idempotencyKey) : undefined) ??
      null;
    const state: CellRunState = !run
      ? 'never'
      : run.request !== cell.body
        ? 'changed'
        : entry?.status === 'succeeded'
          ? 'succeeded'
          : entry?.status === 'failed' ||
              entry?.status === 'cancelled' ||
              (!entry && sendNotes[cell.key]?.refused)
            ? 'failed'
            : 'active';
    const q = quoteByBody.get(cell.body);
    return {
      ...cell,
      entry,
      state,
      quote: cell.problem ? undefined : q?.quote,
      quoteError: q?.error ?? null,
      sendNote:
        run && !entry && heldKeys.has(run.idempotencyKey) ? i18n._(HELD_NOTE) : noteText(sendNotes[cell.key]),
    };
  });

  // A reload can leave a cell with a key but no task id: the history names the task created with
  // that key (the lookup above), so nothing needs writing back.

  // A cell whose task was held, then removed from the queue after the run that held it was gone (a
  // reload, another tab): no answer will come for it, so it would say "sending" for good. A key that
  // the whole history lacks and that IndexedDB's outbox store (held and unanswered tasks alike, shared
  // by every tab) does not have was never sent: the cell can run again (a run of this page still on its
  // way is left alone). Only this device's board: a team board's cells may be another member's, held on
  // their device.
  const waiting = shared
    ? []
    : cells.flatMap((c) => {
        const run = board.cells[c.key];
        return run && c.state === 'active' && c.sendNote === null ? [`${c.key}\n${run.idempotencyKey}`] : [];
      });
  const waitingKey = waiting.join('\n\n');
  useEffect(() => {
    if (!runner || waitingKey === '') return;
    let cancelled = false;
    const pairs = waitingKey.split('\n\n').map((pair) => pair.split('\n') as [string, string]);
    void (async () => {
      await runner.store.whenLoaded();
      const unsent = await runner.queue.unsent(pairs.map(([, key]) => key));
      if (cancelled || !unsent) return;
      const inHistory = new Set(runner.store.list().map((e) => e.idempotencyKey));
      const gone = pairs.filter(
        ([, key]) => unsent.includes(key) && !inHistory.has(key) && !sending.current.has(key),
      );
      if (gone.length === 0) return;
      setSendNotes((n) => ({
        ...n,
        ...Object.fromEntries(gone.map(([cellKey]) => [cellKey, { refused: true, text: NOT_SENT_NOTE }])),
      }));
    })();
    return () => {
      cancelled = true;
    };
  }, [runner, waitingKey]);

  const totals = sumQuotes(cells, (c) => quoteByBody.get(c.body)?.quote?.credits);
  const toRun = cells.filter((c) => !c.problem && needsRun(c.state));
  const runTotal = toRun.reduce<number | null>(
    (sum, c) => (sum === null || c.quote === undefined ? null : sum + c.quote.credits),
    0,
  );

  const runCells = async (targets: CellView[]) => {
    if (!runner) return;
    const keys = new Map(targets.map((c) => [c.key, newId()]));
    for (const key of keys.values()) sending.current.add(key);
    try {
      await sendCells(runner, targets, keys);
    } finally {
      for (const key of keys.values()) sending.current.delete(key);
    }
  };

  const sendCells = async (runner: CompareRunner, targets: CellView[], keys: Map<string, string>) => {
    // The keys are on disk before any request leaves: a reload mid-run finds every cell's task.
    const base = shared?.get(latest.current.id)?.board ?? latest.current;
    const next: Board = {
      ...base,
      updatedAt: Date.now(),
      cells: {
        ...base.cells,
        ...Object.fromEntries(
          targets.map((c) => [
            c.key,
            { idempotencyKey: keys.get(c.key)!, request: c.body, runAt: Date.now() },
          ]),
        ),
      },
    };
    if (shared) commitShared(next);
    else {
      latest.current = next;
      setBoard(next);
      await saveBoard(next);
      const once = firstSave.current;
      firstSave.current = undefined;
      once?.(next);
    }
    setSendNotes((n) => Object.fromEntries(Object.entries(n).filter(([k]) => !keys.has(k))));
    // A run of several cells is one batch in the history, as Runs and Variations are ("Group batches").
    const batchId = targets.length > 1 ? newId() : undefined;
    // Through the queue, as Generate sends: at once when it would send them now, otherwise held with
    // the keys written above (nothing charged) until the pool has room (docs/queue.md).
    const { results } = await submitThroughQueue(
      runner.queue,
      (request, meta, options) => runner.outbox.submit(request, meta, options),
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
          setSendNotes((n) => ({ ...n, [c.key]: { refused: true, text: REMOVED_NOTE } }));
          return;
        }
        if (result.kind === 'created') {
          setSendNotes((n) => Object.fromEntries(Object.entries(n).filter(([k]) => k !== c.key)));
          update((b) => {
            const cell = b.cells[c.key];
            if (!cell || cell.idempotencyKey !== result.idempotencyKey) return b;
            return { ...b, cells: { ...b.cells, [c.key]: { ...cell, taskId: result.created.taskId } } };
          });
        } else {
          // Refused: nothing was created, so the cell can run again. Pending: the outcome is unknown and
          // the outbox re-sends with the same key, so the cell stays active (a new run could pay twice).
          // The error's message is the service's (or the network's), shown as it came.
          const { message } = result.error;
          const note: SendNote =
            result.kind === 'refused'
              ? { refused: true, text: message }
              : { refused: false, text: msg`Sending… ${message} It is re-sent with the same key.` };
          setSendNotes((n) => ({ ...n, [c.key]: note }));
        }
      }),
    );
  };

  return {
    board,
    update,
    setSetup,
    models,
    columns,
    cells,
    totals,
    toRun,
    runTotal,
    runAll: () => runCells(toRun),
    rerun: (cell: CellView) => runCells([cell]),
    ready: runner !== null,
    /** The team's record of this board (null: a local board, or a team board not saved yet). */
    teamRecord,
  };
}

export type BoardState = ReturnType<typeof useBoard>;
