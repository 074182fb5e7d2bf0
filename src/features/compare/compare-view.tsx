import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useApi } from '../../api/api-context';
import type { Me } from '../../../contract/me';
import { Alert } from '../../components/alert';
import { Spinner } from '../../components/spinner';
import { emptySetup, getBoard, newId, type Board, type BoardSetup } from '../../model/compare/boards';
import type { TeamBoard } from '../../model/compare/team-boards';
import { BoardEditor } from './board-editor';
import { BoardList } from './board-list';
import type { BoardSource } from './board-source';
import type { RenderParam } from './board-params';
import { defaultBoardName } from './board-model';
import { CellExtrasContext, type RenderCellExtras } from './cell-extras';
import type { CompareTeam } from './compare-team';
import type { CompareRunner } from './send-cells';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// product-notes §3 "Compare": boards listed, opened, deleted; a board's setup (models, versions, shared and
// per-model params, prompts) above its grid; the total quote before running; share link and export.
// With the team space on (docs/team-space.md) the team's boards are listed and edited live, new boards are
// made in the team, and blind votes count in the team's Leaderboard. The team's stores come in as props and
// are imported here as types only: the team space's code (and Yjs) loads on demand, never with this view.
// This file opens the board its source names, beside the Boards list (board-list.tsx); the board itself is
// board-editor.tsx and the files it puts together.

interface CompareViewProps {
  source: BoardSource;
  runner: CompareRunner | null;
  me: Me;
  renderParam: RenderParam;
  /** The board shown changed (saved boards get their id in the URL). */
  onOpen: (source: BoardSource) => void;
  /** The link that opens this setup (the app knows its own URL scheme). */
  shareUrl: (encoded: string) => string;
  /** The team space's boards and votes when it is on; null or absent: boards stay on this device. */
  team?: CompareTeam | null;
  /**
   * Extras shown in each cell of a board (the app puts the cell's Review and Comments there): provided
   * here to the whole view, read by each board row (cell-extras.ts).
   */
  renderCellExtras?: RenderCellExtras;
}

const NO_TEAM_BOARDS: readonly TeamBoard[] = [];
const noTeamBoards = () => NO_TEAM_BOARDS;

function newBoard(connectionId: string, setup: BoardSetup): Board {
  const now = Date.now();
  return {
    id: newId(),
    connectionId,
    name: defaultBoardName(now),
    createdAt: now,
    updatedAt: now,
    setup,
    cells: {},
    favourites: {},
    notes: {},
    blind: false,
    decisions: [],
    criteria: [],
    scores: {},
  };
}

function freshBoard(connectionId: string, source: BoardSource): Board | null {
  if (source.kind === 'saved') return null;
  if (source.kind === 'shared') return newBoard(connectionId, source.setup);
  const setup = emptySetup(source.category ?? 'image/default');
  return newBoard(connectionId, { ...setup, columns: source.columns ?? [] });
}

export function CompareView({
  source,
  onOpen,
  team: teamProp,
  renderCellExtras,
  ...editor
}: CompareViewProps) {
  const { t } = useLingui();
  const { connectionId } = useApi();
  const [loaded, setLoaded] = useState<{ id: string; board: Board | 'missing' } | null>(null);

  const sourceKey = JSON.stringify(source);
  // A new or shared board is made once per source (compared by value); a saved one is read from disk.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fresh = useMemo(() => freshBoard(connectionId, source), [connectionId, sourceKey]);
  const savedId = source.kind === 'saved' ? source.id : null;
  useEffect(() => {
    if (!savedId) return;
    let live = true;
    void getBoard(connectionId, savedId).then(
      (b) => live && setLoaded({ id: savedId, board: b ?? 'missing' }),
    );
    return () => {
      live = false;
    };
  }, [connectionId, savedId]);
  const team = teamProp ?? null;
  const teamBoards = useSyncExternalStore(
    team?.boards.subscribe ?? NO_SUBSCRIBE,
    team?.boards.snapshot ?? noTeamBoards,
  );
  const teamRecord = savedId ? (teamBoards.find((r) => r.board.id === savedId) ?? null) : null;
  const board = teamRecord
    ? teamRecord.board
    : savedId
      ? loaded?.id === savedId
        ? loaded.board
        : null
      : fresh;
  // With the team space on, a new board is made in the team; a saved one is the team's when it has it.
  const where: 'team' | 'local' = team && (teamRecord || !savedId) ? 'team' : 'local';

  return (
    <CellExtrasContext value={renderCellExtras}>
      <main className="grid flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[260px_minmax(0,1fr)] lg:items-start">
        <BoardList
          team={team}
          teamBoards={teamBoards}
          currentId={board !== null && board !== 'missing' ? board.id : null}
          onOpen={onOpen}
        />
        <section
          aria-label={t({
            message: 'Compare',
            comment: 'The Compare view: one prompt through several models',
          })}
          className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-800"
        >
          {board === null && <Spinner label={t`Loading the board`} />}
          {board === 'missing' && (
            <Alert
              tone="error"
              title={
                team
                  ? t`This board is neither on this device nor in your team’s space.`
                  : t`This board is not on this device for this key.`
              }
            >
              {team
                ? t`It may have been deleted, or the team’s boards have not arrived yet. Start a new one from the list.`
                : t`Boards are saved per key in this browser. Start a new one from the list.`}
            </Alert>
          )}
          {board !== null && board !== 'missing' && (
            <BoardEditor
              key={`${where}:${board.id}`}
              initial={board}
              {...editor}
              team={where === 'team' ? team : null}
              onSaved={(saved) => {
                if (source.kind === 'saved') return;
                // The URL now names the board (a reload reopens it); the editor stays as it is.
                setLoaded({ id: saved.id, board: saved });
                onOpen({ kind: 'saved', id: saved.id });
              }}
            />
          )}
        </section>
      </main>
    </CellExtrasContext>
  );
}
