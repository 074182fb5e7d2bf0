import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import type { Me } from '../../../contract/me';
import { Alert } from '../../components/alert';
import { inputClass } from '../../components/field';
import type { Board } from '../../model/compare/boards';
import { BoardGrid } from './board-grid';
import { BoardParams, type RenderParam } from './board-params';
import { BoardToolbar } from './board-toolbar';
import { BoardViewers } from './board-viewers';
import { DecisionSummary, decidedName } from './decision';
import type { CompareTeam } from './compare-team';
import { ModelPicker } from './model-picker';
import { PromptList } from './prompt-list';
import { RunBar } from './run-bar';
import type { CompareRunner } from './send-cells';
import { useBoard } from './use-board';
import { useBoardUndo } from './use-board-undo';
import { useSheetExport } from './use-sheet-export';
import { useBoardVotes } from './use-votes';

// One board, open: its toolbar, the notes above it (who else has it open, blind, the share link), its setup
// (models, prompts, params), its run bar and its grid. The parts are files of their own; this one puts them
// together and holds what they share (the board's state, its votes, whether it is blind).

export interface BoardEditorProps {
  initial: Board;
  runner: CompareRunner | null;
  me: Me;
  renderParam: RenderParam;
  /** The link that opens this setup (the app knows its own URL scheme). */
  shareUrl: (encoded: string) => string;
  /** The team when this board is (or will be, once it holds something) a team board; null: this device. */
  team: CompareTeam | null;
  /** The board was saved for the first time. */
  onSaved: (board: Board) => void;
}

export function BoardEditor({ initial, runner, me, renderParam, shareUrl, team, onSaved }: BoardEditorProps) {
  const { t } = useLingui();
  const { connectionId } = useApi();
  const state = useBoard(initial, runner, onSaved, team?.boards ?? null);
  const { board, teamRecord } = state;
  const { votes, vote, leaderboardVotes } = useBoardVotes(connectionId, board.id, board.setup.category, team);
  // In the team, Reveal is each member's own: a member stays blind until they reveal.
  const blind = team && teamRecord ? team.boards.blindForMe(teamRecord) : board.blind;
  const inTeam = team !== null && teamRecord !== null;
  const history = useBoardUndo(team, inTeam, board.id);
  const sheet = useSheetExport(state, blind, votes);
  const [shared, setShared] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-6">
      <BoardToolbar
        state={state}
        blind={blind}
        team={team}
        inTeam={inTeam}
        history={history}
        leaderboardVotes={leaderboardVotes}
        boardVotes={votes}
        shareUrl={shareUrl}
        onShared={setShared}
        onExport={() => void sheet.exportSheet()}
      />
      {team && <BoardViewers team={team} inTeam={inTeam} boardId={board.id} />}
      {!blind && (
        <DecisionSummary
          decisions={board.decisions}
          nameOf={(key) => decidedName(state.columns, key)}
          memberName={team?.memberName ?? (() => '')}
        />
      )}
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
      {sheet.error && <Alert tone="error" title={sheet.error} />}

      {!blind && <ModelPicker state={state} />}
      <PromptList state={state} />
      <BoardParams state={state} blind={blind} renderParam={renderParam} />
      <RunBar state={state} blind={blind} me={me} />

      <BoardGrid
        state={state}
        blind={blind}
        votes={votes}
        onVote={(rowId, candidates, winner) => void vote(rowId, candidates, winner)}
      />
    </div>
  );
}
