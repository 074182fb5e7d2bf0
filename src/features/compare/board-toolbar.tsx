import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo, useState, useSyncExternalStore } from 'react';
import {
  BadgeCheck,
  ChartScatter,
  Download,
  Eye,
  EyeOff,
  Link2,
  ListChecks,
  Redo2,
  Trophy,
  Undo2,
} from 'lucide-react';
import { useApi } from '../../api/api-context';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { MIN_COLUMNS, currentDecision, encodeSetup } from '../../model/compare/boards';
import type { BoardHistory } from '../../model/compare/team-boards';
import type { Vote } from '../../model/compare/votes';
import type { CompareTeam } from './compare-team';
import { categoryReportInput } from './category-report';
import { CriteriaDialog } from './criteria';
import { DecideDialog } from './decision';
import { LeaderboardDialog } from './leaderboard-dialog';
import { ModelReportDialog } from './model-report-view';
import type { BoardState } from './use-board';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// The board's toolbar: its name, Share link (not on a blind board), Blind or Reveal, the Leaderboard and
// the Model report (their dialogs wired here), Criteria (what the cells are scored on), Decide (not on a
// blind board: a decision names a model),
// Export contact sheet, and on a team board this member's Undo and Redo.

const NO_HISTORY = { canUndo: false, canRedo: false };
const noHistory = () => NO_HISTORY;

export function BoardToolbar({
  state,
  blind,
  team,
  inTeam,
  history,
  leaderboardVotes,
  boardVotes,
  shareUrl,
  onShared,
  onExport,
}: {
  state: BoardState;
  blind: boolean;
  /** The team when the board is a team board. */
  team: CompareTeam | null;
  /** The board is in the team's document (a new one is once it holds something). */
  inTeam: boolean;
  /** This member's undo history of a team board (null: not a team board). */
  history: BoardHistory | null;
  /** The team's votes for its Leaderboard; null on this device. */
  leaderboardVotes: { team: readonly Vote[]; mine: readonly Vote[] } | null;
  /** This board's votes on this device (a team board's are every member's, in leaderboardVotes). */
  boardVotes: ReadonlyMap<string, Vote>;
  /** The link that opens this setup (the app knows its own URL scheme). */
  shareUrl: (encoded: string) => string;
  /** The share link made (and copied), or null when it no longer applies (the board went blind). */
  onShared: (url: string | null) => void;
  onExport: () => void;
}) {
  const { t } = useLingui();
  const { connectionId } = useApi();
  const { board, update, columns } = state;
  const nameId = useId();
  const [leaderboardOpen, setLeaderboardOpen] = useState(false);
  const [reportOpen, setReportOpen] = useState(false);
  const [decideOpen, setDecideOpen] = useState(false);
  const [criteriaOpen, setCriteriaOpen] = useState(false);
  const reportTasks = useMemo(() => state.cells.flatMap((c) => (c.entry ? [c.entry] : [])), [state.cells]);
  const reportVotes = useMemo(
    () => (leaderboardVotes ? leaderboardVotes.team : [...boardVotes.values()]),
    [leaderboardVotes, boardVotes],
  );
  const undoState = useSyncExternalStore(history?.subscribe ?? NO_SUBSCRIBE, history?.snapshot ?? noHistory);
  return (
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
            onShared(url);
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
            onShared(null);
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
      <Button onClick={() => setCriteriaOpen(true)}>
        <ListChecks className="size-4" aria-hidden="true" />
        <Trans comment="What a board's results are scored on (1-5 each)">Criteria</Trans>
      </Button>
      <Button onClick={() => setReportOpen(true)}>
        <ChartScatter className="size-4" aria-hidden="true" />
        <Trans>Model report</Trans>
      </Button>
      {!blind && (
        <Button onClick={() => setDecideOpen(true)} disabled={columns.length === 0}>
          <BadgeCheck className="size-4" aria-hidden="true" />
          <Trans comment="Record which model the board chose">Decide</Trans>
        </Button>
      )}
      <Button onClick={onExport} disabled={columns.length === 0}>
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
      <LeaderboardDialog
        open={leaderboardOpen}
        onOpenChange={setLeaderboardOpen}
        connectionId={connectionId}
        category={board.setup.category}
        team={leaderboardVotes}
      />
      <CriteriaDialog
        open={criteriaOpen}
        onOpenChange={setCriteriaOpen}
        criteria={board.criteria}
        keeps={state.keepsScores}
        onSave={(criteria) => update((b) => ({ ...b, criteria }))}
      />
      <DecideDialog
        open={decideOpen}
        onOpenChange={setDecideOpen}
        columns={columns}
        current={currentDecision(board.decisions)}
        onDecide={(decision) => {
          if (!team) {
            update((b) => ({ ...b, decisions: [...b.decisions, { ...decision, by: '', at: Date.now() }] }));
            return true;
          }
          // A team board not saved yet is saved first (the decision goes into the team's board).
          if (!inTeam) update((b) => b);
          return team.boards.decide(board.id, decision);
        }}
      />
      <ModelReportDialog
        open={reportOpen}
        onOpenChange={setReportOpen}
        board={board}
        tasks={reportTasks}
        votes={reportVotes}
        names={(key) => {
          const c = columns.find((col) => col.key === key);
          return c && { name: c.model.name, versionName: c.versionName };
        }}
        blind={blind}
        inTeam={leaderboardVotes !== null}
        decisions={board.decisions}
        {...(team ? { memberName: team.memberName } : {})}
        loadCategory={() =>
          categoryReportInput({
            category: board.setup.category,
            team,
            teamVotes: leaderboardVotes?.team ?? null,
            connectionId,
            tasks: state.history,
          })
        }
      />
    </div>
  );
}
