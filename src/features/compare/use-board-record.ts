import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { saveBoard, type Board, type BoardSetup } from '../../model/compare/boards';
import type { TeamBoards } from '../../model/compare/team-boards';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// Where a board's record lives and how an edit reaches it: on this device, saved to IndexedDB on every
// change; or, for a team board (docs/team-space.md), in the team's shared document, read from its store (so
// another member's edit shows at once) and written there by diff (IndexedDB is then y-indexeddb's business).

/**
 * A board is saved once it holds something, a name typed included (a board named and nothing else yet is
 * one the user means to keep): an untouched new board leaves no trace. `startName` is the name it opened
 * with (a new board's is the default one).
 */
const worthSaving = (b: Board, startName: string) =>
  b.name !== startName ||
  b.setup.columns.length > 0 ||
  b.setup.rows.some((r) => r.prompt.trim()) ||
  Object.keys(b.cells).length > 0;

export function useBoardRecord(
  initial: Board,
  onFirstSave: ((board: Board) => void) | undefined,
  /** The team's boards when this board is (or, once it holds something, will be) a team board. */
  shared: TeamBoards | null,
) {
  const [own, setBoard] = useState(initial);
  const [startName] = useState(initial.name);
  const teamRecord = useSyncExternalStore(
    shared?.subscribe ?? NO_SUBSCRIBE,
    () => shared?.get(initial.id) ?? null,
  );
  const board = teamRecord?.board ?? own;
  const latest = useRef(board);
  useEffect(() => {
    latest.current = board;
  });

  // Saved on every change (a board is a small record; IndexedDB applies the puts in order), so a
  // favourite or a note is on disk before the user can reload.
  const firstSave = useRef(onFirstSave);
  const savedFirst = useCallback((next: Board) => {
    const once = firstSave.current;
    firstSave.current = undefined;
    once?.(next);
  }, []);
  // Once saved, every change is (a name typed back to the one it opened with included).
  const saving = useRef(false);
  useEffect(() => {
    if (shared || !(saving.current || worthSaving(board, startName))) return;
    saving.current = true;
    void saveBoard(board).then(() => savedFirst(board));
  }, [board, shared, savedFirst, startName]);

  /**
   * A team board's change goes to the document at once (edits compose on what the store holds now, so
   * two in one tick both land); a new board waits, as a local one does, until it holds something.
   */
  const commitShared = useCallback(
    (next: Board) => {
      if (!shared) return;
      latest.current = next;
      if (!shared.get(next.id) && !worthSaving(next, startName)) {
        setBoard(next);
        return;
      }
      shared.save(next);
      savedFirst(next);
    },
    [shared, savedFirst, startName],
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

  /** The board as it stands now, this tick's edits included (what a write builds on). */
  const current = (): Board => shared?.get(latest.current.id)?.board ?? latest.current;

  /** Writes `next` at once and resolves when it is stored (on disk, or in the team's document). */
  const write = async (next: Board): Promise<void> => {
    if (shared) {
      commitShared(next);
      return;
    }
    latest.current = next;
    setBoard(next);
    await saveBoard(next);
    savedFirst(next);
  };

  return { board, teamRecord, update, setSetup, current, write };
}
