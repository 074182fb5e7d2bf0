import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { newId, type Board } from '../../model/compare/boards';
import type { HistoryEntry } from '../../model/history/history-types';
import { pauseReasonText, type QueueItem, type QueueSnapshot } from '../../model/queue/queue';
import type { PlannedCell } from './board-model';
import { cellEntry, cellRunState, type CellView } from './cell-view';
import { sendCells, type CompareRunner, type SendNote } from './send-cells';
import type { CellQuote } from './use-cell-quotes';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// Each cell of a board with its task as the history knows it, and its runs: a run's keys are written to
// the board first, so a reload finds (and never re-pays) every cell.

const HELD_NOTE = msg`Held in your queue until the pool has room; nothing is charged yet.`;
const PAUSED_NOTE = msg`Held in your queue, which is paused; nothing is charged yet.`;
/** A cell whose task is neither held, nor on its way, nor in the history (found so after a reload). */
const NOT_SENT_NOTE = msg`Not sent: removed from your queue or refused; nothing was charged.`;

const EMPTY: HistoryEntry[] = [];
const NO_QUEUE: QueueSnapshot = {
  items: [],
  settings: { paused: false, pausedReason: null, sendAtOnce: false, stopAfterCredits: null },
  sentCredits: 0,
};
const noQueue = () => NO_QUEUE;

interface BoardAccess {
  board: Board;
  /** The board as it stands now, this tick's edits included. */
  current: () => Board;
  /** Writes the board at once; resolves when it is stored. */
  write: (next: Board) => Promise<void>;
  update: (change: (b: Board) => Board) => void;
  /** A team board: its cells may be another member's, held on their device. */
  isTeam: boolean;
}

export function useCellRuns(
  { board, current, write, update, isTeam }: BoardAccess,
  planned: readonly PlannedCell[],
  quoteByBody: ReadonlyMap<string, CellQuote>,
  runner: CompareRunner | null,
) {
  const { i18n } = useLingui();
  const history = useSyncExternalStore(
    runner?.store.subscribe ?? NO_SUBSCRIBE,
    runner?.store.list ?? (() => EMPTY),
  );
  const [sendNotes, setSendNotes] = useState<Record<string, SendNote>>({});
  const queued = useSyncExternalStore(
    runner?.queue.subscribe ?? NO_SUBSCRIBE,
    runner?.queue.snapshot ?? noQueue,
  );
  /** Keys of the cells this board is sending now (from the board's write until every answer). */
  const sending = useRef(new Set<string>());
  const heldByKey = useMemo(() => new Map(queued.items.map((item) => [item.idempotencyKey, item])), [queued]);

  const noteText = (note: SendNote | undefined) =>
    note === undefined ? null : typeof note.text === 'string' ? note.text : i18n._(note.text);
  /** What the queue says of a cell's held task: why it waits, in the language of the moment. */
  const heldNote = (item: QueueItem): string => {
    const { paused, pausedReason } = queued.settings;
    const blocked = item.held.blocked;
    if (blocked !== null) return i18n._(msg`Held in your queue, not sent: ${blocked}`);
    if (paused && pausedReason) {
      const why = pauseReasonText(pausedReason);
      return i18n._(msg`Held in your queue; nothing is charged yet. ${why}`);
    }
    return i18n._(paused ? PAUSED_NOTE : HELD_NOTE);
  };
  // A reload can leave a cell with a key but no task id: the history names the task created with
  // that key (cellEntry), so nothing needs writing back.
  const cells: CellView[] = planned.map((cell) => {
    const run = board.cells[cell.key];
    const entry = cellEntry(run, history);
    const q = quoteByBody.get(cell.body);
    // Held in the queue: the queue's, whatever a send of this page said (a 402 takes a task back, held).
    const held = run && !entry ? heldByKey.get(run.idempotencyKey) : undefined;
    return {
      ...cell,
      entry,
      state: cellRunState(cell, run, entry, !held && (sendNotes[cell.key]?.refused ?? false)),
      quote: cell.problem ? undefined : q?.quote,
      quoteError: q?.error ?? null,
      sendNote: held ? heldNote(held) : noteText(sendNotes[cell.key]),
      held: held ? { queuePaused: queued.settings.paused } : null,
    };
  });

  // A cell whose task was held, then removed from the queue after the run that held it was gone (a
  // reload, another tab): no answer will come for it, so it would say "sending" for good. A key that
  // the whole history lacks and that IndexedDB's outbox store (held and unanswered tasks alike, shared
  // by every tab) does not have was never sent: the cell can run again (a run of this page still on its
  // way is left alone). Only this device's board: a team board's cells may be another member's, held on
  // their device.
  const waiting = isTeam
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

  const run = async (runner: CompareRunner, targets: readonly CellView[], keys: Map<string, string>) => {
    // A cell run again (its inputs changed) while its last task is still held: that one is removed first,
    // never sent, so the cell has one task, not two.
    const stillHeld = targets.flatMap((c) => {
      const key = current().cells[c.key]?.idempotencyKey;
      return key !== undefined && runner.queue.placeOf(key) !== null ? [key] : [];
    });
    if (stillHeld.length > 0) await runner.queue.remove(stillHeld);
    // The keys are on disk before any request leaves: a reload mid-run finds every cell's task.
    const base = current();
    await write({
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
    });
    setSendNotes((n) => Object.fromEntries(Object.entries(n).filter(([k]) => !keys.has(k))));
    await sendCells(runner, targets, keys, {
      note: (cellKey, note) =>
        setSendNotes((n) =>
          note === null
            ? Object.fromEntries(Object.entries(n).filter(([k]) => k !== cellKey))
            : { ...n, [cellKey]: note },
        ),
      created: (cellKey, idempotencyKey, taskId) =>
        update((b) => {
          const cell = b.cells[cellKey];
          if (!cell || cell.idempotencyKey !== idempotencyKey) return b;
          return { ...b, cells: { ...b.cells, [cellKey]: { ...cell, taskId } } };
        }),
    });
  };

  /** Runs the cells, each with a new key. */
  const runCells = async (targets: readonly CellView[]) => {
    if (!runner) return;
    const keys = new Map(targets.map((c) => [c.key, newId()]));
    for (const key of keys.values()) sending.current.add(key);
    try {
      await run(runner, targets, keys);
    } finally {
      for (const key of keys.values()) sending.current.delete(key);
    }
  };

  /** A held cell's task out of the queue (never sent, nothing charged): the cell can run again. */
  const removeHeld = async (cell: CellView) => {
    const key = board.cells[cell.key]?.idempotencyKey;
    if (runner && key !== undefined) await runner.queue.remove([key]);
  };
  const resumeQueue = () => runner?.queue.resume();

  return { cells, runCells, removeHeld, resumeQueue, history };
}
