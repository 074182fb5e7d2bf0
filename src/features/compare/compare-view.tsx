import { ph, plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  Download,
  EyeOff,
  Eye,
  Link2,
  Play,
  Plus,
  Redo2,
  Share2,
  Trash2,
  Trophy,
  Undo2,
  Users,
  X,
} from 'lucide-react';
import { useApi } from '../../api/api-context';
import type { Me } from '../../../contract/me';
import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { notifyUndo } from '../../components/notices';
import { shortcutFor } from '../../components/shortcuts';
import { Field, inputClass } from '../../components/field';
import { Select } from '../../components/select';
import { Spinner } from '../../components/spinner';
import {
  MAX_COLUMNS,
  MAX_ROWS,
  MIN_COLUMNS,
  columnKey,
  deleteBoard,
  emptySetup,
  encodeSetup,
  getBoard,
  listBoards,
  newId,
  saveBoard,
  subscribeBoards,
  type Board,
  type BoardSetup,
  type Column,
} from '../../model/boards/boards';
import { CATEGORY_GROUPS, categoryLabel } from '../../model/category-labels';
import type { Candidate, Vote } from '../../model/boards/votes';
import type { TeamBoard, TeamBoards, Viewer } from '../../model/team/team-boards';
import type { TeamVotes } from '../../model/team/team-votes';
import { displayText } from '../../lib/untrusted-text';
import { formatCredits, formatList } from '../../lib/format';
import { QuoteWarningList } from '../../components/quote-warning-list';
import { quoteWarnings } from '../../model/quote-warnings';
import { BoardGrid, cellCost, cellSeconds, cellStatus, type RenderCellExtras } from './board-grid';
import { blindLabel, defaultBoardName, splitParams } from './board-model';
import { blindOrder } from './blind-order';
import { LeaderboardDialog } from './leaderboard-dialog';
import { useBoardVotes } from './use-votes';
import { renderContactSheet } from './contact-sheet';
import { useBoard, type BoardState, type CompareRunner } from './use-board';

// product-notes §3 "Compare": boards listed, opened, deleted; a board's setup (models, versions, shared and
// per-model params, prompts) above its grid; the total quote before running; share link and export.
// With the team space on (docs/team-space.md) the team's boards are listed and edited live, new boards are
// made in the team, and blind votes count in the team's Leaderboard. The team's stores come in as props and
// are imported here as types only: the team space's code (and Yjs) loads on demand, never with this view.

type RenderParam = (
  def: ParamDef,
  value: ParamValue | undefined,
  onChange: (v: ParamValue | undefined) => void,
) => ReactNode;

/** Where a board comes from when the view opens. */
export type BoardSource =
  | { kind: 'saved'; id: string }
  | { kind: 'shared'; setup: BoardSetup }
  | { kind: 'new'; category?: string; columns?: Column[] };

export interface CompareViewProps {
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
  /** Extras shown in each cell of a board (the app puts the cell's Comments there). */
  renderCellExtras?: RenderCellExtras;
}

/** What the compare view needs of the team space (made by the app from the member's TeamSpace). */
export interface CompareTeam {
  boards: TeamBoards;
  votes: TeamVotes;
  /** This member's id (the key's id from GET /me). */
  memberId: string;
  /** A member's display name as the team knows it ('' when unknown): untrusted text. */
  memberName: (id: string) => string;
}

const noop = () => () => undefined;
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
  };
}

function freshBoard(connectionId: string, source: BoardSource): Board | null {
  if (source.kind === 'saved') return null;
  if (source.kind === 'shared') return newBoard(connectionId, source.setup);
  const setup = emptySetup(source.category ?? 'image/default');
  return newBoard(connectionId, { ...setup, columns: source.columns ?? [] });
}

export function CompareView(props: CompareViewProps) {
  const { t } = useLingui();
  const { source, onOpen } = props;
  const { connectionId } = useApi();
  const [loaded, setLoaded] = useState<{ id: string; board: Board | 'missing' } | null>(null);
  const [boards, setBoards] = useState<Board[]>([]);

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
  const team = props.team ?? null;
  const teamBoards = useSyncExternalStore(
    team?.boards.subscribe ?? noop,
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

  // The list on this device is read again after every save or delete of this connection's boards (the
  // board being edited is saved on each change), so its names and counts follow the edits. Reads resolve
  // in the order they were asked (IndexedDB orders its transactions); an older one never overwrites.
  useEffect(() => {
    let live = true;
    let asked = 0;
    let shown = 0;
    const read = () => {
      const n = ++asked;
      void listBoards(connectionId).then((list) => {
        if (!live || n < shown) return;
        shown = n;
        setBoards(list);
      });
    };
    read();
    const unsubscribe = subscribeBoards((changed) => changed === connectionId && read());
    return () => {
      live = false;
      unsubscribe();
    };
  }, [connectionId]);

  return (
    <main className="grid flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[260px_minmax(0,1fr)] lg:items-start">
      {/* Beside a long board, the list stays in view under the sticky header (h-14) as the board scrolls. */}
      <nav
        aria-label={t`Boards`}
        className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 lg:sticky lg:top-18 lg:max-h-[calc(100dvh-5.5rem)] lg:overflow-y-auto dark:bg-slate-900 dark:ring-slate-800"
      >
        <div className="mb-2 flex items-center justify-between">
          <h2 className="text-sm font-semibold">
            <Trans>Boards</Trans>
          </h2>
          <Button size="sm" variant="ghost" onClick={() => onOpen({ kind: 'new' })}>
            <Plus className="size-3.5" aria-hidden="true" />
            <Trans>New board</Trans>
          </Button>
        </div>
        {team && (
          <>
            <h3 className="mt-1 mb-1 text-xs font-semibold text-slate-600 dark:text-slate-400">
              <Trans>Team boards</Trans>
            </h3>
            {teamBoards.length === 0 ? (
              <p className="mb-3 text-xs text-slate-500 dark:text-slate-400">
                <Trans>Boards you build now are shared with your team.</Trans>
              </p>
            ) : (
              <ul className="mb-3 flex flex-col gap-1" aria-label={t`Team boards`}>
                {teamBoards.map(({ board: b }) => (
                  <BoardListItem
                    key={b.id}
                    board={b}
                    current={board !== null && board !== 'missing' && board.id === b.id}
                    onOpen={() => onOpen({ kind: 'saved', id: b.id })}
                    onDelete={(current) => {
                      const undo = team.boards.delete(b.id);
                      if (current) onOpen({ kind: 'new' });
                      const name = displayText(b.name);
                      notifyUndo(t`Deleted the board “${name}” for everyone in the team.`, undo, {
                        undone: t`Restored the board “${name}”.`,
                      });
                    }}
                  />
                ))}
              </ul>
            )}
            {boards.length > 0 && (
              <h3 className="mt-1 mb-1 text-xs font-semibold text-slate-600 dark:text-slate-400">
                <Trans>On this device</Trans>
              </h3>
            )}
          </>
        )}
        {boards.length === 0 ? (
          !team && (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              <Trans>Boards you build are saved here, on this device.</Trans>
            </p>
          )
        ) : (
          <ul className="flex flex-col gap-1" aria-label={team ? t`Boards on this device` : undefined}>
            {boards.map((b) => (
              <BoardListItem
                key={b.id}
                board={b}
                current={board !== null && board !== 'missing' && board.id === b.id}
                onOpen={() => onOpen({ kind: 'saved', id: b.id })}
                onDelete={(current) => {
                  void deleteBoard(connectionId, b.id).then(() => {
                    if (current) onOpen({ kind: 'new' });
                    const name = displayText(b.name);
                    notifyUndo(
                      t`Deleted the board “${name}”. Its tasks stay in the history.`,
                      () => saveBoard(b),
                      { undone: t`Restored the board “${name}”.` },
                    );
                  });
                }}
                onShare={
                  team
                    ? () => {
                        // A copy: the board on this device stays as it was (its votes stay there too).
                        const copy = team.boards.create(b, newId());
                        onOpen({ kind: 'saved', id: copy.id });
                      }
                    : undefined
                }
              />
            ))}
          </ul>
        )}
      </nav>
      <section
        aria-label={t({ message: 'Compare', comment: 'The Compare view: one prompt through several models' })}
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
            {...props}
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
  );
}

function BoardListItem({
  board: b,
  current,
  onOpen,
  onDelete,
  onShare,
}: {
  board: Board;
  current: boolean;
  onOpen: () => void;
  onDelete: (current: boolean) => void;
  onShare?: () => void;
}) {
  const { t } = useLingui();
  const models = b.setup.columns.length;
  const prompts = b.setup.rows.length;
  return (
    <li className="flex items-center gap-1">
      <button
        type="button"
        aria-current={current ? 'true' : undefined}
        onClick={onOpen}
        className="min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-start text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 aria-[current=true]:bg-indigo-50 aria-[current=true]:font-medium dark:hover:bg-slate-800 dark:aria-[current=true]:bg-indigo-950/50"
      >
        <span dir="auto" translate="no">
          {displayText(b.name) || t`Untitled board`}
        </span>
        <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
          <Trans>
            <Plural value={models} one="# model" other="# models" /> ·{' '}
            <Plural value={prompts} one="# prompt" other="# prompts" />
          </Trans>
        </span>
      </button>
      {onShare && (
        <Button
          size="sm"
          variant="ghost"
          aria-label={t`Share to team: ${ph({ name: b.name })}`}
          onClick={onShare}
        >
          <Share2 className="size-3.5" aria-hidden="true" />
        </Button>
      )}
      <Button
        size="sm"
        variant="ghost"
        aria-label={t`Delete board ${ph({ name: b.name })}`}
        onClick={() => onDelete(current)}
      >
        <Trash2 className="size-3.5" aria-hidden="true" />
      </Button>
    </li>
  );
}

const NO_VOTES: ReadonlyMap<string, Vote> = new Map();
const NO_VIEWERS: readonly Viewer[] = [];
const NO_HISTORY = { canUndo: false, canRedo: false };
const noHistory = () => NO_HISTORY;

/** Ctrl/Cmd+Z in a text field undoes that field's typing (the browser's), not the board's. */
function BoardEditor({
  initial,
  runner,
  me,
  renderParam,
  shareUrl,
  onSaved,
  team,
  renderCellExtras,
}: CompareViewProps & { initial: Board; onSaved: (board: Board) => void }) {
  const { t } = useLingui();
  const state = useBoard(initial, runner, onSaved, team?.boards ?? null);
  const { board, update, setSetup, columns, models, totals, toRun, runTotal, teamRecord } = state;
  const { connectionId } = useApi();
  const local = useBoardVotes(connectionId, board.id, board.setup.category);
  const teamVotes = useSyncExternalStore(team?.votes.subscribe ?? noop, () =>
    team ? team.votes.ownVotes(board.id) : NO_VOTES,
  );
  const votes = team ? teamVotes : local.votes;
  const vote = (rowId: string, candidates: Candidate[], winner: string | null) => {
    if (!team) return void local.vote(rowId, candidates, winner);
    // The same pick again withdraws the vote, as on a board of this device.
    if (teamVotes.get(rowId)?.winner === winner) team.votes.withdraw(board.id, rowId);
    else team.votes.vote({ boardId: board.id, rowId, category: board.setup.category, candidates, winner });
  };
  const leaderboardVotes = useSyncExternalStore(team?.votes.subscribe ?? noop, () =>
    team ? team.votes.leaderboardVotes() : null,
  );
  // In the team, Reveal is each member's own: a member stays blind until they reveal.
  const blind = team && teamRecord ? team.boards.blindForMe(teamRecord) : board.blind;

  // Who else has this board open (awareness), and this member's own undo history of it.
  const inTeam = team !== null && team !== undefined && teamRecord !== null;
  useEffect(() => {
    if (!team || !inTeam) return;
    team.boards.setOpen(board.id);
    return () => team.boards.setOpen(null);
  }, [team, inTeam, board.id]);
  const viewers = useSyncExternalStore(team?.boards.subscribePresence ?? noop, () =>
    team ? team.boards.viewers(board.id) : NO_VIEWERS,
  );
  const history = useMemo(
    () => (team && inTeam ? team.boards.history(board.id) : null),
    [team, inTeam, board.id],
  );
  const undoState = useSyncExternalStore(history?.subscribe ?? noop, history?.snapshot ?? noHistory);
  useEffect(() => {
    if (!history) return;
    const onKey = (e: KeyboardEvent) => {
      const shortcut = shortcutFor(['compare.undo', 'compare.redo'], e);
      if (!shortcut) return;
      e.preventDefault();
      if (shortcut === 'compare.redo') history.redo();
      else history.undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [history]);
  const viewerNames = formatList(
    viewers.map((v) => displayText(team?.memberName(v.memberId) || v.name || t`a member`)),
  );
  const [leaderboardOpen, setLeaderboardOpen] = useState(false);
  const nameId = useId();
  const [shared, setShared] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const { shared: sharedDefs, own } = splitParams(columns);
  const available = (models.data?.items ?? []).flatMap((m) =>
    m.versions.map((v) => ({
      key: columnKey({ modelId: m.id, versionId: v.id }),
      label: `${m.name} · ${v.name}`,
      m,
      v,
    })),
  );
  const chosen = new Set(board.setup.columns.map(columnKey));
  const full = board.setup.columns.length >= MAX_COLUMNS;
  const warnings = runTotal !== null && runTotal > 0 ? quoteWarnings(runTotal, me) : [];
  const missingColumns = board.setup.columns.length - columns.length;

  const exportSheet = async () => {
    setExportError(null);
    try {
      // Blind: each row in its own order, columns named by place, no cost or time (they tell models
      // apart), the row's pick starred: the sheet can be judged by others without names.
      const blob = await renderContactSheet({
        title: blind ? t`${ph({ name: board.name })} (blind)` : board.name,
        columns: blind
          ? columns.map((_, i) => ({ name: blindLabel(i), version: '' }))
          : columns.map((c) => ({ name: c.model.name, version: c.versionName })),
        rows: board.setup.rows.map((row) => ({
          prompt: row.prompt,
          cells: (blind ? blindOrder(board.id, row.id, columns) : columns).map((col) => {
            const cell = state.cells.find((c) => c.row.id === row.id && c.col.key === col.key)!;
            const output = cell.state === 'succeeded' ? cell.entry?.outputs[0] : undefined;
            const cost = cellCost(cell);
            const seconds = cellSeconds(cell);
            return {
              kind: col.model.type,
              pictureUrl: col.model.type === 'image' ? (output?.url ?? null) : (output?.thumbnailUrl ?? null),
              succeeded: cell.state === 'succeeded',
              status: cellStatus(cell),
              caption: blind
                ? ''
                : [
                    cost
                      ? cost.charged
                        ? formatCredits(cost.credits)
                        : `≈ ${formatCredits(cost.credits)}`
                      : null,
                    seconds !== null ? t({ message: `${seconds} s`, comment: 's: seconds' }) : null,
                  ]
                    .filter(Boolean)
                    .join(' · '),
              favourite: blind ? votes.get(row.id)?.winner === col.key : board.favourites[row.id] === col.key,
            };
          }),
        })),
      });
      const a = document.createElement('a');
      const href = URL.createObjectURL(blob);
      a.href = href;
      a.download = `${board.name.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'board'}${blind ? ' blind' : ''} (${columns.length}x${board.setup.rows.length}).png`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch (e) {
      setExportError(e instanceof Error ? e.message : t`The contact sheet could not be made.`);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <label htmlFor={nameId} className="text-sm font-medium">
            <Trans>Board name</Trans>
          </label>
          <input
            id={nameId}
            value={board.name}
            onChange={(e) => update((b) => ({ ...b, name: e.target.value }))}
            className={`${inputClass} mt-1`}
          />
        </div>
        {!blind && (
          <Button
            onClick={() => {
              const url = shareUrl(encodeSetup(board.setup));
              setShared(url);
              void navigator.clipboard?.writeText(url).catch(() => undefined);
            }}
            disabled={columns.length === 0}
          >
            <Link2 className="size-4" aria-hidden="true" />
            <Trans>Share link</Trans>
          </Button>
        )}
        {blind ? (
          <Button
            variant="primary"
            onClick={() =>
              team && inTeam ? team.boards.reveal(board.id) : update((b) => ({ ...b, blind: false }))
            }
          >
            <Eye className="size-4" aria-hidden="true" />
            <Trans comment="Show the models' names on a blind board">Reveal</Trans>
          </Button>
        ) : (
          <Button
            disabled={columns.length < MIN_COLUMNS}
            onClick={() => {
              setShared(null);
              if (!team) return update((b) => ({ ...b, blind: true }));
              // A team board not saved yet is saved first (with two models it holds something).
              if (!inTeam) update((b) => b);
              team.boards.blind(board.id);
            }}
          >
            <EyeOff className="size-4" aria-hidden="true" />
            <Trans comment="Hide the models' names and shuffle each row, to judge the results unseen">
              Blind
            </Trans>
          </Button>
        )}
        <Button onClick={() => setLeaderboardOpen(true)}>
          <Trophy className="size-4" aria-hidden="true" />
          <Trans>Leaderboard</Trans>
        </Button>
        <Button onClick={() => void exportSheet()} disabled={columns.length === 0}>
          <Download className="size-4" aria-hidden="true" />
          <Trans>Export contact sheet</Trans>
        </Button>
        {history && (
          <>
            <Button
              variant="ghost"
              disabled={!undoState.canUndo}
              onClick={history.undo}
              title={t`Undo your last edit of this board (Ctrl+Z); the others’ edits stay`}
            >
              <Undo2 className="size-4 rtl:-scale-x-100" aria-hidden="true" />
              <Trans>Undo</Trans>
            </Button>
            <Button
              variant="ghost"
              disabled={!undoState.canRedo}
              onClick={history.redo}
              title={t`Redo your edit (Shift+Ctrl+Z)`}
            >
              <Redo2 className="size-4 rtl:-scale-x-100" aria-hidden="true" />
              <Trans>Redo</Trans>
            </Button>
          </>
        )}
      </div>
      {team && (
        <p
          className="-mt-3 flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400"
          data-testid="board-viewers"
        >
          <Users className="size-3.5 shrink-0" aria-hidden="true" />
          {viewers.length === 0 ? (
            inTeam ? (
              t`Shared with your team. No one else has it open.`
            ) : (
              t`This board is shared with your team once it holds something.`
            )
          ) : (
            <span dir="auto" translate="no">
              <Trans>Also open by {viewerNames}</Trans>
            </span>
          )}
        </p>
      )}
      <LeaderboardDialog
        open={leaderboardOpen}
        onOpenChange={setLeaderboardOpen}
        connectionId={connectionId}
        category={board.setup.category}
        team={leaderboardVotes}
      />
      {blind && (
        <Alert tone="info" title={t`Blind comparison: the models are hidden.`}>
          <Trans>
            Each prompt’s results are shuffled and named by place; cost and time are hidden too. Pick the best
            result of each prompt, or a tie, then press Reveal to see who was who.
          </Trans>{' '}
          {team
            ? t`Your votes feed the team’s Leaderboard. Reveal shows the models to you only: the others stay blind until they reveal.`
            : t`Your votes feed the Leaderboard.`}
        </Alert>
      )}
      {shared && !blind && (
        <div className="rounded-lg bg-slate-50 p-3 text-xs ring-1 ring-slate-200 ring-inset dark:bg-slate-800/60 dark:ring-slate-700">
          <p className="mb-1 font-medium">
            <Trans>Link to this setup (models, versions, params and prompts; never your key), copied:</Trans>
          </p>
          <input
            readOnly
            aria-label={t`Share link`}
            value={shared}
            className={inputClass}
            onFocus={(e) => e.target.select()}
          />
        </div>
      )}
      {exportError && <Alert tone="error" title={exportError} />}

      {!blind && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold">
            <Trans>Models</Trans>
          </legend>
          <div className="flex flex-wrap gap-3">
            <Field label={t`Board category`} className="min-w-56">
              {(control) => (
                <Select
                  {...control}
                  value={board.setup.category}
                  disabled={board.setup.columns.length > 0}
                  onChange={(e) =>
                    setSetup((s) => ({ ...s, category: e.target.value, shared: {}, perColumn: {} }))
                  }
                >
                  {CATEGORY_GROUPS.map((g) => (
                    <optgroup key={g.type} label={g.label}>
                      {g.keys.map((k) => (
                        <option key={k} value={k}>
                          {categoryLabel(k)}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </Select>
              )}
            </Field>
            <Field label={t`Add model`} className="min-w-64 flex-1">
              {(control) => (
                <Select
                  {...control}
                  value=""
                  disabled={full || models.isLoading}
                  onChange={(e) => {
                    const pick = available.find((a) => a.key === e.target.value);
                    if (pick)
                      setSetup((s) => ({
                        ...s,
                        columns: [...s.columns, { modelId: pick.m.id, versionId: pick.v.id }].slice(
                          0,
                          MAX_COLUMNS,
                        ),
                      }));
                  }}
                >
                  <option value="">
                    {full
                      ? plural(MAX_COLUMNS, { one: 'At most # model', other: 'At most # models' })
                      : t`Choose a model or version…`}
                  </option>
                  {available.map((a) => (
                    <option key={a.key} value={a.key} disabled={chosen.has(a.key)}>
                      {a.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          {board.setup.columns.length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label={t`Chosen models`}>
              {columns.map((c) => (
                <li
                  key={c.key}
                  className="flex items-center gap-1 rounded-full bg-indigo-50 py-1 pe-1 ps-3 text-sm text-indigo-900 ring-1 ring-indigo-200 ring-inset dark:bg-indigo-950/50 dark:text-indigo-100 dark:ring-indigo-900"
                >
                  <span dir="auto" translate="no">
                    {c.model.name} · {c.versionName}
                  </span>
                  <button
                    type="button"
                    aria-label={t`Remove ${ph({ model: c.model.name })} ${ph({ version: c.versionName })}`}
                    onClick={() =>
                      setSetup((s) => ({ ...s, columns: s.columns.filter((x) => columnKey(x) !== c.key) }))
                    }
                    className="rounded-full p-1 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-indigo-900"
                  >
                    <X className="size-3.5" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          {columns.length < MIN_COLUMNS && (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              <Trans>
                Choose {ph({ min: MIN_COLUMNS })} to {ph({ max: MAX_COLUMNS })} models, or versions of one
                model, to compare.
              </Trans>
            </p>
          )}
          {missingColumns > 0 && !models.isLoading && (
            <Alert
              tone="warning"
              title={plural(missingColumns, {
                one: '# model of this board is not in the catalog for this key.',
                other: '# models of this board are not in the catalog for this key.',
              })}
            />
          )}
        </fieldset>
      )}

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold">
          <Trans>Prompts</Trans>
        </legend>
        {board.setup.rows.map((row, i) => (
          <div key={row.id} className="flex items-start gap-2">
            <div className="flex-1">
              <Field label={t`Prompt ${ph({ promptNumber: i + 1 })}`}>
                {(control) => (
                  <textarea
                    {...control}
                    rows={2}
                    value={row.prompt}
                    onChange={(e) =>
                      setSetup((s) => ({
                        ...s,
                        rows: s.rows.map((r) => (r.id === row.id ? { ...r, prompt: e.target.value } : r)),
                      }))
                    }
                    className={inputClass}
                  />
                )}
              </Field>
            </div>
            {board.setup.rows.length > 1 && (
              <Button
                variant="ghost"
                size="sm"
                className="mt-6"
                aria-label={t`Remove prompt ${ph({ promptNumber: i + 1 })}`}
                onClick={() => setSetup((s) => ({ ...s, rows: s.rows.filter((r) => r.id !== row.id) }))}
              >
                <X className="size-4" aria-hidden="true" />
              </Button>
            )}
          </div>
        ))}
        <div>
          <Button
            size="sm"
            disabled={board.setup.rows.length >= MAX_ROWS}
            onClick={() => setSetup((s) => ({ ...s, rows: [...s.rows, { id: newId(), prompt: '' }] }))}
          >
            <Plus className="size-3.5" aria-hidden="true" />
            <Trans>Add prompt</Trans>
          </Button>
        </div>
      </fieldset>

      {sharedDefs.length > 0 && (
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-sm font-semibold">
            <Trans>Shared settings</Trans>
          </legend>
          <p className="-mt-2 text-xs text-slate-600 dark:text-slate-400">
            <Trans>Every chosen model has these. Left empty, each model uses its own default.</Trans>
          </p>
          {sharedDefs.map((def) => (
            <div key={def.id}>
              {renderParam(def, board.setup.shared[def.id], (v) =>
                setSetup((s) => ({ ...s, shared: withValue(s.shared, def.id, v) })),
              )}
            </div>
          ))}
        </fieldset>
      )}
      {!blind && columns.some((c) => (own.get(c.key) ?? []).length > 0) && (
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">
            <Trans>Settings of one model</Trans>
          </h3>
          {columns.map((c) => {
            const defs = own.get(c.key) ?? [];
            if (defs.length === 0) return null;
            return (
              <details
                key={c.key}
                className="rounded-lg p-3 ring-1 ring-slate-200 ring-inset dark:ring-slate-700"
              >
                <summary className="cursor-pointer text-sm font-medium">
                  <Trans>
                    Only for {ph({ model: c.model.name })} · {ph({ version: c.versionName })}
                  </Trans>
                </summary>
                <div className="mt-3 flex flex-col gap-4">
                  {defs.map((def) => (
                    <div key={def.id}>
                      {renderParam(def, board.setup.perColumn[c.key]?.[def.id], (v) =>
                        setSetup((s) => ({
                          ...s,
                          perColumn: {
                            ...s.perColumn,
                            [c.key]: withValue(s.perColumn[c.key] ?? {}, def.id, v),
                          },
                        })),
                      )}
                    </div>
                  ))}
                </div>
              </details>
            );
          })}
        </div>
      )}

      <RunBar state={state} running={running} setRunning={setRunning} blind={blind} />
      <QuoteWarningList warnings={warnings} />
      <div aria-live="polite" className="sr-only">
        {totals.total !== null ? t`Total quote ${ph({ amount: formatCredits(totals.total) })}` : ''}
      </div>
      {toRun.length === 0 &&
        columns.length >= MIN_COLUMNS &&
        state.cells.every((c) => c.state === 'succeeded') && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <Trans>Every cell has its result.</Trans>
          </p>
        )}

      <BoardGrid
        state={state}
        blind={blind}
        votes={votes}
        onVote={(rowId, candidates, winner) => void vote(rowId, candidates, winner)}
        renderCellExtras={renderCellExtras}
      />
    </div>
  );
}

function RunBar({
  state,
  running,
  setRunning,
  blind,
}: {
  state: BoardState;
  running: boolean;
  setRunning: (r: boolean) => void;
  blind: boolean;
}) {
  const { t } = useLingui();
  const { totals, toRun, runTotal, columns, ready } = state;
  const problems = state.cells.filter((c) => c.problem).length;
  const cells = toRun.length;
  const amount = runTotal !== null ? formatCredits(runTotal) : null;
  return (
    <section
      aria-label={t`Board quote`}
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/60 dark:ring-slate-700"
    >
      <div className="text-sm">
        <span className="text-slate-600 dark:text-slate-400">
          <Trans>Total quote:</Trans>{' '}
        </span>
        <span className="font-semibold tabular-nums" data-testid="compare-total">
          {columns.length === 0 ? '—' : totals.total === null ? t`updating…` : formatCredits(totals.total)}
        </span>
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {blind
            ? t`The sum of every cell’s quote; each model’s part shows after Reveal.`
            : t`The sum of every cell’s quote; each model’s part is under its name.`}
          {problems > 0 &&
            ` ${plural(problems, { one: '# cell cannot run yet.', other: '# cells cannot run yet.' })}`}
        </span>
      </div>
      <Button
        variant="primary"
        disabled={!ready || running || toRun.length === 0 || columns.length < MIN_COLUMNS}
        onClick={() => {
          setRunning(true);
          void state.runAll().finally(() => setRunning(false));
        }}
      >
        <Play className="size-4" aria-hidden="true" />
        {cells === 0
          ? t`Run all`
          : amount === null
            ? plural(cells, { one: 'Run all (# cell)', other: 'Run all (# cells)' })
            : plural(cells, { one: `Run all (# cell · ${amount})`, other: `Run all (# cells · ${amount})` })}
      </Button>
    </section>
  );
}

function withValue(
  params: Record<string, ParamValue>,
  id: string,
  value: ParamValue | undefined,
): Record<string, ParamValue> {
  const next = { ...params };
  if (value === undefined) delete next[id];
  else next[id] = value;
  return next;
}
